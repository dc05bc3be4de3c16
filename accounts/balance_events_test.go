package accounts_test

import (
	"encoding/json"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// balanceEvents returns the balances announced for account, in order.
func balanceEvents(t testing.TB, e *enginetest.Env, account string) []int64 {
	t.Helper()
	_, err := e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	var out []int64
	for _, ev := range e.Rec.Events() {
		if ev.Type != "INTERNAL_ACCOUNT.BALANCE_UPDATED" {
			continue
		}
		var a payments.InternalAccountView
		require.NoError(t, json.Unmarshal(ev.Data, &a))
		if a.ID == account {
			out = append(out, a.Balance.Amount)
		}
	}
	return out
}

// TestEngine_BalanceEvents: every balance change of an internal account is
// announced (INTERNAL_ACCOUNT.BALANCE_UPDATED): funding, the debit of an executed quote, and
// the credit of its internal destination.
func TestEngine_BalanceEvents(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
	_, err := e.Eng.Sandbox.Fund(ctx, from, 1000)
	require.NoError(t, err)
	_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 300, true))
	require.NoError(t, err)
	assert.Equal(t, []int64{1000, 700}, balanceEvents(t, e, from))
	assert.Equal(t, []int64{300}, balanceEvents(t, e, to))

	t.Run("ErrInsufficientFunds announces nothing", func(t *testing.T) {
		_, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 5000, true))
		enginetest.RequireCode(t, err, payments.CodeInsufficientFunds)
		assert.Equal(t, []int64{1000, 700}, balanceEvents(t, e, from))
	})
}
