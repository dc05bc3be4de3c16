package httpapi_test

// Fuzz targets for every request decoder of the API: the JSON bodies of the
// POST/PATCH routes, the multipart bodies of the upload routes and the query
// strings of the list routes. Each target builds one sandbox engine with a
// few fixtures, then sends every input through the real handler and checks
// the product's rules for client input (see checkReply): never a 5xx, an
// error body in the API's shape for every 4xx, no Go error text on the
// wire, and nothing committed by a request that failed.
//
// The seed corpora live in testdata/fuzz/<Target>/; TestFuzzSeedCorpus
// rewrites them (FUZZ_WRITE_CORPUS=1) from fuzzSeeds.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/require"
)

// fuzzRoute is one route a target exercises. Path placeholders ({customer},
// {quote}, ...) are replaced by the harness's fixture ids. writesOn4xx marks
// routes whose refusals legitimately record something (a wrong one-time
// code counts an attempt).
type fuzzRoute struct {
	method, path string
	writesOn4xx  bool
}

var (
	configRoutes = []fuzzRoute{
		{method: "PATCH", path: "/config"},
		{method: "POST", path: "/tokens"},
	}
	customerBodyRoutes = []fuzzRoute{
		{method: "POST", path: "/customers"},
		{method: "PATCH", path: "/customers/{customer}"},
		{method: "PATCH", path: "/customers/{business}"},
		{method: "POST", path: "/customers/{customer}/verify-email/confirm", writesOn4xx: true},
		{method: "POST", path: "/customers/{customer}/verify-phone/confirm", writesOn4xx: true},
		{method: "POST", path: "/customers/{customer}/kyc-link"},
		{method: "POST", path: "/verifications"},
		{method: "POST", path: "/beneficial-owners"},
		{method: "PATCH", path: "/beneficial-owners/{owner}"},
	}
	externalAccountRoutes = []fuzzRoute{
		{method: "POST", path: "/customers/external-accounts"},
		{method: "POST", path: "/platform/external-accounts"},
		{method: "POST", path: "/customers/external-accounts/{external}/challenge"},
		{method: "POST", path: "/customers/external-accounts/{external}/verify", writesOn4xx: true},
		{method: "POST", path: "/platform/external-accounts/{external}/challenge"},
		{method: "POST", path: "/platform/external-accounts/{external}/verify", writesOn4xx: true},
		{method: "POST", path: "/customers/external-accounts/{external}/trust/confirm", writesOn4xx: true},
		{method: "POST", path: "/customers/external-accounts/{external}/untrust/confirm", writesOn4xx: true},
		{method: "POST", path: "/sandbox/internal-accounts/{internal}/fund"},
	}
	quoteRoutes = []fuzzRoute{
		{method: "POST", path: "/quotes"},
		{method: "POST", path: "/quotes/{quote}/authorize", writesOn4xx: true},
	}
	transferRoutes = []fuzzRoute{
		{method: "POST", path: "/transfer-out"},
		{method: "POST", path: "/transfer-in"},
		{method: "POST", path: "/sandbox/send"},
		{method: "POST", path: "/sandbox/receive"},
		{method: "POST", path: "/sandbox/uma/receive"},
		{method: "POST", path: "/transactions/{transaction}/confirm"},
	}
	uploadRoutes = []fuzzRoute{
		{method: "POST", path: "/documents"},
		{method: "PUT", path: "/documents/{document}"},
		{method: "POST", path: "/customers/bulk/csv"},
	}
	listRoutes = []fuzzRoute{
		{method: "GET", path: "/customers"},
		{method: "GET", path: "/tokens"},
		{method: "GET", path: "/verifications"},
		{method: "GET", path: "/beneficial-owners"},
		{method: "GET", path: "/documents"},
		{method: "GET", path: "/customers/internal-accounts"},
		{method: "GET", path: "/platform/internal-accounts"},
		{method: "GET", path: "/customers/external-accounts"},
		{method: "GET", path: "/platform/external-accounts"},
		{method: "GET", path: "/transactions"},
		{method: "GET", path: "/exchange-rates"},
		{method: "GET", path: "/discoveries"},
		{method: "GET", path: "/receiver/uma/$success.eur@sandbox.uma.money"},
		{method: "GET", path: "/receiver/external-account/{external}"},
	}
)

