package httpapi_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuotes_PlatformAccountOnBehalf: a quote from the platform's own (FBO)
// account names the customer it pays for with source.customerId; a
// customer's account cannot be spent for someone else.
func TestQuotes_PlatformAccountOnBehalf(t *testing.T) {
	s := moneyServer(t)
	id, acct := s.funded(1000)
	platform := s.do("GET", "/platform/internal-accounts?currency=USD", nil).Body["data"].([]any)[0].(map[string]any)["id"].(string)
	require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+platform+"/fund", map[string]any{"amount": 5000}).Status)
	dest := s.eurAccount(id, deIBAN("000"))

	body := quoteBody(platform, dest, 2000)
	body["source"].(map[string]any)["customerId"] = id
	body["immediatelyExecute"] = true
	q := s.do("POST", "/quotes", body)
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	tx := s.do("GET", "/transactions/"+q.Body["transactionId"].(string), nil)
	assert.Equal(t, id, tx.Body["customerId"])
	assert.Equal(t, "COMPLETED", tx.Body["status"])
	bal, _ := s.usdBalance(platform)
	assert.EqualValues(t, 3000, bal)

	t.Run("ErrInvalidInput", func(t *testing.T) {
		other, _ := s.funded(0)
		body := quoteBody(acct, dest, 100)
		body["source"].(map[string]any)["customerId"] = other
		requireError(t, s.do("POST", "/quotes", body), 400, payments.CodeInvalidInput, "source.customerId")
	})
	t.Run("ErrCustomerNotFound", func(t *testing.T) {
		body := quoteBody(platform, dest, 100)
		body["source"].(map[string]any)["customerId"] = "Customer:0198c6a4-0000-7000-8000-000000000000"
		requireError(t, s.do("POST", "/quotes", body), 404, payments.CodeCustomerNotFound)
	})
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}
