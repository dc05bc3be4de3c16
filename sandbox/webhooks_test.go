package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWebhookReceiver(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)

	t.Run("refuses what the platform did not sign", func(t *testing.T) {
		res, err := http.Post(s.Webhooks.URL, "application/json", strings.NewReader(`{"id":"Event:x","type":"TEST"}`))
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, 401, res.StatusCode)
		assert.Equal(t, 1, s.Webhooks.Rejected())
		assert.Empty(t, s.Webhooks.Events())
	})

	t.Run("retries come with the clock, once each", func(t *testing.T) {
		s.Webhooks.Answer(503)
		_, acct := funded(t, s, 1_000)
		require.NoError(t, s.RunDue())
		_, ok := s.Webhooks.Wait("INTERNAL_ACCOUNT.BALANCE_UPDATED", 10*time.Millisecond)
		assert.True(t, ok, "received, answered 503")
		first := len(s.Webhooks.Events())
		assert.NotEmpty(t, exported(t, s).Tables["outbox"], "the platform retries")

		s.Webhooks.Answer(200)
		requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "1h"})
		assert.Empty(t, exported(t, s).Tables["outbox"], "the retry within the hour delivered")
		assert.Len(t, s.Webhooks.Events(), first, "the same event again, kept once")
		requireCall(t, s, "POST", "/sandbox/internal-accounts/"+acct+"/fund", obj{"amount": 1})
		require.NoError(t, s.RunDue())
		assert.Len(t, s.Webhooks.Events(), first+2, "the funding's INCOMING_PAYMENT.COMPLETED and INTERNAL_ACCOUNT.BALANCE_UPDATED")
		_, ok = s.Webhooks.Wait("NO_SUCH_EVENT", 10*time.Millisecond)
		assert.False(t, ok)
	})
}

// TestWebhookReceiver_HoldsIncomingPayments answers 202 to the pending
// webhook, so the payment waits for the platform's decision.
func TestWebhookReceiver_HoldsIncomingPayments(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t, func(c *payments.Config) { c.IncomingApproval = true })
	s.Webhooks.Answer(http.StatusAccepted)
	body := customerBody("Jane Doe")
	body["umaAddress"] = "$jane@sandbox.uma.money"
	c := requireCall(t, s, "POST", "/customers", body)
	in := requireCall(t, s, "POST", "/sandbox/uma/receive", obj{"senderUmaAddress": sandbox.UMASuccessUSD,
		"customerId": c["id"], "receivingCurrencyCode": "USD", "receivingCurrencyAmount": 2_500})
	require.NoError(t, s.RunDue())
	id := in["id"].(string)
	assert.Equal(t, "PENDING", requireCall(t, s, "GET", "/transactions/"+id, nil)["status"], "held for the decision")
	requireCall(t, s, "POST", "/transactions/"+id+"/approve", nil)
	assert.Equal(t, "COMPLETED", requireCall(t, s, "GET", "/transactions/"+id, nil)["status"])
}