// pick returns the route a fuzzed selector names.
func pick(routes []fuzzRoute, which uint8) fuzzRoute { return routes[int(which)%len(routes)] }

func FuzzConfigBody(f *testing.F) { fuzzBody(f, configRoutes) }

func FuzzCustomersBody(f *testing.F) { fuzzBody(f, customerBodyRoutes) }

func FuzzExternalAccountsBody(f *testing.F) { fuzzBody(f, externalAccountRoutes) }

func FuzzQuotesBody(f *testing.F) { fuzzBody(f, quoteRoutes) }

func FuzzTransfersBody(f *testing.F) { fuzzBody(f, transferRoutes) }

// fuzzBody sends a fuzzed JSON body to one of routes.
func fuzzBody(f *testing.F, routes []fuzzRoute) {
	fh := newFuzzHarness(f)
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		rt := pick(routes, which)
		fh.check(t, rt, "", "application/json", body)
	})
}

// FuzzUploadBody sends a fuzzed multipart body (and Content-Type) to the
// document and bulk-import routes.
func FuzzUploadBody(f *testing.F) {
	fh := newFuzzHarness(f)
	f.Fuzz(func(t *testing.T, which uint8, contentType string, body []byte) {
		fh.check(t, pick(uploadRoutes, which), "", contentType, body)
	})
}

// FuzzListQuery sends a fuzzed raw query string to a list route.
func FuzzListQuery(f *testing.F) {
	fh := newFuzzHarness(f)
	f.Fuzz(func(t *testing.T, which uint8, rawQuery string) {
		fh.check(t, pick(listRoutes, which), rawQuery, "", nil)
	})
}

// fuzzHarness is one sandbox engine with fixtures, served in-process.
type fuzzHarness struct {
	h        http.Handler
	id, pass string
	ids      *strings.Replacer
}

// newFuzzHarness builds the engine once per fuzz worker: an individual with
// funded USD and EUR accounts, a business with an owner, an external EUR
// account, a document, a quote and an executed quote's transaction.
func newFuzzHarness(f *testing.F) *fuzzHarness {
	s := newServer(f, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}
		c.Store = &commitCounter{Store: c.Store}
	})
	customer, internal := s.funded(1_000_000, set("fullName", "Fuzz Person001"), set("umaAddress", "$fuzz@sandbox.uma.money"))
	external := s.eurAccount(customer, deIBAN("000"))
	biz := s.do("POST", "/customers", map[string]any{"customerType": "BUSINESS", "businessInfo": map[string]any{
		"legalName": "Fuzz Co", "registrationNumber": "REG-003", "taxId": "12-3456789", "country": "US", "incorporatedOn": "2001-01-01"}})
	require.Equal(f, 201, biz.Status, "%s", biz.Raw)
	business := biz.Body["id"].(string)
	owner := s.do("POST", "/beneficial-owners", map[string]any{"customerId": business, "roles": []string{"UBO"}, "ownershipPercentage": 50,
		"personalInfo": map[string]any{"firstName": "Ann", "lastName": "Owner", "birthDate": "1980-02-03", "nationality": "US",
			"idType": "SSN", "identifier": "111-22-3333", "address": map[string]any{"line1": "1 Main", "postalCode": "1", "country": "US"}}})
	require.Equal(f, 201, owner.Status, "%s", owner.Raw)
	ct, body := fuzzMultipart(map[string]string{"documentHolder": customer, "documentType": "PASSPORT", "country": "US"}, []byte("%PDF-1.7 fuzz"))
	doc := s.do("POST", "/documents", body, "Content-Type", ct)
	require.Equal(f, 201, doc.Status, "%s", doc.Raw)
	quote := s.do("POST", "/quotes", quoteBody(internal, external, 1000))
	require.Equal(f, 201, quote.Status, "%s", quote.Raw)
	executed := s.do("POST", "/quotes", quoteBody(internal, external, 2000))
	require.Equal(f, 201, executed.Status, "%s", executed.Raw)
	ex := s.do("POST", "/quotes/"+executed.Body["id"].(string)+"/execute", nil)
	require.Equal(f, 200, ex.Status, "%s", ex.Raw)
	id, pass := basic(s.cred)
	return &fuzzHarness{h: s.http.Config.Handler, id: id, pass: pass, ids: strings.NewReplacer(
		"{customer}", customer, "{business}", business, "{owner}", owner.Body["id"].(string),
		"{internal}", internal, "{external}", external, "{document}", doc.Body["id"].(string),
		"{quote}", quote.Body["id"].(string), "{transaction}", ex.Body["transactionId"].(string),
	)}
}

