package engine_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_OutboxRetryPolicy: a failed INCOMING_PAYMENT.PENDING (the
// approval request) is not retried, while the events after it are.
func TestEngine_OutboxRetryPolicy(t *testing.T) {
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.IncomingApproval = true })
	in := enginetest.FullIndividual("Jane Doe")
	in.Currencies = []string{"USD"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	e.Rec.FailWith(errors.New("receiver down"))
	tx, err := e.Eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: c.ID,
		ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
	require.NoError(t, err)
	_, err = e.Eng.Transactions.Decide(ctx, tx.ID, payments.ApproveIncoming)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	pending, err := e.Eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	var types []string
	for _, ev := range pending {
		types = append(types, string(ev.Type))
	}
	assert.NotContains(t, types, "INCOMING_PAYMENT.PENDING")
	assert.Contains(t, types, "INCOMING_PAYMENT.COMPLETED", "kept for retry")
}
