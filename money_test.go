package payments_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// moneyEnv is a sandbox engine with every sandbox provider.
func moneyEnv(t testing.TB, mutate ...func(*payments.Config)) *env {
	return newEnv(t, append([]func(*payments.Config){func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}
	}}, mutate...)...)
}

// usdAccount creates a customer using USD and returns its USD account.
func (e *env) usdAccount(t testing.TB, name string) string {
	t.Helper()
	in := fullIndividual(name)
	in.Currencies = []string{"USD"}
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	return page.Data[0].ID
}

func transfer(from, to string, amount int64, execute bool) payments.QuoteRequest {
	return payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: from},
		Destination:        payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: to},
		LockedCurrencySide: "SENDING", LockedCurrencyAmount: amount, ImmediatelyExecute: execute}
}

func stores(t *testing.T) map[string]func(*payments.Config) {
	m := map[string]func(*payments.Config){
		"memstore": func(*payments.Config) {},
		"boltstore": func(c *payments.Config) {
			s, err := boltstore.Open(filepath.Join(t.TempDir(), "p.db"), nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = s.Close() })
			c.Store = s
		},
		// Every transaction function runs twice, the first run discarded:
		// the engine's functions must be retryable.
		"retrying": func(c *payments.Config) { c.Store = storetest.Twice(c.Store) },
	}
	// PostgreSQL, when PAYMENTS_TEST_POSTGRES names a test database.
	if os.Getenv(pgtest.EnvDSN) != "" {
		m["pgstore"] = func(c *payments.Config) { c.Store = pgtest.Open(t) }
	}
	return m
}

// concurrently runs fn from n goroutines at once and counts the error codes
// ("" for success).
func concurrently(n int, fn func() error) map[payments.Code]int {
	var mu sync.Mutex
	codes := map[payments.Code]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := payments.CodeOf(fn())
			mu.Lock()
			codes[c]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return codes
}

// TestEngine_ConcurrentSpending: 64 goroutines spending one unit each from
// an account funded for exactly K units succeed exactly K times.
func TestEngine_ConcurrentSpending(t *testing.T) {
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			e := moneyEnv(t, store)
			from, to := e.usdAccount(t, "Ann Payer"), e.usdAccount(t, "Bo Payee")
			const K = 40
			_, err := e.eng.Sandbox.Fund(ctx, from, K)
			require.NoError(t, err)
			codes := concurrently(64, func() error {
				_, err := e.eng.Quotes.Create(ctx, transfer(from, to, 1, true))
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": K, payments.CodeInsufficientFunds: 64 - K}, codes)
			a, err := e.eng.Accounts.Internal(ctx, from)
			require.NoError(t, err)
			assert.Zero(t, a.TotalBalance.Amount)
			b, err := e.eng.Accounts.Internal(ctx, to)
			require.NoError(t, err)
			assert.EqualValues(t, K, b.Balance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.eng.Store()))
		})
	}
}

// TestEngine_ConcurrentExecute: 50 concurrent executes of one quote execute
// it once.
func TestEngine_ConcurrentExecute(t *testing.T) {
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			e := moneyEnv(t, store)
			from, to := e.usdAccount(t, "Ann Payer"), e.usdAccount(t, "Bo Payee")
			_, err := e.eng.Sandbox.Fund(ctx, from, 1000)
			require.NoError(t, err)
			q, err := e.eng.Quotes.Create(ctx, transfer(from, to, 300, false))
			require.NoError(t, err)
			codes := concurrently(50, func() error {
				_, err := e.eng.Quotes.Execute(ctx, q.ID)
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeConflict: 49}, codes)
			a, err := e.eng.Accounts.Internal(ctx, from)
			require.NoError(t, err)
			assert.EqualValues(t, 700, a.TotalBalance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.eng.Store()))
		})
	}
}

