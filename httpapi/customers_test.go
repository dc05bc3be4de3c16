package httpapi_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func kycServer(t *testing.T) *server {
	return newServer(t, func(c *payments.Config) { c.KYC = sandbox.KYC{} })
}

// individual is a valid create body; mutate adjusts it.
func individual(mutate ...func(map[string]any)) map[string]any {
	b := map[string]any{
		"customerType": "INDIVIDUAL", "fullName": "Jane Doe", "birthDate": "1990-01-15", "nationality": "US",
		"email": "jane@example.com", "phoneNumber": "+14155550123", "idType": "SSN", "identifier": "123-45-6789",
		"address": map[string]any{"line1": "1 Main St", "city": "Austin", "state": "TX", "postalCode": "78701", "country": "US"},
		"agreementConsents": []any{map[string]any{"type": "PROVIDER_END_USER_TERMS", "termsVersion": "2025-10-13",
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}},
	}
	for _, m := range mutate {
		m(b)
	}
	return b
}

func set(k string, v any) func(map[string]any) { return func(b map[string]any) { b[k] = v } }

func (s *server) customerCount() float64 {
	s.t.Helper()
	r := s.do("GET", "/customers?isIncludingDeleted=true", nil)
	require.Equal(s.t, 200, r.Status)
	return r.Body["totalCount"].(float64)
}

func TestCustomers_Create(t *testing.T) {
	s := kycServer(t)
	r := s.do("POST", "/customers", individual())
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	assert.Regexp(t, `^Customer:[0-9a-f-]{36}$`, r.Body["id"])
	assert.NotContains(t, string(r.Raw), "identifier", "identifier is write-only")
	assert.Regexp(t, `^\$.+@sandbox\.uma\.money$`, r.Body["umaAddress"])
	assert.NotEmpty(t, r.Body["platformCustomerId"])
	assert.Equal(t, "UNVERIFIED", r.Body["kycStatus"], "unregulated default platform")
	assert.NotNil(t, r.Body["endUserTermsConsent"])
	assert.Nil(t, r.Body["contactVerification"], "US customers need no contact verification")

	got := s.do("GET", "/customers/"+r.Body["id"].(string), nil)
	assert.Equal(t, string(r.Raw), string(got.Raw))

	t.Run("ErrConflict on a taken platformCustomerId and UMA address", func(t *testing.T) {
		a := s.do("POST", "/customers", individual(set("platformCustomerId", "p-1"), set("umaAddress", "$jane@sandbox.uma.money")))
		require.Equal(t, 201, a.Status, "%s", a.Raw)
		requireError(t, s.do("POST", "/customers", individual(set("platformCustomerId", "p-1"))), 409, payments.CodeConflict)
		requireError(t, s.do("POST", "/customers", individual(set("umaAddress", "$jane@sandbox.uma.money"))), 409, payments.CodeUmaAddressExists)
		del := s.do("DELETE", "/customers/"+a.Body["id"].(string), nil)
		require.Equal(t, 200, del.Status)
		assert.Equal(t, true, del.Body["isDeleted"])
		requireError(t, s.do("DELETE", "/customers/"+a.Body["id"].(string), nil), 410, payments.CodeCustomerDeleted)
		again := s.do("POST", "/customers", individual(set("platformCustomerId", "p-1"), set("umaAddress", "$jane@sandbox.uma.money")))
		assert.Equal(t, 201, again.Status, "a deleted customer releases its keys: %s", again.Raw)
	})

	t.Run("Idempotency-Key replays and creates once", func(t *testing.T) {
		before := s.customerCount()
		first := s.do("POST", "/customers", individual(), "Idempotency-Key", "cust-1")
		second := s.do("POST", "/customers", individual(), "Idempotency-Key", "cust-1")
		require.Equal(t, 201, first.Status)
		assert.Equal(t, string(first.Raw), string(second.Raw))
		assert.Equal(t, before+1, s.customerCount())
	})
}

