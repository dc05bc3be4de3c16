package payments_test

import (
	"encoding/json"
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// balanceEvents returns the balances announced for account, in order.
func (e *env) balanceEvents(t testing.TB, account string) []int64 {
	t.Helper()
	_, err := e.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	var out []int64
	for _, ev := range e.rec.events {
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
// announced (wire-facts 3.2): funding, the debit of an executed quote, and
// the credit of its internal destination.
func TestEngine_BalanceEvents(t *testing.T) {
	e := moneyEnv(t)
	from, to := e.usdAccount(t, "Ann Payer"), e.usdAccount(t, "Bo Payee")
	_, err := e.eng.Sandbox.Fund(ctx, from, 1000)
	require.NoError(t, err)
	_, err = e.eng.Quotes.Create(ctx, transfer(from, to, 300, true))
	require.NoError(t, err)
	assert.Equal(t, []int64{1000, 700}, e.balanceEvents(t, from))
	assert.Equal(t, []int64{300}, e.balanceEvents(t, to))

	t.Run("ErrInsufficientFunds announces nothing", func(t *testing.T) {
		_, err := e.eng.Quotes.Create(ctx, transfer(from, to, 5000, true))
		requireCode(t, err, payments.CodeInsufficientFunds)
		assert.Equal(t, []int64{1000, 700}, e.balanceEvents(t, from))
	})
}