func TestEngine_QuoteExpirySweep(t *testing.T) {
	e := moneyEnv(t)
	from, to := e.usdAccount(t, "Ann Payer"), e.usdAccount(t, "Bo Payee")
	q, err := e.eng.Quotes.Create(ctx, transfer(from, to, 1, false))
	require.NoError(t, err)
	e.clock.Advance(q.ExpiresAt.Sub(q.CreatedAt))
	n, err := e.eng.ProcessDue(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "not yet past expiresAt")
	e.clock.Advance(1e9)
	n, err = e.eng.ProcessDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	tx, err := e.eng.Transactions.Get(ctx, q.TransactionID)
	require.NoError(t, err)
	assert.Equal(t, payments.TxExpired, tx.Status)
	assert.Contains(t, flushTypes(t, e), "OUTGOING_PAYMENT.EXPIRED")
}

// TestEngine_ExecutedAtCreationWritesNoExpiry: a quote executed by the
// request that creates it neither writes an expiry entry nor deletes one (on
// PostgreSQL a delete that finds nothing predicate-locks the page every new
// quote inserts into); a quote left waiting writes one.
func TestEngine_ExecutedAtCreationWritesNoExpiry(t *testing.T) {
	w := &probe{}
	e := moneyEnv(t, func(c *payments.Config) { w.Store = c.Store; c.Store = w })
	from, to := e.usdAccount(t, "Ann Payer"), e.usdAccount(t, "Bo Payee")
	_, err := e.eng.Sandbox.Fund(ctx, from, 1_000)
	require.NoError(t, err)
	const expiries = "quote_expiry" // the store table of quote expiries
	for _, execute := range []bool{true, false} {
		w.written.Clear()
		q, err := e.eng.Quotes.Create(ctx, transfer(from, to, 1, execute))
		require.NoError(t, err)
		_, wrote := w.written.Load(expiries)
		assert.Equal(t, !execute, wrote, "quote %s wrote to %s", q.Status, expiries)
	}
}

// TestEngine_IncomingApproval: with IncomingApproval an incoming UMA payment
// waits for the platform: approved it lands, rejected it does not, and
// unanswered it times out after ApprovalWindow.
func TestEngine_IncomingApproval(t *testing.T) {
	e := moneyEnv(t, func(c *payments.Config) { c.IncomingApproval = true })
	in := fullIndividual("Jane Doe")
	in.Currencies, in.UmaAddress = []string{"USD"}, "$jane@sandbox.uma.money"
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	receive := func() *payments.Transaction {
		tx, err := e.eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: c.ID,
			ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
		require.NoError(t, err)
		require.Equal(t, payments.TxPending, tx.Status)
		return tx
	}
	approved, rejected, ignored, late := receive(), receive(), receive(), receive()
	tx, err := e.eng.Transactions.Decide(ctx, approved.ID, payments.ApproveIncoming)
	require.NoError(t, err)
	assert.Equal(t, payments.TxCompleted, tx.Status)
	tx, err = e.eng.Transactions.Decide(ctx, rejected.ID, payments.RejectIncoming)
	require.NoError(t, err)
	assert.Equal(t, payments.TxRejected, tx.Status)
	_, err = e.eng.Transactions.Decide(ctx, approved.ID, payments.ApproveIncoming)
	requireCode(t, err, payments.CodeTransactionNotPendingPlatformApproval)

	e.clock.Advance(payments.ApprovalWindow + 1e9)
	// Judged by the deadline, not by when the worker last ran.
	_, err = e.eng.Transactions.Decide(ctx, late.ID, payments.ApproveIncoming)
	requireCode(t, err, payments.CodeTransactionNotPendingPlatformApproval)
	tx, err = e.eng.Transactions.Get(ctx, late.ID)
	require.NoError(t, err)
	assert.Equal(t, "PAYMENT_APPROVAL_TIMED_OUT", tx.FailureReason)
	_, err = e.eng.ProcessDue(ctx)
	require.NoError(t, err)
	tx, err = e.eng.Transactions.Get(ctx, ignored.ID)
	require.NoError(t, err)
	assert.Equal(t, "PAYMENT_APPROVAL_TIMED_OUT", tx.FailureReason)
	page, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	assert.EqualValues(t, 500, page.Data[0].Balance.Amount, "only the approved payment landed")
	require.NoError(t, payments.CheckLedger(ctx, e.eng.Store()))
}
