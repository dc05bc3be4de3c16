package payments_test

import (
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/require"
)

// TestHotAccountExecutesOnPostgres: quotes paid out of one account, created
// first and executed later by concurrent callers, name the account's
// balances to pgstore (payments.WithContended), which once they are hot
// locks them all at the first read of one: executions are seldom run
// twice, and every one of them lands.
func TestHotAccountExecutesOnPostgres(t *testing.T) {
	store := pgtest.Open(t)
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true, KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{}})
	require.NoError(t, err)
	defer eng.Close()
	e := &enginetest.Env{Eng: eng}
	from, to := e.USDAccount(t, "Hana Hot"), e.USDAccount(t, "Ike Cold")
	_, err = eng.Sandbox.Fund(ctx, from, 100_000)
	require.NoError(t, err)

	const callers, each = 8, 15
	run := func(execute func() error) (ok int, retries float64) {
		before := store.Stats().Retries
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range callers {
			wg.Go(func() {
				for range each {
					if err := execute(); err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					ok++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return ok, float64(store.Stats().Retries-before) / (callers * each)
	}
	// Executed at creation: this is what makes the balances hot.
	_, _ = run(func() error {
		_, err := eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, true))
		return err
	})
	quotes := make(chan string, callers*each)
	for range callers * each {
		q, err := eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, false))
		require.NoError(t, err)
		quotes <- q.ID
	}
	ok, retries := run(func() error {
		_, err := eng.Quotes.Execute(ctx, <-quotes)
		return err
	})
	require.Equal(t, callers*each, ok)
	t.Logf("retries per execution: %.2f", retries)
	require.Less(t, retries, 0.5, "an execution on a hot account takes its locks at its first read of one")
	bal, err := eng.Accounts.Internal(ctx, from)
	require.NoError(t, err)
	require.EqualValues(t, 100_000-2*callers*each, bal.Balance.Amount)
}