// goErrorText are fragments of Go error strings that must never reach a
// client (unless the client sent them itself).
var goErrorText = []string{"json: ", "strconv.", "cannot unmarshal", "invalid character", "unexpected EOF",
	"Go struct field", "Go value", "multipart: ", "mime: ", "runtime error", "goroutine ", "decimal: ", "parsing time", "%!", "<nil>"}

// reFieldHead is the first segment of a details.errors field: a JSON member
// name of the request, never a Go name.
var reFieldHead = regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)

// check sends one request and asserts the rules for client input.
func (fh *fuzzHarness) check(t *testing.T, rt fuzzRoute, rawQuery, contentType string, body []byte) {
	path := fh.ids.Replace(rt.path)
	if body != nil {
		body = []byte(fh.ids.Replace(string(body)))
	}
	req := httptest.NewRequest(rt.method, "http://fuzz"+base+path, bytes.NewReader(body))
	if body == nil {
		req.Body = http.NoBody
	}
	req.URL.RawQuery = rawQuery
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.SetBasicAuth(fh.id, fh.pass)
	var commits atomic.Int64
	req = req.WithContext(context.WithValue(req.Context(), commitKey{}, &commits))
	rec := httptest.NewRecorder()
	fh.h.ServeHTTP(rec, req)

	status, raw := rec.Code, rec.Body.Bytes()
	where := fmt.Sprintf("%s %s?%s\nrequest: %s\nstatus %d, reply: %s", rt.method, path, rawQuery, clip(fmt.Sprintf("%q", body)), status, clip(string(raw)))
	if status >= 500 {
		t.Fatalf("5xx for client input: %s", where)
	}
	sent := string(body) + rawQuery + contentType
	for _, frag := range goErrorText {
		if bytes.Contains(raw, []byte(frag)) && !strings.Contains(sent, frag) {
			t.Fatalf("Go error text %q on the wire: %s", frag, where)
		}
	}
	if len(raw) > 0 && !json.Valid(raw) {
		t.Fatalf("reply is not JSON: %s", where)
	}
	if status < 400 {
		return
	}
	var e struct {
		Status  int    `json:"status"`
		Code    string `json:"code"`
		Message string `json:"message"`
		Details struct {
			Errors []struct {
				Field   *string `json:"field"`
				Message string  `json:"message"`
			} `json:"errors"`
		} `json:"details"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatalf("error reply not in the error shape (%v): %s", err, where)
	}
	if e.Status != status || e.Code == "" || e.Message == "" {
		t.Fatalf("error reply lacks status, code or message: %s", where)
	}
	for _, fe := range e.Details.Errors {
		if fe.Field == nil || fe.Message == "" {
			t.Fatalf("details.errors entry without field or message: %s", where)
		}
		if head, _, _ := strings.Cut(*fe.Field, "."); !reFieldHead.MatchString(head) {
			t.Fatalf("details.errors field %q is not a request member: %s", *fe.Field, where)
		}
	}
	if n := commits.Load(); n > 0 && !rt.writesOn4xx {
		t.Fatalf("a refused request committed %d write transaction(s): %s", n, where)
	}
}

// clip shortens a failure report.
func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// commitKey marks a request's context with the counter of the write
// transactions it commits.
type commitKey struct{}

// commitCounter is a Store that counts, per request context, the committed
// transactions that wrote something. Transactions of the background
// dispatcher carry no counter and are not counted.
type commitCounter struct{ payments.Store }

func (c *commitCounter) Update(ctx context.Context, fn func(payments.Tx) error) error {
	n, _ := ctx.Value(commitKey{}).(*atomic.Int64)
	wrote := false
	err := c.Store.Update(ctx, func(tx payments.Tx) error { return fn(writeSpy{Tx: tx, wrote: &wrote}) })
	if err == nil && wrote && n != nil {
		n.Add(1)
	}
	return err
}

// writeSpy notes whether a transaction wrote.
type writeSpy struct {
	payments.Tx
	wrote *bool
}

func (w writeSpy) Put(table, key string, value []byte) error {
	*w.wrote = true
	return w.Tx.Put(table, key, value)
}

func (w writeSpy) Insert(table, key string, value []byte) error {
	*w.wrote = true
	return w.Tx.Insert(table, key, value)
}

func (w writeSpy) Delete(table, key string) error {
	*w.wrote = true
	return w.Tx.Delete(table, key)
}

// fuzzMultipart builds a multipart/form-data body with fixed boundary.
func fuzzMultipart(fields map[string]string, file []byte) (string, []byte) {
	const boundary = "fuzzboundary"
	var b strings.Builder
	for _, k := range sortedKeys(fields) {
		fmt.Fprintf(&b, "--%s\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n", boundary, k, fields[k])
	}
	if file != nil {
		fmt.Fprintf(&b, "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"doc.pdf\"\r\nContent-Type: application/octet-stream\r\n\r\n%s\r\n", boundary, file)
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return "multipart/form-data; boundary=" + boundary, []byte(b.String())
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// bodySeeds are one valid body per route of each JSON target (selector,
// body); placeholders such as {customer} become fixture ids when sent.
var bodySeeds = map[string][]struct {
	which uint8
	body  string
}{
	"FuzzConfigBody": {
		{0, `{"umaDomain":"fuzz.example.com","webhookEndpoint":"https://example.com/hook","supportedCurrencies":[{"currencyCode":"USD","minAmount":1,"maxAmount":1000000,"requiredCounterpartyFields":[{"name":"FULL_NAME","mandatory":true}],"enabledTransactionTypes":["OUTGOING","INCOMING"]}],"embeddedWalletConfig":{"appName":"Fuzz","otpLength":6},"feeConfigs":[{"feeType":"OUTGOING","sourceCurrency":"USD","variableFeeBps":10,"fixedFee":{"amount":5,"currency":"USD"}}],"isRegulatedFinancialInstitution":false,"skipVerificationPaperwork":false}`},
		{1, `{"name":"fuzz","permissions":["VIEW","TRANSACT"]}`},
	},
	"FuzzCustomersBody": {
		{0, `{"customerType":"INDIVIDUAL","platformCustomerId":"fz-1","region":"US","currencies":["USD","EUR"],"fullName":"Fuzz Doe","birthDate":"1990-01-15","nationality":"US","email":"fuzz@example.com","phoneNumber":"+14155550123","idType":"SSN","identifier":"123-45-6789","address":{"line1":"1 Main St","city":"Austin","state":"TX","postalCode":"78701","country":"US"},"sourceOfFundsCategories":["SALARY"],"agreementConsents":[{"type":"PROVIDER_END_USER_TERMS","termsVersion":"2025-10-13","acceptedAt":"2025-10-01T10:00:00Z","ipAddress":"203.0.113.7","acceptanceMethod":"CHECKBOX"}]}`},
		{1, `{"customerType":"INDIVIDUAL","fullName":"Fuzz Q Person001","pepStatus":"NONE","address":{"line1":"2 Main St"}}`},
		{2, `{"customerType":"BUSINESS","businessInfo":{"legalName":"Fuzz Co","country":"US","registrationNumber":"REG-003","incorporatedOn":"2001-01-01","taxId":"12-3","countriesOfOperation":["US"]}}`},
		{3, `{"code":"123456"}`},
		{4, `{"code":"123456"}`},
		{5, `{"redirectUri":"https://example.com/done"}`},
		{6, `{"customerId":"{customer}"}`},
		{7, `{"customerId":"{business}","roles":["UBO","DIRECTOR"],"ownershipPercentage":25,"personalInfo":{"firstName":"Bo","lastName":"Owner","birthDate":"1980-02-02","nationality":"US","idType":"SSN","identifier":"111-22-3333","address":{"line1":"1 Main","postalCode":"1","country":"US"}}}`},
		{8, `{"ownershipPercentage":40,"roles":["UBO"],"personalInfo":{"firstName":"Ann"}}`},
	},
	"FuzzExternalAccountsBody": {
		{0, `{"customerId":"{customer}","currency":"USD","platformAccountId":"fz-ext","ownershipType":"THIRD_PARTY","defaultUmaDepositAccount":false,"accountInfo":{"accountType":"USD_ACCOUNT","accountNumber":"123456789","routingNumber":"021000021","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Jane Doe"}}}`},
		{1, `{"currency":"EUR","accountInfo":{"accountType":"EUR_ACCOUNT","iban":"DE89370400440532013000","beneficiary":{"beneficiaryType":"BUSINESS","legalName":"Fuzz Co","countryOfResidence":"DE"}}}`},
		{2, `{"method":"WALLET_SIGNATURE"}`},
		{3, `{"signature":"0xdeadbeef","signatureScheme":"EIP191"}`},
		{4, `{"method":"WALLET_SIGNATURE"}`},
		{5, `{"signature":"0xdeadbeef","signatureScheme":"EIP191"}`},
		{6, `{"code":"123456"}`},
		{7, `{"code":"123456"}`},
		{8, `{"amount":12345}`},
	},
	"FuzzQuotesBody": {
		{0, `{"lookupId":"","source":{"sourceType":"ACCOUNT","accountId":"{internal}"},"destination":{"destinationType":"ACCOUNT","accountId":"{external}","paymentRail":"SEPA"},"lockedCurrencySide":"SENDING","lockedCurrencyAmount":1000,"immediatelyExecute":false,"description":"fuzz","remittanceInformation":"inv 1","purposeOfPayment":"GOODS_OR_SERVICES","platformFeeOverride":{"platformFixedFee":{"amount":1,"currency":"USD"},"platformVariableFeeBps":5},"senderCustomerInfo":{"FULL_NAME":"Fuzz"}}`},
		{0, `{"source":{"sourceType":"ACCOUNT","accountId":"{internal}"},"destination":{"destinationType":"UMA_ADDRESS","umaAddress":"$success.eur@sandbox.uma.money","currency":"EUR"},"lockedCurrencySide":"RECEIVING","lockedCurrencyAmount":500}`},
		{1, `{"code":"123456"}`},
	},
	"FuzzTransfersBody": {
		{0, `{"source":{"accountId":"{internal}"},"destination":{"accountId":"{external}"},"amount":100,"remittanceInformation":"r","purposeOfPayment":"GIFT"}`},
		{1, `{"source":{"accountId":"{external}"},"destination":{"accountId":"{internal}"},"amount":100}`},
		{2, `{"quoteId":"{quote}","currencyCode":"USD","currencyAmount":1000}`},
		{3, `{"senderUmaAddress":"$success.usd@sandbox.uma.money","receiverUmaAddress":"$fuzz@sandbox.uma.money","receivingCurrencyCode":"USD","receivingCurrencyAmount":1000}`},
		{4, `{"senderUmaAddress":"$success.usd@sandbox.uma.money","customerId":"{customer}","receivingCurrencyCode":"USD","receivingCurrencyAmount":1000}`},
		{5, `{"receiptDeliveryConfirmedAt":"2025-10-13T12:00:00Z"}`},
	},
}

// fuzzSeed is one corpus entry: the values of the fuzz function's
// arguments after *testing.T.
type fuzzSeed []any

// fuzzSeeds returns every target's seed corpus.
func fuzzSeeds() map[string][]fuzzSeed {
	out := map[string][]fuzzSeed{}
	for target, seeds := range bodySeeds {
		for _, s := range seeds {
			for _, b := range bodyVariants(s.body) {
				out[target] = append(out[target], fuzzSeed{s.which, []byte(b)})
			}
		}
	}
	out["FuzzUploadBody"] = uploadSeeds()
	out["FuzzListQuery"] = querySeeds()
	return out
}

// bodyVariants derives from a valid JSON object: itself, every member (at
// any depth) with a value of the wrong type and null, numbers out of range,
// odd unicode in strings, duplicated keys, and malformed documents.
func bodyVariants(valid string) []string {
	out := []string{valid, "", " ", "null", "[]", "{}", `"{}"`, "0", "{", `{"`, "{}{}", valid + "x", valid + " {}", valid + "]",
		valid[:len(valid)/2], "\xef\xbb\xbf" + valid, `{"a":{"b":{"c":[null,{"d":null}]}}}`}
	dec := json.NewDecoder(strings.NewReader(valid))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		panic(fmt.Sprintf("seed %s: %v", valid, err))
	}
	var walk func(v any, set func(any))
	walk = func(v any, set func(any)) {
		emit := func(r any) {
			set(r)
			b, _ := json.Marshal(doc)
			out = append(out, string(b))
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range x {
					if !yield(k) {
						return
					}
				}
			}) {
				val := x[k]
				walk(val, func(r any) { x[k] = r })
				x[k] = val
			}
			emit([]any{1})
			emit(nil)
		case []any:
			for i, val := range x {
				walk(val, func(r any) { x[i] = r })
				x[i] = val
			}
			emit(map[string]any{"a": 1})
			emit([]any{nil})
		case string:
			emit(json.Number("42"))
			emit(map[string]any{})
			emit(nil)
			emit("ünïcødé 日本語 \u202e\U0001F600 \x00")
			emit(strings.Repeat("x", 2000))
		case json.Number:
			emit(x.String())
			emit(true)
			emit(nil)
			for _, n := range []string{"9000000000000001", "1e308", "-1", "1.5", "99999999999999999999", "-9223372036854775808", "0"} {
				emit(json.Number(n))
			}
		case bool:
			emit("true")
			emit(json.Number("1"))
			emit(nil)
		}
		set(v)
	}
	walk(doc, func(r any) { doc = r })
	// A duplicated first key: the later value wins, or the earlier is wrong.
	if i := strings.Index(valid, ","); strings.HasPrefix(valid, `{"`) && i > 0 {
		out = append(out, valid[:i]+","+valid[1:i]+","+valid[i+1:], `{"customerType":7,`+valid[1:], valid[:len(valid)-1]+`,"customerType":"BUSINESS","currency":{}}`)
	}
	return out
}