// TestCustomers_BadInput is the catalog of invalid fields: each case answers
// 400 with exactly the named field and stores nothing.
func TestCustomers_BadInput(t *testing.T) {
	s := kycServer(t)
	long := strings.Repeat("x", 251)
	cases := []struct {
		name   string
		body   map[string]any
		code   payments.Code
		fields []string
	}{
		{"missing customerType", individual(func(b map[string]any) { delete(b, "customerType") }), payments.CodeInvalidInput, []string{"customerType"}},
		{"unknown customerType", individual(set("customerType", "ROBOT")), payments.CodeInvalidInput, []string{"customerType"}},
		{"fullName too long", individual(set("fullName", long)), payments.CodeInvalidInput, []string{"fullName"}},
		{"email too long", individual(set("email", strings.Repeat("a", 250)+"@x.com")), payments.CodeInvalidInput, []string{"email"}},
		{"email malformed", individual(set("email", "jane at example")), payments.CodeInvalidInput, []string{"email"}},
		{"phone not E.164", individual(set("phoneNumber", "0415555")), payments.CodeInvalidInput, []string{"phoneNumber"}},
		{"birthDate not a date", individual(set("birthDate", "15/01/1990")), payments.CodeInvalidInput, []string{"birthDate"}},
		{"birthDate in the future", individual(set("birthDate", "2999-01-01")), payments.CodeInvalidInput, []string{"birthDate"}},
		{"nationality unknown", individual(set("nationality", "XX")), payments.CodeInvalidInput, []string{"nationality"}},
		{"region lower case", individual(set("region", "us")), payments.CodeInvalidInput, []string{"region"}},
		{"currency unsupported", individual(set("currencies", []string{"USD", "JPY"})), payments.CodeInvalidInput, []string{"currencies.1"}},
		{"currencies empty", individual(set("currencies", []string{})), payments.CodeInvalidInput, []string{"currencies"}},
		{"address without line1 and country", individual(set("address", map[string]any{"postalCode": "1"})), payments.CodeInvalidInput, []string{"address.line1", "address.country"}},
		{"idType EIN for an individual", individual(set("idType", "EIN")), payments.CodeInvalidInput, []string{"idType"}},
		{"idType unknown", individual(set("idType", "PASSPORT")), payments.CodeInvalidInput, []string{"idType"}},
		{"SSN malformed", individual(set("identifier", "123456789")), payments.CodeInvalidInput, []string{"identifier"}},
		{"ITIN not starting with 9", individual(set("idType", "ITIN"), set("identifier", "123-45-6789")), payments.CodeInvalidInput, []string{"identifier"}},
		{"identifier too long", individual(set("identifier", strings.Repeat("1", 101))), payments.CodeInvalidInput, []string{"identifier"}},
		{"countryOfIssuance not US", individual(set("countryOfIssuance", "CA")), payments.CodeInvalidInput, []string{"countryOfIssuance"}},
		{"sourceOfFundsCategories empty", individual(set("sourceOfFundsCategories", []string{})), payments.CodeInvalidInput, []string{"sourceOfFundsCategories"}},
		{"sourceOfFunds OTHER without description", individual(set("sourceOfFundsCategories", []string{"OTHER"})), payments.CodeInvalidInput, []string{"sourceOfFundsOtherDescription"}},
		{"sourceOfFunds description without OTHER", individual(set("sourceOfFundsCategories", []string{"SALARY"}), set("sourceOfFundsOtherDescription", "x")), payments.CodeInvalidInput, []string{"sourceOfFundsOtherDescription"}},
		{"sourceOfWealth unknown category", individual(set("sourceOfWealthCategories", []string{"LOTTERY"})), payments.CodeInvalidInput, []string{"sourceOfWealthCategories.0"}},
		{"sourceOfWealth description too long", individual(set("sourceOfWealthCategories", []string{"OTHER"}), set("sourceOfWealthOtherDescription", strings.Repeat("d", 501))), payments.CodeInvalidInput, []string{"sourceOfWealthOtherDescription"}},
		{"purposeOfAccount OTHER without description", individual(set("purposeOfAccount", "OTHER")), payments.CodeInvalidInput, []string{"purposeOfAccountOtherDescription"}},
		{"purposeOfAccount unknown", individual(set("purposeOfAccount", "GAMBLING")), payments.CodeInvalidInput, []string{"purposeOfAccount"}},
		{"expected count unknown", individual(set("expectedMonthlyTransactionCount", "MANY")), payments.CodeInvalidInput, []string{"expectedMonthlyTransactionCount"}},
		{"expected volume unknown", individual(set("expectedMonthlyTransactionVolume", "HUGE")), payments.CodeInvalidInput, []string{"expectedMonthlyTransactionVolume"}},
		{"income unknown", individual(set("annualIncomeRange", "RICH")), payments.CodeInvalidInput, []string{"annualIncomeRange"}},
		{"net worth unknown", individual(set("netWorthRange", "RICH")), payments.CodeInvalidInput, []string{"netWorthRange"}},
		{"pepStatus unknown", individual(set("pepStatus", "MAYBE")), payments.CodeInvalidInput, []string{"pepStatus"}},
		{"umaAddress malformed", individual(set("umaAddress", "jane@example")), payments.CodeInvalidInput, []string{"umaAddress"}},
		{"kycStatus on an unregulated platform", individual(set("kycStatus", "APPROVED")), payments.CodeInvalidInput, []string{"kycStatus"}},
		{"deprecated consent with agreementConsents", individual(set("endUserTermsConsent", map[string]any{"termsVersion": "2025-10-13",
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "1.2.3.4", "acceptanceMethod": "CHECKBOX"})), payments.CodeInvalidInput, []string{"endUserTermsConsent"}},
		{"consent missing members", individual(set("agreementConsents", []any{map[string]any{"type": "PROVIDER_END_USER_TERMS"}})), payments.CodeInvalidInput,
			[]string{"agreementConsents.0.termsVersion", "agreementConsents.0.acceptedAt", "agreementConsents.0.ipAddress", "agreementConsents.0.acceptanceMethod"}},
		{"consent type twice", individual(func(b map[string]any) {
			c := b["agreementConsents"].([]any)[0]
			b["agreementConsents"] = []any{c, c}
		}), payments.CodeInvalidInput, []string{"agreementConsents.1.type"}},
		{"unknown terms version", individual(set("agreementConsents", []any{map[string]any{"type": "PROVIDER_END_USER_TERMS", "termsVersion": "1999-01-01",
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}})), payments.CodeEndUserTermsVersionNotFound, []string{"agreementConsents.0.termsVersion"}},
		{"business without businessInfo", map[string]any{"customerType": "BUSINESS"}, payments.CodeInvalidInput, []string{"businessInfo"}},
		{"business missing required info", map[string]any{"customerType": "BUSINESS", "businessInfo": map[string]any{"legalName": "Acme", "naicsCode": "x"}},
			payments.CodeInvalidInput, []string{"businessInfo.country", "businessInfo.taxId", "businessInfo.incorporatedOn", "businessInfo.naicsCode"}},
		{"business with individual fields", map[string]any{"customerType": "BUSINESS", "fullName": "Acme", "businessInfo": map[string]any{
			"legalName": "Acme", "country": "US", "taxId": "1", "incorporatedOn": "2001-01-01"}}, payments.CodeInvalidInput, []string{"fullName"}},
		{"several fields at once", individual(set("email", "bad"), set("phoneNumber", "bad"), set("nationality", "bad")), payments.CodeInvalidInput, []string{"email", "phoneNumber", "nationality"}},
	}
	before := s.customerCount()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireError(t, s.do("POST", "/customers", tc.body), 400, tc.code, tc.fields...)
		})
	}
	assert.Equal(t, before, s.customerCount(), "no invalid request stored anything")
	requireError(t, s.do("POST", "/customers", `{"customerType": "INDIVIDUAL", "fullName": 7}`), 400, payments.CodeInvalidInput, "fullName")
}

