package quotes_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_ConcurrentSpending: 64 goroutines spending one unit each from
// an account funded for exactly K units succeed exactly K times.
func TestEngine_ConcurrentSpending(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
			const K = 40
			_, err := e.Eng.Sandbox.Fund(ctx, from, K)
			require.NoError(t, err)
			codes := enginetest.Concurrently(64, func() error {
				_, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, true))
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": K, payments.CodeInsufficientFunds: 64 - K}, codes)
			a, err := e.Eng.Accounts.Internal(ctx, from)
			require.NoError(t, err)
			assert.Zero(t, a.TotalBalance.Amount)
			b, err := e.Eng.Accounts.Internal(ctx, to)
			require.NoError(t, err)
			assert.EqualValues(t, K, b.Balance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}
}

// TestEngine_ConcurrentExecute: 50 concurrent executes of one quote execute
// it once.
func TestEngine_ConcurrentExecute(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
			_, err := e.Eng.Sandbox.Fund(ctx, from, 1000)
			require.NoError(t, err)
			q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 300, false))
			require.NoError(t, err)
			codes := enginetest.Concurrently(50, func() error {
				_, err := e.Eng.Quotes.Execute(ctx, q.ID)
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeConflict: 49}, codes)
			a, err := e.Eng.Accounts.Internal(ctx, from)
			require.NoError(t, err)
			assert.EqualValues(t, 700, a.TotalBalance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}
}

func TestEngine_QuoteExpirySweep(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
	q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, false))
	require.NoError(t, err)
	e.Clock.Advance(q.ExpiresAt.Sub(q.CreatedAt))
	n, err := e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "not yet past expiresAt")
	e.Clock.Advance(1e9)
	n, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	tx, err := e.Eng.Transactions.Get(ctx, q.TransactionID)
	require.NoError(t, err)
	assert.Equal(t, payments.TxExpired, tx.Status)
	assert.Contains(t, e.FlushTypes(t), "OUTGOING_PAYMENT.EXPIRED")
}

// TestEngine_ExecutedAtCreationWritesNoExpiry: a quote executed by the
// request that creates it neither writes an expiry entry nor deletes one (on
// PostgreSQL a delete that finds nothing predicate-locks the page every new
// quote inserts into); a quote left waiting writes one.
func TestEngine_ExecutedAtCreationWritesNoExpiry(t *testing.T) {
	w := &enginetest.Probe{}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { w.Store = c.Store; c.Store = w })
	from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
	_, err := e.Eng.Sandbox.Fund(ctx, from, 1_000)
	require.NoError(t, err)
	const expiries = "quote_expiry" // the store table of quote expiries
	for _, execute := range []bool{true, false} {
		w.Written.Clear()
		q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, execute))
		require.NoError(t, err)
		_, wrote := w.Written.Load(expiries)
		assert.Equal(t, !execute, wrote, "quote %s wrote to %s", q.Status, expiries)
	}
}