func uploadSeeds() []fuzzSeed {
	var out []fuzzSeed
	doc := map[string]string{"documentHolder": "{customer}", "documentType": "PASSPORT", "side": "FRONT", "country": "US",
		"documentNumber": "X123", "issuingAuthority": "State"}
	csv := "umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,businessLegalName,businessTaxId,businessIncorporatedOn\n" +
		"fz.csv@sandbox.uma.money,fz-csv,INDIVIDUAL,Fuzz Csv,1990-01-15,1 Main St,Austin,TX,78701,US,,,\n"
	for which, form := range []struct {
		fields map[string]string
		file   []byte
	}{{doc, []byte("%PDF-1.7 fuzz")}, {map[string]string{"documentType": "NATIONAL_ID", "country": "US"}, png}, {nil, []byte(csv)}} {
		ct, body := fuzzMultipart(form.fields, form.file)
		w := uint8(which)
		out = append(out,
			fuzzSeed{w, ct, body},
			fuzzSeed{w, ct, body[:len(body)/2]},
			fuzzSeed{w, ct, []byte{}},
			fuzzSeed{w, "multipart/form-data", body},
			fuzzSeed{w, "multipart/form-data; boundary=other", body},
			fuzzSeed{w, "multipart/form-data; boundary=\"", body},
			fuzzSeed{w, "application/json", []byte(`{"documentType":"PASSPORT"}`)},
			fuzzSeed{w, "", body},
			fuzzSeed{w, ct, append(bytes.Clone(body), "trailing garbage"...)},
			fuzzSeed{w, ct, bytes.Replace(body, []byte("\r\n\r\n"), []byte("\r\n"), 1)},
			fuzzSeed{w, ct, []byte("--fuzzboundary\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n\xff\xfe\x00ünï\r\n--fuzzboundary--\r\n")},
		)
		nf, nbody := fuzzMultipart(form.fields, nil)
		out = append(out, fuzzSeed{w, nf, nbody})
	}
	bad := "umaAddress,customerType,fullName\n\"unterminated,INDIVIDUAL,x\nfz2@sandbox.uma.money,INDIVIDUAL\n,,,,,,,,,,,,,,,\n"
	ct, body := fuzzMultipart(nil, []byte(bad))
	return append(out, fuzzSeed{uint8(2), ct, body})
}

