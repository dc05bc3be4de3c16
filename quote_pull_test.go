package payments_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pullSource registers a USD bank account for the owner of internal
// account acct, whose account number ends in suffix.
func (e *env) pullSource(t testing.TB, acct, suffix string) string {
	t.Helper()
	a, err := e.eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	ext, err := e.eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: a.CustomerID, Currency: "USD",
		AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"777888` + suffix + `","routingNumber":"021000021",
			"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Ann Payer"}}`)}, payments.CustomerScope)
	require.NoError(t, err)
	return ext.ID
}

// railUSD is the sandbox rail's USD ledger balance.
func (e *env) railUSD(t testing.TB) int64 {
	t.Helper()
	var n int64
	require.NoError(t, e.eng.Store().View(ctx, func(tx payments.Tx) error {
		var err error
		n, err = payments.Balance(tx, "external:rail:sandbox", "USD")
		return err
	}))
	return n
}

// TestEngine_ExecutePullQuote: a quote funded by a direct pull is pulled
// once whatever the concurrency, and not at all once it has expired.
func TestEngine_ExecutePullQuote(t *testing.T) {
	for name, store := range stores(t) {
		t.Run("ConcurrentExecute/"+name, func(t *testing.T) {
			e := moneyEnv(t, store)
			to := e.usdAccount(t, "Ann Payer")
			q, err := e.eng.Quotes.Create(ctx, transfer(e.pullSource(t, to, "001"), to, 300, false))
			require.NoError(t, err)
			codes := concurrently(50, func() error {
				_, err := e.eng.Quotes.Execute(ctx, q.ID)
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeConflict: 49}, codes)
			assert.EqualValues(t, -300, e.railUSD(t), "pulled once")
			a, err := e.eng.Accounts.Internal(ctx, to)
			require.NoError(t, err)
			assert.Equal(t, q.TotalReceivingAmount, a.Balance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.eng.Store()))
		})
	}

	t.Run("ErrQuoteExpired", func(t *testing.T) {
		e := moneyEnv(t)
		to := e.usdAccount(t, "Ann Payer")
		q, err := e.eng.Quotes.Create(ctx, transfer(e.pullSource(t, to, "001"), to, 300, false))
		require.NoError(t, err)
		e.clock.Advance(q.ExpiresAt.Sub(q.CreatedAt) + 1e9)
		_, err = e.eng.Quotes.Execute(ctx, q.ID)
		requireCode(t, err, payments.CodeQuoteExpired)
		assert.Zero(t, e.railUSD(t), "nothing pulled")
		tx, err := e.eng.Transactions.Get(ctx, q.TransactionID)
		require.NoError(t, err)
		assert.Equal(t, payments.TxExpired, tx.Status)
	})

	t.Run("ErrInvalidInput", func(t *testing.T) {
		e := moneyEnv(t)
		to := e.usdAccount(t, "Ann Payer")
		_, err := e.eng.Quotes.Create(ctx, transfer("Lookup:0198c6a4-0000-7000-8000-000000000000", to, 300, true))
		requireCode(t, err, payments.CodeInvalidInput, "source.accountId")
	})
}