func TestCustomers_UpdateListDelete(t *testing.T) {
	s := kycServer(t)
	a := s.do("POST", "/customers", individual(set("platformCustomerId", "a"), set("region", "US")))
	b := s.do("POST", "/customers", map[string]any{"customerType": "BUSINESS", "platformCustomerId": "b", "businessInfo": map[string]any{
		"legalName": "Acme", "country": "US", "taxId": "12-3", "incorporatedOn": "2001-01-01", "registrationNumber": "R-1"}})
	require.Equal(t, 201, b.Status, "%s", b.Raw)
	assert.Equal(t, "UNVERIFIED", b.Body["kybStatus"])
	id := a.Body["id"].(string)

	p := s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "fullName": "Jane Q Doe", "pepStatus": "NONE"})
	require.Equal(t, 200, p.Status, "%s", p.Raw)
	assert.Equal(t, "Jane Q Doe", p.Body["fullName"])
	assert.Equal(t, "NONE", p.Body["pepStatus"])
	assert.Equal(t, "1 Main St", p.Body["address"].(map[string]any)["line1"], "members not sent keep their values")
	assert.Equal(t, "jane@example.com", p.Body["email"])
	requireError(t, s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "BUSINESS"}), 400, payments.CodeInvalidInput, "customerType")
	requireError(t, s.do("PATCH", "/customers/"+id, map[string]any{"fullName": "x"}), 400, payments.CodeInvalidInput, "customerType")
	requireError(t, s.do("PATCH", "/customers/Customer:nope", map[string]any{"customerType": "INDIVIDUAL"}), 404, payments.CodeCustomerNotFound)

	for q, want := range map[string]float64{"customerType=BUSINESS": 1, "platformCustomerId=a": 1, "region=US": 1, "customerType=INDIVIDUAL": 1, "kybStatus=UNVERIFIED": 1} {
		r := s.do("GET", "/customers?"+q, nil)
		require.Equal(t, 200, r.Status, "%s", r.Raw)
		assert.Equal(t, want, r.Body["totalCount"], q)
	}
	requireError(t, s.do("GET", "/customers?customerType=ROBOT", nil), 400, payments.CodeInvalidInput, "customerType")
	require.Equal(t, 200, s.do("DELETE", "/customers/"+id, nil).Status)
	assert.EqualValues(t, 1, s.do("GET", "/customers", nil).Body["totalCount"], "deleted customers are not listed")
	assert.EqualValues(t, 2, s.do("GET", "/customers?isIncludingDeleted=true", nil).Body["totalCount"])
	requireError(t, s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL"}), 410, payments.CodeCustomerDeleted)

	terms := s.do("GET", "/customers/end-user-terms", nil)
	require.Equal(t, 200, terms.Status)
	assert.Equal(t, payments.CurrentEndUserTerms.Version, terms.Body["version"])
}