func querySeeds() []fuzzSeed {
	common := []string{"", "limit=10&sortOrder=desc", "limit=abc", "limit=9000000000000001", "limit=-1", "limit=1e308", "limit=0",
		"limit=1.5", "limit=", "limit=10&limit=x", "cursor=%zz", "cursor=Zm9vYmFy", "cursor=" + strings.Repeat("A", 500), "sortOrder=sideways",
		"createdAfter=garbage", "createdAfter=2025-13-45T00:00:00Z", "createdBefore=2025-10-13T12:00:00%2B02:00", "updatedAfter=1e308",
		"isIncludingDeleted=maybe", "isIncludingDeleted=1", "customerType=ROBOT", "customerId={customer}", "customerId=Customer:nope",
		"customerId=%00", "currency=ÜSD", "currency=usd", "kycStatus=nope", "region=日本", "&&&==&", "%", "a=1;b=2",
		"startDate=2025-10-13&endDate=2025-10-14", "startDate=2025-10-13T00:00:00Z&endDate=2025-10-12T00:00:00Z",
		"status=WHATEVER&type=OUTGOING", "verificationStatus=NOPE", "documentHolder={customer}", "type=INTERNAL_FIAT",
		"sendingAmount=1e308", "sendingAmount=-1", "sendingAmount=9000000000000001&sourceCurrency=USD&destinationCurrency=EUR",
		"sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=XXX", "country=US&currency=USD", "name=fuzz",
		"sourceCurrency=USD&destinationCurrency=EUR&sendingAmount=100000", "customerId={customer}&sourceCurrency=USD"}
	var out []fuzzSeed
	for which := range listRoutes {
		for _, q := range common {
			out = append(out, fuzzSeed{uint8(which), q})
		}
	}
	return out
}

