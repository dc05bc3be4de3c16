package payments_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_OutboxRetryPolicy: a failed INCOMING_PAYMENT.PENDING (the
// approval request) is not retried, while the events after it are
// (wire-facts 3.3).
func TestEngine_OutboxRetryPolicy(t *testing.T) {
	e := moneyEnv(t, func(c *payments.Config) { c.IncomingApproval = true })
	in := fullIndividual("Jane Doe")
	in.Currencies = []string{"USD"}
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	_, err = e.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	e.rec.mu.Lock()
	e.rec.fail = errors.New("receiver down")
	e.rec.mu.Unlock()
	tx, err := e.eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: c.ID,
		ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
	require.NoError(t, err)
	_, err = e.eng.Transactions.Decide(ctx, tx.ID, payments.ApproveIncoming)
	require.NoError(t, err)
	_, err = e.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	pending, err := e.eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	var types []string
	for _, ev := range pending {
		types = append(types, string(ev.Type))
	}
	assert.NotContains(t, types, "INCOMING_PAYMENT.PENDING")
	assert.Contains(t, types, "INCOMING_PAYMENT.COMPLETED", "kept for retry")
}