// multipartBody builds a multipart/form-data body.
func multipartBody(t *testing.T, fields map[string]string, file []byte) (string, []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		require.NoError(t, w.WriteField(k, v))
	}
	if file != nil {
		fw, err := w.CreateFormFile("file", "doc.png")
		require.NoError(t, err)
		_, _ = fw.Write(file)
	}
	require.NoError(t, w.Close())
	return w.FormDataContentType(), buf.Bytes()
}

var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestDocuments(t *testing.T) {
	s := kycServer(t)
	c := s.do("POST", "/customers", individual(set("fullName", "Ann 003")))
	id := c.Body["id"].(string)
	upload := func(method, path string, fields map[string]string, file []byte) response {
		ct, body := multipartBody(t, fields, file)
		return s.do(method, path, body, "Content-Type", ct)
	}
	fields := map[string]string{"documentHolder": id, "documentType": "PASSPORT", "country": "US"}
	d := upload("POST", "/documents", fields, png)
	require.Equal(t, 201, d.Status, "%s", d.Raw)
	assert.Equal(t, "doc.png", d.Body["fileName"])
	requireError(t, upload("POST", "/documents", fields, png), 409, payments.CodeDocumentAlreadyExists)
	requireError(t, upload("POST", "/documents", map[string]string{"documentHolder": id, "documentType": "NATIONAL_ID", "country": "US"}, []byte("GIF89a")), 400, payments.CodeInvalidInput, "file")
	requireError(t, upload("POST", "/documents", map[string]string{"documentHolder": id}, nil), 400, payments.CodeInvalidInput, "documentType", "country", "file")
	requireError(t, upload("POST", "/documents", map[string]string{"documentHolder": "Customer:nope", "documentType": "PASSPORT", "country": "US"}, png), 404, payments.CodeDocumentHolderNotFound)
	requireError(t, s.do("POST", "/documents", map[string]any{"documentHolder": id}), 400, payments.CodeInvalidInput)
	big := append([]byte("%PDF-"), make([]byte, 11<<20)...)
	requireError(t, upload("POST", "/documents", map[string]string{"documentHolder": id, "documentType": "NATIONAL_ID", "country": "US"}, big), 413, payments.CodeBodyTooLarge)

	docID := d.Body["id"].(string)
	v := s.do("POST", "/verifications", map[string]any{"customerId": id})
	require.Equal(t, 200, v.Status, "%s", v.Raw)
	assert.Equal(t, "RESOLVE_ERRORS", v.Body["verificationStatus"], "003: the first document is of poor quality")
	rep := upload("PUT", "/documents/"+docID, map[string]string{"documentType": "PASSPORT", "country": "US"}, []byte("%PDF-1.7"))
	require.Equal(t, 200, rep.Status, "%s", rep.Raw)
	v = s.do("POST", "/verifications", map[string]any{"customerId": id})
	assert.Equal(t, "PENDING_MANUAL_REVIEW", v.Body["verificationStatus"])
	assert.Equal(t, "PENDING", s.do("GET", "/customers/"+id, nil).Body["kycStatus"])
	requireError(t, s.do("DELETE", "/documents/"+docID, nil), 409, payments.CodeConflict)

	list := s.do("GET", "/verifications?customerId="+id+"&verificationStatus=RESOLVE_ERRORS", nil)
	assert.EqualValues(t, 1, list.Body["totalCount"])
	assert.EqualValues(t, 1, s.do("GET", "/documents?documentHolder="+id, nil).Body["totalCount"])
	requireError(t, s.do("GET", "/verifications/Verification:nope", nil), 404, payments.CodeVerificationNotFound)
	requireError(t, s.do("POST", "/verifications", map[string]any{}), 400, payments.CodeInvalidInput, "customerId")

	other := s.do("POST", "/customers", individual())
	od := upload("POST", "/documents", map[string]string{"documentHolder": other.Body["id"].(string), "documentType": "PASSPORT", "country": "US"}, png)
	assert.Equal(t, 204, s.do("DELETE", "/documents/"+od.Body["id"].(string), nil).Status)
	requireError(t, s.do("GET", "/documents/"+od.Body["id"].(string), nil), 404, payments.CodeNotFound)
}

