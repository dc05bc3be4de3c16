package quotes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
)

// TestSandbox_Fund: funding an internal account is a deposit, on every
// store: a COMPLETED INCOMING transaction listed with the others and
// announced as INCOMING_PAYMENT.COMPLETED before the account's
// INTERNAL_ACCOUNT.BALANCE_UPDATED, the ledger balanced; a retry with the
// same key makes neither a second credit nor a second transaction.
func TestSandbox_Fund(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			a := e.USDAccount(t, "Ann Able")
			e.FlushTypes(t)
			before := len(e.Rec.Types())
			key := payments.Idempotency{Scope: "POST /sandbox/internal-accounts/fund", Key: "fund-1"}
			for range 2 {
				h, err := e.Eng.WithIdempotency(key)
				require.NoError(t, err)
				v, err := h.Sandbox.Fund(ctx, a, 2_500)
				require.NoError(t, err)
				assert.EqualValues(t, 2_500, v.Balance.Amount)
			}
			assert.Equal(t, []string{"INCOMING_PAYMENT.COMPLETED", "INTERNAL_ACCOUNT.BALANCE_UPDATED"}, e.FlushTypes(t)[before:])
			assert.EqualValues(t, 2_500, e.Available(t, a), "the retry credits nothing")

			page, err := e.Eng.Transactions.List(ctx, payments.TransactionFilter{Type: payments.TxIncoming}, payments.ListParams{})
			require.NoError(t, err)
			require.Len(t, page.Data, 1)
			tx := page.Data[0]
			assert.Equal(t, payments.TxCompleted, tx.Status)
			assert.Equal(t, payments.TxIncoming, tx.Type)
			assert.Equal(t, a, tx.Destination.AccountID)
			assert.Equal(t, payments.SourceRealtimeFunding, tx.Source.SourceType)
			assert.Equal(t, payments.SandboxFundingDescription, tx.Description)
			require.NotNil(t, tx.ReceivedAmount)
			assert.EqualValues(t, 2_500, tx.ReceivedAmount.Amount)
			assert.Equal(t, "USD", tx.ReceivedAmount.Currency.Code)
			assert.NotNil(t, tx.SettledAt)
			assert.NotEmpty(t, tx.CustomerID)

			ev := e.Rec.Events()[before]
			got, err := payments.TransactionOf(ev)
			require.NoError(t, err)
			assert.Equal(t, tx.ID, got.ID, "the event carries the transaction")
			require.NoError(t, payments.CheckLedger(ctx, e.Store))

			_, err = e.Eng.Sandbox.Fund(ctx, a, 0)
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "amount")
			_, err = e.Eng.Sandbox.Fund(ctx, "InternalAccount:nope", 1)
			enginetest.RequireCode(t, err, payments.CodeAccountNotFound)
		})
	}
}
