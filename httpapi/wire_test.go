package httpapi_test

import (
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file pin the wire-fidelity fixes of issue 16: where the
// server differed from the reference, each exchange here goes through the
// wire check (the helpers' client) as well as these assertions.

func TestWire_TakenPlatformCustomerIDIsConflict(t *testing.T) {
	s := newServer(t)
	require.Equal(t, 201, s.do("POST", "/customers", individual(set("platformCustomerId", "p-1"))).Status)
	r := s.do("POST", "/customers", individual(set("platformCustomerId", "p-1"), set("email", "other@example.com")))
	requireError(t, r, 409, payments.CodeConflict, "platformCustomerId")
}

func TestWire_TermsVersionV1(t *testing.T) {
	s := newServer(t)
	consent := func(v string) func(map[string]any) {
		return set("agreementConsents", []any{map[string]any{"type": "PROVIDER_END_USER_TERMS", "termsVersion": v,
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}})
	}
	r := s.do("POST", "/customers", individual(set("platformCustomerId", "v1"), consent("V1")))
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	terms := s.do("GET", "/customers/end-user-terms", nil)
	require.Equal(t, 200, terms.Status)
	r = s.do("POST", "/customers", individual(set("platformCustomerId", "cur"), consent(terms.Body["version"].(string))))
	require.Equal(t, 201, r.Status, "the version GET /customers/end-user-terms names is accepted: %s", r.Raw)
	requireError(t, s.do("POST", "/customers", individual(set("platformCustomerId", "bad"), consent("V0"))),
		400, payments.CodeEndUserTermsVersionNotFound, "agreementConsents.0.termsVersion")
}

func TestWire_PatchEmailAndPhoneTogether(t *testing.T) {
	s := newServer(t)
	id := s.do("POST", "/customers", individual(set("platformCustomerId", "ep"))).Body["id"].(string)
	r := s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "email": "new@example.com", "phoneNumber": "+14155550999"})
	requireError(t, r, 400, payments.CodeInvalidInput, "phoneNumber")
	got := s.do("GET", "/customers/"+id, nil)
	assert.Equal(t, "jane@example.com", got.Body["email"], "a refused PATCH changes nothing")
	r = s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "email": "new@example.com"})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	r = s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "phoneNumber": "+14155550999"})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
}

func TestWire_ExchangeRatesWithoutQuery(t *testing.T) {
	s := sandboxServer(t)
	r := s.do("GET", "/exchange-rates", nil)
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	rows := r.Body["data"].([]any)
	require.NotEmpty(t, rows)
	sources := map[any]bool{}
	for _, row := range rows {
		m := row.(map[string]any)
		sources[m["sourceCurrency"].(map[string]any)["code"]] = true
		assert.NotEqual(t, m["sourceCurrency"], m["destinationCurrency"])
	}
	assert.Greater(t, len(sources), 1, "no sourceCurrency quotes every platform currency")
	r = s.do("GET", "/exchange-rates?destinationCurrency=EUR", nil)
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	for _, row := range r.Body["data"].([]any) {
		assert.Equal(t, "EUR", row.(map[string]any)["destinationCurrency"].(map[string]any)["code"])
	}
}

func TestWire_DirectoriesArePaged(t *testing.T) {
	s := sandboxServer(t)
	for _, path := range []string{"/vasps", "/uma-providers", "/discoveries?country=PH&currency=PHP"} {
		sep := "?"
		if len(path) > 14 {
			sep = "&"
		}
		all := s.do("GET", path, nil)
		require.Equal(t, 200, all.Status, "%s", all.Raw)
		n := len(all.Body["data"].([]any))
		require.GreaterOrEqual(t, n, 2, path)
		var seen []any
		cursor := ""
		for pages := 0; ; pages++ {
			require.Less(t, pages, n, path)
			q := path + sep + "limit=1"
			if cursor != "" {
				q += "&cursor=" + cursor
			}
			r := s.do("GET", q, nil)
			require.Equal(t, 200, r.Status, "%s", r.Raw)
			require.Len(t, r.Body["data"], 1, path)
			seen = append(seen, r.Body["data"].([]any)...)
			if r.Body["hasMore"] != true {
				break
			}
			cursor = r.Body["nextCursor"].(string)
		}
		assert.Equal(t, all.Body["data"], seen, path)
		requireError(t, s.do("GET", path+sep+"limit=0", nil), 400, payments.CodeInvalidInput, "limit")
		requireError(t, s.do("GET", path+sep+"limit=1000", nil), 400, payments.CodeInvalidInput, "limit")
		requireError(t, s.do("GET", path+sep+"sortOrder=sideways", nil), 400, payments.CodeInvalidInput, "sortOrder")
		requireError(t, s.do("GET", path+sep+"cursor=bogus", nil), 400, payments.CodeInvalidInput, "cursor")
	}
}