func TestBeneficialOwnersAndKYCLink(t *testing.T) {
	s := kycServer(t)
	b := s.do("POST", "/customers", map[string]any{"customerType": "BUSINESS", "businessInfo": map[string]any{
		"legalName": "Acme", "country": "US", "taxId": "12-3", "incorporatedOn": "2001-01-01", "registrationNumber": "R-003"}})
	bid := b.Body["id"].(string)
	owner := map[string]any{"customerId": bid, "roles": []string{"UBO"}, "ownershipPercentage": 60, "personalInfo": map[string]any{
		"firstName": "Ada", "lastName": "Doe", "birthDate": "1980-02-02", "nationality": "US", "idType": "SSN", "identifier": "111-22-3333",
		"address": map[string]any{"line1": "1 Main", "postalCode": "1", "country": "US"}}}
	o := s.do("POST", "/beneficial-owners", owner)
	require.Equal(t, 201, o.Status, "%s", o.Raw)
	assert.Equal(t, "UNVERIFIED", o.Body["kycStatus"])
	assert.NotContains(t, string(o.Raw), "111-22-3333")
	oid := o.Body["id"].(string)
	p := s.do("PATCH", "/beneficial-owners/"+oid, map[string]any{"ownershipPercentage": 40})
	require.Equal(t, 200, p.Status, "%s", p.Raw)
	g := s.do("GET", "/beneficial-owners/"+oid, nil)
	require.Equal(t, 200, g.Status, "%s", g.Raw)
	assert.Equal(t, string(p.Raw), string(g.Raw), "a read shows the update")
	requireError(t, s.do("GET", "/beneficial-owners/BeneficialOwner:nope", nil), 404, payments.CodeNotFound)
	assert.EqualValues(t, 40, p.Body["ownershipPercentage"])
	requireError(t, s.do("PATCH", "/beneficial-owners/"+oid, map[string]any{"ownershipPercentage": 140, "roles": []string{"KING"}}), 400, payments.CodeInvalidInput, "ownershipPercentage", "roles.0")
	requireError(t, s.do("POST", "/beneficial-owners", map[string]any{"customerId": bid, "roles": []string{}, "personalInfo": map[string]any{}}), 400, payments.CodeInvalidInput,
		"roles", "personalInfo.firstName", "personalInfo.lastName", "personalInfo.birthDate", "personalInfo.nationality", "personalInfo.idType", "personalInfo.identifier", "personalInfo.address")
	ind := s.do("POST", "/customers", individual())
	owner["customerId"] = ind.Body["id"]
	requireError(t, s.do("POST", "/beneficial-owners", owner), 400, payments.CodeInvalidInput, "customerId")
	assert.EqualValues(t, 1, s.do("GET", "/beneficial-owners?customerId="+bid, nil).Body["totalCount"])
	requireError(t, s.do("GET", "/beneficial-owners", nil), 400, payments.CodeInvalidInput, "customerId")
	got := s.do("GET", "/customers/"+bid, nil)
	assert.Len(t, got.Body["beneficialOwners"], 1)

	link := s.do("POST", "/customers/"+bid+"/kyc-link", map[string]any{"redirectUri": "https://example.com/done"})
	require.Equal(t, 201, link.Status, "%s", link.Raw)
	assert.Equal(t, "SUMSUB", link.Body["provider"])
	requireError(t, s.do("POST", "/customers/"+bid+"/kyc-link", map[string]any{"redirectUri": "not a url"}), 400, payments.CodeInvalidInput, "redirectUri")
}