// TestFuzzSeedCorpus checks that the committed seed corpora exist and, with
// FUZZ_WRITE_CORPUS=1, rewrites them from fuzzSeeds (files found by
// fuzzing are kept).
func TestFuzzSeedCorpus(t *testing.T) {
	write := os.Getenv("FUZZ_WRITE_CORPUS") == "1"
	for target, seeds := range fuzzSeeds() {
		dir := filepath.Join("testdata", "fuzz", target)
		if !write {
			entries, err := os.ReadDir(dir)
			require.NoError(t, err, "run FUZZ_WRITE_CORPUS=1 go test ./httpapi -run TestFuzzSeedCorpus")
			require.NotEmpty(t, entries, dir)
			continue
		}
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for i, s := range seeds {
			var b strings.Builder
			b.WriteString("go test fuzz v1\n")
			for _, v := range s {
				switch x := v.(type) {
				case uint8:
					fmt.Fprintf(&b, "byte(%q)\n", x)
				case string:
					fmt.Fprintf(&b, "string(%q)\n", x)
				case []byte:
					fmt.Fprintf(&b, "[]byte(%q)\n", x)
				}
			}
			name := filepath.Join(dir, fmt.Sprintf("seed-%03d", i))
			require.NoError(t, os.WriteFile(name, []byte(b.String()), 0o644))
		}
	}
}
