package quotes_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pullSource registers a USD bank account for the owner of internal
// account acct, whose account number ends in suffix.
func pullSource(t testing.TB, e *enginetest.Env, acct, suffix string) string {
	t.Helper()
	a, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	ext, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: a.CustomerID, Currency: "USD",
		AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"777888` + suffix + `","routingNumber":"021000021",
			"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Ann Payer"}}`)}, payments.CustomerScope)
	require.NoError(t, err)
	return ext.ID
}

// railUSD is the sandbox rail's USD ledger balance.
func railUSD(t testing.TB, e *enginetest.Env) int64 {
	t.Helper()
	var n int64
	require.NoError(t, e.Eng.Store().View(ctx, func(tx payments.Tx) error {
		var err error
		n, err = payments.Balance(tx, "external:rail:sandbox", "USD")
		return err
	}))
	return n
}

// TestEngine_ExecutePullQuote: a quote funded by a direct pull is pulled
// once whatever the concurrency, and not at all once it has expired.
func TestEngine_ExecutePullQuote(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run("ConcurrentExecute/"+name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			to := e.USDAccount(t, "Ann Payer")
			q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(pullSource(t, e, to, "001"), to, 300, false))
			require.NoError(t, err)
			codes := enginetest.Concurrently(50, func() error {
				_, err := e.Eng.Quotes.Execute(ctx, q.ID)
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeConflict: 49}, codes)
			assert.EqualValues(t, -300, railUSD(t, e), "pulled once")
			a, err := e.Eng.Accounts.Internal(ctx, to)
			require.NoError(t, err)
			assert.Equal(t, q.TotalReceivingAmount, a.Balance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}

	t.Run("ErrQuoteExpired", func(t *testing.T) {
		e := enginetest.MoneyEnv(t)
		to := e.USDAccount(t, "Ann Payer")
		q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(pullSource(t, e, to, "001"), to, 300, false))
		require.NoError(t, err)
		e.Clock.Advance(q.ExpiresAt.Sub(q.CreatedAt) + 1e9)
		_, err = e.Eng.Quotes.Execute(ctx, q.ID)
		enginetest.RequireCode(t, err, payments.CodeQuoteExpired)
		assert.Zero(t, railUSD(t, e), "nothing pulled")
		tx, err := e.Eng.Transactions.Get(ctx, q.TransactionID)
		require.NoError(t, err)
		assert.Equal(t, payments.TxExpired, tx.Status)
	})

	t.Run("ErrInvalidInput", func(t *testing.T) {
		e := enginetest.MoneyEnv(t)
		to := e.USDAccount(t, "Ann Payer")
		_, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer("Lookup:0198c6a4-0000-7000-8000-000000000000", to, 300, true))
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "source.accountId")
	})
}