func TestContactVerification(t *testing.T) {
	s := kycServer(t)
	eu := s.do("POST", "/customers", individual(set("region", "DE")))
	require.Equal(t, 201, eu.Status, "%s", eu.Raw)
	assert.Equal(t, map[string]any{"email": "PENDING", "phone": "PENDING"}, eu.Body["contactVerification"])
	id := eu.Body["id"].(string)
	requireError(t, s.do("POST", "/customers", individual(set("region", "FR"), func(b map[string]any) { delete(b, "email") })), 400, payments.CodeInvalidInput, "email")
	requireError(t, s.do("POST", "/customers/"+id+"/kyc-link", nil), 409, payments.CodeConflict)
	requireError(t, s.do("POST", "/verifications", map[string]any{"customerId": id}), 409, payments.CodeConflict)

	requireError(t, s.do("POST", "/customers/"+id+"/verify-email/confirm", map[string]any{"code": sandbox.ContactCode}), 400, payments.CodeInvalidInput, "code")
	require.Equal(t, 204, s.do("POST", "/customers/"+id+"/verify-email", nil).Status)
	requireError(t, s.do("POST", "/customers/"+id+"/verify-email/confirm", map[string]any{"code": "000000"}), 400, payments.CodeInvalidInput, "code")
	ok := s.do("POST", "/customers/"+id+"/verify-email/confirm", map[string]any{"code": sandbox.ContactCode})
	require.Equal(t, 200, ok.Status, "%s", ok.Raw)
	assert.Equal(t, "VERIFIED", ok.Body["contactVerification"].(map[string]any)["email"])

	t.Run("codes expire", func(t *testing.T) {
		require.Equal(t, 204, s.do("POST", "/customers/"+id+"/verify-phone", nil).Status)
		s.clock.Advance(payments.ContactCodeTTL + time.Second)
		requireError(t, s.do("POST", "/customers/"+id+"/verify-phone/confirm", map[string]any{"code": sandbox.ContactCode}), 400, payments.CodeInvalidInput, "code")
	})
	t.Run("attempts are limited", func(t *testing.T) {
		require.Equal(t, 204, s.do("POST", "/customers/"+id+"/verify-phone", nil).Status)
		for i := 1; i < payments.ContactCodeAttempts; i++ {
			requireError(t, s.do("POST", "/customers/"+id+"/verify-phone/confirm", map[string]any{"code": fmt.Sprint(i)}), 400, payments.CodeInvalidInput, "code")
		}
		requireError(t, s.do("POST", "/customers/"+id+"/verify-phone/confirm", map[string]any{"code": "x"}), 429, payments.CodeRateLimited)
		requireError(t, s.do("POST", "/customers/"+id+"/verify-phone/confirm", map[string]any{"code": sandbox.ContactCode}), 400, payments.CodeInvalidInput, "code")
	})
	require.Equal(t, 204, s.do("POST", "/customers/"+id+"/verify-phone", nil).Status)
	require.Equal(t, 200, s.do("POST", "/customers/"+id+"/verify-phone/confirm", map[string]any{"code": sandbox.ContactCode}).Status)
	assert.Equal(t, 200, s.do("POST", "/verifications", map[string]any{"customerId": id}).Status, "verified contacts unblock verification")

	us := s.do("POST", "/customers", individual())
	requireError(t, s.do("POST", "/customers/"+us.Body["id"].(string)+"/verify-email", nil), 409, payments.CodeConflict)
}

