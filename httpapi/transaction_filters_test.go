package httpapi_test

import (
	"net/url"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTransactions_Filters: the reference's GET /transactions filters,
// each narrowing a list holding an outgoing payment that failed and was
// refunded, a completed one, and an incoming UMA payment.
func TestTransactions_Filters(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(100000, set("umaAddress", "$jane@sandbox.uma.money"))
	good, bad := s.eurAccount(id, deIBAN("000")), s.eurAccount(id, deIBAN("002"))
	// The sandbox funding is a deposit: the customer's first transaction.
	deposits := s.do("GET", "/transactions?customerId="+url.QueryEscape(id), nil).Body["data"].([]any)
	require.Len(t, deposits, 1)
	ids := map[string]string{"fund": deposits[0].(map[string]any)["id"].(string)}
	for name, dest := range map[string]string{"good": good, "bad": bad} {
		body := quoteBody(acct, dest, 1000)
		body["immediatelyExecute"] = true
		q := s.do("POST", "/quotes", body)
		require.Equal(t, 201, q.Status, "%s", q.Raw)
		ids[name], ids[name+"Quote"] = q.Body["transactionId"].(string), q.Body["id"].(string)
	}
	in := s.do("POST", "/sandbox/uma/receive", map[string]any{"senderUmaAddress": sandbox.UMASuccessUSD, "receiverUmaAddress": "$jane@sandbox.uma.money",
		"receivingCurrencyCode": "USD", "receivingCurrencyAmount": 500})
	require.Equal(t, 200, in.Status, "%s", in.Raw)
	ids["in"] = in.Body["id"].(string)
	refund := s.do("GET", "/transactions/"+ids["bad"], nil).Body["refund"].(map[string]any)["reference"].(string)

	list := func(query string) []string {
		t.Helper()
		r := s.do("GET", "/transactions?customerId="+url.QueryEscape(id)+"&"+query, nil)
		require.Equal(t, 200, r.Status, "%s", r.Raw)
		var got []string
		for _, tx := range r.Body["data"].([]any) {
			got = append(got, tx.(map[string]any)["id"].(string))
		}
		return got
	}
	for query, want := range map[string][]string{
		"": {ids["good"], ids["bad"], ids["in"], ids["fund"]},
		"senderAccountIdentifier=" + url.QueryEscape(acct):                  {ids["good"], ids["bad"]},
		"receiverAccountIdentifier=" + url.QueryEscape(good):                {ids["good"]},
		"accountIdentifier=" + url.QueryEscape(acct):                        {ids["good"], ids["bad"], ids["in"], ids["fund"]},
		"senderAccountIdentifier=" + url.QueryEscape(sandbox.UMASuccessUSD): {ids["in"]},
		"reference=" + url.QueryEscape(refund):                              {ids["bad"]},
		"reference=" + url.QueryEscape(ids["goodQuote"]):                    {ids["good"]},
		"type=INCOMING":               {ids["in"], ids["fund"]},
		"status=FAILED&type=OUTGOING": {ids["bad"]},
	} {
		assert.ElementsMatch(t, want, list(query), "query %q", query)
	}
	requireError(t, s.do("GET", "/transactions?status=DONE", nil), 400, payments.CodeInvalidInput, "status")
}