func TestWire_LookupWithUnknownSender(t *testing.T) {
	s := sandboxServer(t)
	requireError(t, s.do("GET", "/receiver/uma/"+sandbox.UMASuccessEUR+"?customerId=Customer:nope", nil), 404, payments.CodeCustomerNotFound)
	c := s.do("POST", "/customers", individual(set("platformCustomerId", "snd")))
	require.Equal(t, 201, c.Status)
	r := s.do("GET", "/receiver/uma/"+sandbox.UMASuccessEUR+"?customerId="+c.Body["id"].(string), nil)
	require.Equal(t, 200, r.Status, "%s", r.Raw)
}

func TestWire_TransferOutPaymentRail(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(5000)
	dest := s.do("POST", "/customers/external-accounts", usdAccount(id, "444555001"))
	require.Equal(t, 201, dest.Status, "%s", dest.Raw)
	send := func(rail string, amount any) response {
		d := map[string]any{"accountId": dest.Body["id"]}
		if rail != "" {
			d["paymentRail"] = rail
		}
		b := map[string]any{"source": map[string]any{"accountId": acct}, "destination": d}
		if amount != nil {
			b["amount"] = amount
		}
		return s.do("POST", "/transfer-out", b)
	}
	requireError(t, send("CARRIER_PIGEON", 1000), 400, payments.CodeInvalidInput, "destination.paymentRail")
	requireError(t, send("SEPA", 1000), 400, payments.CodeInvalidInput, "destination.paymentRail")
	requireError(t, send("", nil), 400, payments.CodeInvalidInput, "amount")
	requireError(t, send("", 0), 400, payments.CodeInvalidInput, "amount")
	bal, _ := s.usdBalance(acct)
	assert.EqualValues(t, 5000, bal, "refused transfers move nothing")

	out := send("WIRE", 1000)
	require.Equal(t, 201, out.Status, "%s", out.Raw)
	assert.Equal(t, "WIRE", out.Body["paymentRail"])
	tx := s.do("GET", "/transactions/"+out.Body["id"].(string), nil)
	assert.Equal(t, "WIRE", tx.Body["paymentRail"], "the chosen rail is carried on the transaction")
	out = send("", 1000)
	require.Equal(t, 201, out.Status, "%s", out.Raw)
	assert.Equal(t, "ACH", out.Body["paymentRail"], "the default rail of a USD account")
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

func TestWire_ExecuteScaFactorIsChecked(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(5000)
	dest := s.do("POST", "/customers/external-accounts", usdAccount(id, "444555001"))
	q := s.do("POST", "/quotes", quoteBody(acct, dest.Body["id"].(string), 1000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	qid := q.Body["id"].(string)
	requireError(t, s.do("POST", "/quotes/"+qid+"/execute", map[string]any{"scaFactor": "FACE"}), 400, payments.CodeInvalidInput, "scaFactor")
	requireError(t, s.do("POST", "/quotes/"+qid+"/execute", map[string]any{"scaFactor": "TOTP"}), 400, payments.CodeInvalidInput, "scaFactor")
	requireError(t, s.do("POST", "/quotes/"+qid+"/execute", map[string]any{"scaFactor": 7}), 400, payments.CodeInvalidInput, "scaFactor")
	requireError(t, s.do("POST", "/quotes/Quote:nope/execute", map[string]any{"scaFactor": "FACE"}), 400, payments.CodeInvalidInput, "scaFactor")
	assert.Equal(t, "PENDING", s.do("GET", "/quotes/"+qid, nil).Body["status"], "a refused execute changes nothing")
	r := s.do("POST", "/quotes/"+qid+"/execute", map[string]any{"scaFactor": "SMS_OTP"})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
}

func TestWire_ValidationComesBeforeState(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(5000)
	dest := s.do("POST", "/customers/external-accounts", usdAccount(id, "444555001"))
	out := s.do("POST", "/transfer-out", map[string]any{"source": map[string]any{"accountId": acct},
		"destination": map[string]any{"accountId": dest.Body["id"]}, "amount": 1000})
	require.Equal(t, 201, out.Status, "%s", out.Raw)
	tx := out.Body["id"].(string)
	requireError(t, s.do("POST", "/transactions/"+tx+"/reject", map[string]any{"reason": 5}), 400, payments.CodeInvalidInput, "reason")
	requireError(t, s.do("POST", "/transactions/"+tx+"/approve", `{"reason":`), 400, payments.CodeInvalidInput)
	requireError(t, s.do("POST", "/transactions/"+tx+"/cancel", `{"x":`), 400, payments.CodeInvalidInput)
	requireError(t, s.do("POST", "/transactions/Transaction:nope/reject", map[string]any{"reason": 5}), 400, payments.CodeInvalidInput, "reason")
	requireError(t, s.do("POST", "/transactions/"+tx+"/reject", map[string]any{"reason": "RESTRICTED_JURISDICTION"}), 409, payments.CodeTransactionNotPendingPlatformApproval)
}

func TestWire_ConfirmBadDateIsFieldError(t *testing.T) {
	s := moneyServer(t)
	for _, bad := range []string{"yesterday", "2025-13-40T00:00:00Z", "2025-10-03"} {
		r := s.do("POST", "/transactions/Transaction:nope/confirm", map[string]any{"receiptDeliveryConfirmedAt": bad})
		requireError(t, r, 400, payments.CodeInvalidInput, "receiptDeliveryConfirmedAt")
		assert.NotContains(t, string(r.Raw), "2006-01-02", "no Go layout string reaches the client")
		assert.NotContains(t, string(r.Raw), "parsing time")
	}
}

func TestWire_HostileBodies(t *testing.T) {
	s := newServer(t)
	body := `{"customerType":"INDIVIDUAL","platformCustomerId":"h","fullName":"Jane Doe"}`
	t.Run("media type", func(t *testing.T) {
		requireError(t, s.do("POST", "/customers", body, "Content-Type", "text/plain"), 415, payments.CodeUnsupportedMediaType)
		requireError(t, s.do("POST", "/customers", body, "Content-Type", ""), 415, payments.CodeUnsupportedMediaType)
		requireError(t, s.do("POST", "/customers", body, "Content-Type", "application/x-www-form-urlencoded"), 415, payments.CodeUnsupportedMediaType)
		r := s.do("POST", "/customers", body, "Content-Type", "application/json; charset=utf-8")
		require.Equal(t, 201, r.Status, "%s", r.Raw)
	})
	t.Run("invalid UTF-8", func(t *testing.T) {
		r := s.do("POST", "/customers", []byte("{\"customerType\":\"INDIVIDUAL\",\"platformCustomerId\":\"u\",\"fullName\":\"Jane \xff Doe\"}"))
		requireError(t, r, 400, payments.CodeInvalidInput, "fullName")
	})
	t.Run("duplicate keys", func(t *testing.T) {
		r := s.do("POST", "/customers", `{"customerType":"INDIVIDUAL","platformCustomerId":"d","fullName":"A","fullName":"B"}`)
		requireError(t, r, 400, payments.CodeInvalidInput, "fullName")
		r = s.do("POST", "/customers", `{"customerType":"INDIVIDUAL","platformCustomerId":"d","address":{"line1":"a","line1":"b","postalCode":"1","country":"US"}}`)
		requireError(t, r, 400, payments.CodeInvalidInput, "address.line1")
		// White space before a member's name is no part of it: a client
		// that spaces its JSON out repeats a member all the same.
		r = s.do("POST", "/customers", "{\"customerType\":\"INDIVIDUAL\", \"platformCustomerId\":\"d\",\n  \"fullName\":\"A\", \"fullName\":\"B\"}")
		requireError(t, r, 400, payments.CodeInvalidInput, "fullName")
	})
	t.Run("long strings", func(t *testing.T) {
		long := strings.Repeat("a", 64<<10-200)
		r := s.do("POST", "/customers", map[string]any{"customerType": "INDIVIDUAL", "platformCustomerId": "l", "fullName": "Jane",
			"address": map[string]any{"line1": long, "postalCode": "1", "country": "US"}})
		requireError(t, r, 400, payments.CodeInvalidInput, "address.line1")
		r = s.do("POST", "/customers", map[string]any{"customerType": "INDIVIDUAL", "platformCustomerId": "l", "fullName": "Jane",
			"address": map[string]any{"line1": "1 Main", "line2": strings.Repeat("b", 300), "postalCode": "1", "country": "US"}})
		requireError(t, r, 400, payments.CodeInvalidInput, "address.line2")
	})
	before := s.customerCount()
	assert.EqualValues(t, 1, before, "only the one well-formed request created a customer")
}

func TestWire_TokensGrantOnlyWhatTheyHold(t *testing.T) {
	s := newServer(t)
	manager := s.token(payments.PermView, payments.PermManage)
	r := s.doAs(manager, "POST", "/tokens", map[string]any{"name": "escalate", "permissions": []string{"VIEW", "TRANSACT"}})
	requireError(t, r, 403, payments.CodeForbidden)
	list := s.do("GET", "/tokens?name=escalate", nil)
	assert.Empty(t, list.Body["data"], "a refused grant creates no token")
	r = s.doAs(manager, "POST", "/tokens", map[string]any{"name": "ok", "permissions": []string{"VIEW", "MANAGE"}})
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	r = s.do("POST", "/tokens", map[string]any{"name": "admin-made", "permissions": []string{"TRANSACT"}})
	require.Equal(t, 201, r.Status, "a token holding TRANSACT may grant it: %s", r.Raw)
}

func TestWire_CheckDigitsAreASetting(t *testing.T) {
	account := func(customer, typ, cur string, info map[string]any) map[string]any {
		info["accountType"] = typ
		info["beneficiary"] = map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe"}
		return map[string]any{"customerId": customer, "currency": cur, "accountInfo": info}
	}
	cases := []struct {
		typ, cur, field string
		info            map[string]any
	}{
		{"MXN_ACCOUNT", "MXN", "accountInfo.clabeNumber", map[string]any{"clabeNumber": "014027000005555601"}},
		{"MXN_ACCOUNT", "MXN", "accountInfo.clabeNumber", map[string]any{"clabeNumber": "123456789012345678"}},
		{"USD_ACCOUNT", "USD", "accountInfo.routingNumber", map[string]any{"accountNumber": "123", "routingNumber": "123456789"}},
	}
	strict := newServer(t)
	lenient := newServer(t, func(c *payments.Config) { c.SkipCheckDigits = true })
	sid, lid := strict.customer(), lenient.customer()
	for _, tc := range cases {
		requireError(t, strict.do("POST", "/customers/external-accounts", account(sid, tc.typ, tc.cur, tc.info)), 400, payments.CodeInvalidBankAccount, tc.field)
		r := lenient.do("POST", "/customers/external-accounts", account(lid, tc.typ, tc.cur, tc.info))
		require.Equal(t, 201, r.Status, "the hosted sandbox's patterns accept %v: %s", tc.info, r.Raw)
	}
	requireError(t, lenient.do("POST", "/customers/external-accounts", account(lid, "MXN_ACCOUNT", "MXN", map[string]any{"clabeNumber": "12345"})),
		400, payments.CodeInvalidBankAccount, "accountInfo.clabeNumber")
}

func TestWire_AccountsAfterConsentOnUnregulatedPlatforms(t *testing.T) {
	s := newServer(t)
	require.Equal(t, false, s.do("GET", "/config", nil).Body["isRegulatedFinancialInstitution"])
	c := s.do("POST", "/customers", individual(set("platformCustomerId", "nc"), func(b map[string]any) { delete(b, "agreementConsents") }))
	require.Equal(t, 201, c.Status, "%s", c.Raw)
	id := c.Body["id"].(string)
	accts := s.do("GET", "/customers/internal-accounts?customerId="+id, nil)
	require.Equal(t, 200, accts.Status, "%s", accts.Raw)
	assert.Empty(t, accts.Body["data"], "no internal accounts before the end-user terms are accepted")

	p := s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "agreementConsents": []any{map[string]any{
		"type": "PROVIDER_END_USER_TERMS", "termsVersion": "V1", "acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}}})
	require.Equal(t, 200, p.Status, "%s", p.Raw)
	accts = s.do("GET", "/customers/internal-accounts?customerId="+id, nil)
	assert.NotEmpty(t, accts.Body["data"], "the consent provisions them")
}