func TestBulkImport(t *testing.T) {
	s := kycServer(t)
	csv := "umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,businessLegalName,businessTaxId,businessIncorporatedOn\n" +
		"john.doe@sandbox.uma.money,c1,INDIVIDUAL,John Doe,1990-01-15,1 Main St,Austin,TX,78701,US,,,\n" +
		"bad@sandbox.uma.money,c2,INDIVIDUAL,Bad Date,15/01/1990,1 Main St,Austin,TX,78701,US,,,\n" +
		"acme@sandbox.uma.money,b1,BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,Acme,12-3,2010-01-01\n"
	ct, body := multipartBody(t, nil, []byte(csv))
	r := s.do("POST", "/customers/bulk/csv", body, "Content-Type", ct)
	require.Equal(t, 202, r.Status, "%s", r.Raw)
	_, err := s.eng.ProcessDue(ctx) // the rows are imported as due work
	require.NoError(t, err)
	job := s.do("GET", "/customers/bulk/jobs/"+r.Body["jobId"].(string), nil)
	require.Equal(t, 200, job.Status)
	assert.Equal(t, "COMPLETED", job.Body["status"])
	assert.Equal(t, map[string]any{"total": 3.0, "processed": 3.0, "successful": 2.0, "failed": 1.0}, job.Body["progress"])
	errs := job.Body["errors"].([]any)
	require.Len(t, errs, 1)
	assert.Equal(t, "c2", errs[0].(map[string]any)["correlationId"])
	assert.EqualValues(t, 2, s.do("GET", "/customers", nil).Body["totalCount"], "the bad row wrote nothing")
	assert.EqualValues(t, 1, s.do("GET", "/customers?umaAddress=$john.doe@sandbox.uma.money", nil).Body["totalCount"])
	requireError(t, s.do("GET", "/customers/bulk/jobs/BulkJob:nope", nil), 404, payments.CodeBulkUploadJobNotFound)
	requireError(t, s.do("POST", "/customers/bulk/csv", body), 400, payments.CodeInvalidInput)
}

