package httpapi_test

import (
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
