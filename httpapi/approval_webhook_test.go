package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/webhooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIncomingPayments_ApprovalWebhook: with IncomingApproval a real
// receiver decides incoming UMA payments by answering the signed
// INCOMING_PAYMENT.PENDING webhook: 200 approves (credited), 403 rejects,
// and 202 leaves the decision to POST /transactions/{id}/approve.
func TestIncomingPayments_ApprovalWebhook(t *testing.T) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	sender, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true})
	require.NoError(t, err)

	var mu sync.Mutex
	answers := map[float64]int{100: 200, 200: 403, 300: 202} // by received amount
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		// The test clock is far from the wall clock: the signature alone.
		if (webhooks.Verifier{Key: &key.PublicKey, Tolerance: -1}).Verify(body, r.Header.Get(webhooks.SignatureHeader)) != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var ev struct {
			Type string
			Data struct {
				ReceivedAmount struct{ Amount float64 }
			}
		}
		_ = json.Unmarshal(body, &ev)
		mu.Lock()
		defer mu.Unlock()
		if ev.Type == "INCOMING_PAYMENT.PENDING" {
			w.WriteHeader(answers[ev.Data.ReceivedAmount.Amount])
		}
	}))
	defer recv.Close()

	s := newServer(t, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory, c.Notifier = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}, sender
		c.IncomingApproval = true
	})
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"webhookEndpoint": recv.URL + "/hooks"}).Status)
	id, acct := s.funded(0)
	receive := func(amount int) string {
		r := s.do("POST", "/sandbox/uma/receive", map[string]any{"senderUmaAddress": sandbox.UMASuccessUSD, "customerId": id,
			"receivingCurrencyCode": "USD", "receivingCurrencyAmount": amount})
		require.Equal(t, 200, r.Status, "%s", r.Raw)
		require.Equal(t, "PENDING", r.Body["status"])
		return r.Body["id"].(string)
	}
	approved, rejected, async := receive(100), receive(200), receive(300)
	_, err = s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	assert.Equal(t, "COMPLETED", s.do("GET", "/transactions/"+approved, nil).Body["status"])
	assert.Equal(t, "REJECTED", s.do("GET", "/transactions/"+rejected, nil).Body["status"])
	assert.Equal(t, "PENDING", s.do("GET", "/transactions/"+async, nil).Body["status"])
	requireError(t, s.do("POST", "/transactions/"+rejected+"/approve", map[string]any{}), 409, payments.CodeTransactionNotPendingPlatformApproval)
	r := s.do("POST", "/transactions/"+async+"/approve", map[string]any{})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Equal(t, "COMPLETED", r.Body["status"])

	bal, _ := s.usdBalance(acct)
	assert.Equal(t, 400.0, bal, "the 200 and the API-approved payments landed")
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}