// TestBulkImport_Large: a 1,500-row import answers at once with the job as
// it stands, PROCESSING, and its rows are created afterwards as due work in
// batches, progress only growing, until the job is COMPLETED with each
// refused row in its errors. A row refused inside a batch writes nothing.
func TestBulkImport_Large(t *testing.T) {
	s := kycServer(t)
	var b strings.Builder
	b.WriteString("umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n")
	const rows = 1500
	var bad []any
	for i := range rows {
		uma, birth := "", "1990-01-15"
		switch {
		case i%100 == 99: // 15 rows with a bad date
			birth = "15/01/1990"
			bad = append(bad, fmt.Sprintf("p%d", i))
		case i == 700:
			uma = "taken@sandbox.uma.money"
		case i == 701: // a fresh identifier, a taken UMA address
			uma = "taken@sandbox.uma.money"
			bad = append(bad, "p701")
		}
		fmt.Fprintf(&b, "%s,p%d,INDIVIDUAL,Person %d,%s,1 Main St,Austin,TX,78701,US\n", uma, i, i, birth)
	}
	ct, body := multipartBody(t, nil, []byte(b.String()))
	r := s.do("POST", "/customers/bulk/csv", body, "Content-Type", ct)
	require.Equal(t, 202, r.Status, "%s", r.Raw)
	path := "/customers/bulk/jobs/" + r.Body["jobId"].(string)
	job := s.do("GET", path, nil)
	require.Equal(t, 200, job.Status, "%s", job.Raw)
	assert.Equal(t, "PROCESSING", r.Body["status"])
	assert.Equal(t, r.Body["status"], job.Body["status"], "the answer is the job as it stands")
	assert.Less(t, job.Body["progress"].(map[string]any)["processed"], float64(rows))
	assert.Nil(t, job.Body["completedAt"])

	processed := job.Body["progress"].(map[string]any)["processed"].(float64)
	for i := 0; job.Body["status"] == "PROCESSING" && i < 30; i++ {
		_, err := s.eng.ProcessDue(ctx)
		require.NoError(t, err)
		job = s.do("GET", path, nil)
		now := job.Body["progress"].(map[string]any)["processed"].(float64)
		assert.GreaterOrEqual(t, now, processed, "progress only grows")
		processed = now
	}
	require.Equal(t, "COMPLETED", job.Body["status"], "%s", job.Raw)
	assert.NotNil(t, job.Body["completedAt"])
	assert.Equal(t, map[string]any{"total": float64(rows), "processed": float64(rows), "successful": float64(rows - 16), "failed": 16.0},
		job.Body["progress"])
	var got []any
	for _, e := range job.Body["errors"].([]any) {
		got = append(got, e.(map[string]any)["correlationId"])
	}
	assert.ElementsMatch(t, bad, got)
	for pid, n := range map[string]int{"p0": 1, "p99": 0, "p700": 1, "p1498": 1, "p1499": 0} {
		assert.EqualValues(t, n, s.do("GET", "/customers?platformCustomerId="+pid, nil).Body["totalCount"], pid)
	}
	assert.Equal(t, 201, s.do("POST", "/customers", individual(set("platformCustomerId", "p701"))).Status,
		"the refused row left its platformCustomerId free")
}

// TestBulkImport_FileRefusals: every refusal of the upload itself names
// the field file.
func TestBulkImport_FileRefusals(t *testing.T) {
	s := kycServer(t)
	upload := func(fields map[string]string, file []byte) response {
		ct, body := multipartBody(t, fields, file)
		return s.do("POST", "/customers/bulk/csv", body, "Content-Type", ct)
	}
	requireError(t, upload(map[string]string{"note": "no file"}, nil), 400, payments.CodeInvalidInput, "file")
	requireError(t, upload(nil, []byte{}), 400, payments.CodeInvalidInput, "file")
	requireError(t, s.do("POST", "/customers/bulk/csv", "customerType\nINDIVIDUAL\n", "Content-Type", "text/csv"), 400, payments.CodeInvalidInput, "file")
	requireError(t, upload(nil, []byte("fullName\nJane\n")), 400, payments.CodeInvalidInput, "file")
	requireError(t, upload(nil, []byte("customerType\n\"unterminated\n")), 400, payments.CodeInvalidInput, "file")
}
