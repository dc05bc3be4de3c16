package railside_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manualRail takes every payment and reports nothing: the test reports for
// it through Engine.Rails.Report, as a production adapter's webhook would.
// block, when set, holds Send until it is closed.
type manualRail struct {
	sandbox.Rail
	mu      sync.Mutex
	taken   []string
	entered chan string
	block   chan struct{}
	fail    error
}

func (r *manualRail) Name() string { return "manual" }

func (r *manualRail) Send(ctx context.Context, p payments.OutgoingPayment, _ payments.Reporter) error {
	return r.take(ctx, p.ID)
}

func (r *manualRail) Pull(ctx context.Context, p payments.PullRequest, _ payments.Reporter) error {
	return r.take(ctx, p.ID)
}

func (r *manualRail) take(ctx context.Context, id string) error {
	if r.entered != nil {
		r.entered <- id
	}
	if r.block != nil {
		select {
		case <-r.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if r.fail != nil {
		return r.fail
	}
	r.mu.Lock()
	r.taken = append(r.taken, id)
	r.mu.Unlock()
	return nil
}

// payout funds a new customer's USD account with funds and executes a
// payout of amount to a new external account ending in suffix.
func payout(t testing.TB, e *enginetest.Env, funds, amount int64, suffix string) (account, txID string) {
	t.Helper()
	account = e.USDAccount(t, "Payer")
	ia, err := e.Eng.Accounts.Internal(ctx, account)
	require.NoError(t, err)
	_, err = e.Eng.Sandbox.Fund(ctx, account, funds)
	require.NoError(t, err)
	q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(account, e.ExternalUSD(t, ia.CustomerID, suffix), amount, true))
	require.NoError(t, err)
	assert.Equal(t, payments.QuoteProcessing, q.Status, "answered as committed")
	return account, q.TransactionID
}

// TestRails_ReportEntryPoint: outcomes reach the engine only through
// Rails.Report, each applied once per reference; later ones wait as due work.
func TestRails_ReportEntryPoint(t *testing.T) {
	rail := &manualRail{}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Rail = rail })
	acct, txID := payout(t, e, 10_000, 4_000, "000")
	pid := "send:" + txID
	assert.Equal(t, []string{pid}, rail.taken, "handed to the rail once, after commit")
	assert.Equal(t, payments.TxProcessing, e.TxStatus(t, txID))

	enginetest.RequireCode(t, e.Eng.Rails.Report(ctx, payments.RailReport{PaymentID: pid, Outcome: "LOST"}), payments.CodeInvalidInput, "outcome")
	enginetest.RequireCode(t, e.Eng.Rails.Report(ctx, payments.RailReport{Outcome: payments.RailCompleted}), payments.CodeInvalidInput, "paymentId")
	enginetest.RequireCode(t, e.Eng.Rails.Report(ctx, payments.RailReport{PaymentID: "send:Transaction:nope", Outcome: payments.RailCompleted}), payments.CodeTransactionNotFound)

	require.NoError(t, e.Eng.Rails.Report(ctx, payments.RailReport{PaymentID: pid, Reference: "bank-ack-1", Outcome: payments.RailAccepted}))
	assert.Equal(t, payments.TxProcessing, e.TxStatus(t, txID), "accepted moves nothing")
	completed := payments.RailReport{PaymentID: pid, Reference: "bank-settled-1", Outcome: payments.RailCompleted}
	require.NoError(t, e.Eng.Rails.Report(ctx, completed))
	assert.Equal(t, payments.TxCompleted, e.TxStatus(t, txID))
	_, err := e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	events := len(e.Rec.Types())
	require.NoError(t, e.Eng.Rails.Report(ctx, completed), "a redelivered report is fine")
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	assert.Len(t, e.Rec.Types(), events, "and changes nothing")

	returned := payments.RailReport{PaymentID: pid, Reference: "bank-return-1", Outcome: payments.RailReturned,
		At: e.Clock.Now().Add(time.Hour), FailureReason: "PAYOUT_RETURNED", RefundReason: "TRANSACTION_FAILED"}
	require.NoError(t, e.Eng.Rails.Report(ctx, returned))
	assert.Equal(t, payments.TxCompleted, e.TxStatus(t, txID), "a return announced for later waits")
	e.Clock.Advance(time.Hour)
	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, payments.TxFailed, e.TxStatus(t, txID))
	assert.EqualValues(t, 10_000, e.Available(t, acct), "the sender has everything back")
	require.NoError(t, payments.CheckLedger(ctx, e.Store))
}

// TestRails_SlowRailNeverStallsUnrelatedWrites: while the rail holds one
// payment's hand-over, other operations commit, payments included.
func TestRails_SlowRailNeverStallsUnrelatedWrites(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			rail := &manualRail{entered: make(chan string, 8), block: make(chan struct{})}
			e := enginetest.MoneyEnv(t, store, func(c *payments.Config) { c.Rail = rail })
			payer := e.USDAccount(t, "Payer")
			ia, err := e.Eng.Accounts.Internal(ctx, payer)
			require.NoError(t, err)
			_, err = e.Eng.Sandbox.Fund(ctx, payer, 10_000)
			require.NoError(t, err)
			ext := e.ExternalUSD(t, ia.CustomerID, "000")
			done := make(chan error, 1)
			go func() {
				_, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(payer, ext, 1_000, true))
				done <- err
			}()
			<-rail.entered // the payout committed and its hand-over is stuck in the rail

			other := e.USDAccount(t, "Other")
			_, err = e.Eng.Sandbox.Fund(ctx, other, 5_000)
			require.NoError(t, err)
			q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(other, payer, 2_000, true))
			require.NoError(t, err, "an unrelated payment commits while the rail is stuck")
			assert.Equal(t, payments.QuoteCompleted, q.Status)
			assert.EqualValues(t, 10_000-1_000+2_000, e.Available(t, payer))
			select {
			case err := <-done:
				t.Fatalf("the stuck hand-over returned early: %v", err)
			default:
			}
			close(rail.block)
			require.NoError(t, <-done)
			require.NoError(t, payments.CheckLedger(ctx, e.Store))
		})
	}
}

// TestRails_FailingRailRetriesThenParks: a payment the rail does not take
// stays PROCESSING with its money held, is retried with backoff and finally
// parked in the dead letters; a rail that recovers takes it on a retry.
func TestRails_FailingRailRetriesThenParks(t *testing.T) {
	rail := &manualRail{fail: errors.New("bank API unavailable")}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Rail = rail })
	acct, txID := payout(t, e, 10_000, 4_000, "000")
	_, recovering := payout(t, e, 1_000, 1_000, "000")
	pending, err := e.Eng.Rails.Pending(ctx, 10)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"send:" + txID, "send:" + recovering}, pending)
	for attempt := 2; attempt < engine.MaxDueAttempts; attempt++ {
		e.Clock.Advance(time.Hour)
		_, err := e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
	}
	rail.mu.Lock()
	rail.fail = nil
	rail.mu.Unlock()
	e.Clock.Advance(time.Hour)
	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	// Both were refused MaxDueAttempts-1 times, then taken.
	assert.Empty(t, mustPending(t, e))
	assert.Len(t, rail.taken, 2)

	rail.mu.Lock()
	rail.fail = errors.New("bank API unavailable")
	rail.mu.Unlock()
	_, parked := payout(t, e, 1_000, 500, "000")
	for range engine.MaxDueAttempts {
		e.Clock.Advance(time.Hour)
		_, err := e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
	}
	assert.Empty(t, mustPending(t, e))
	dead, err := e.Eng.DeadLetters(ctx)
	require.NoError(t, err)
	require.Len(t, dead, 1)
	assert.Equal(t, "send:"+parked, dead[0].Key)
	assert.Contains(t, dead[0].Reason, "bank API unavailable")
	assert.Equal(t, payments.TxProcessing, e.TxStatus(t, parked), "never failed by guesswork: the bank may hold it")
	assert.EqualValues(t, 6_000, e.Available(t, acct))
	require.NoError(t, payments.CheckLedger(ctx, e.Store))
}

// reportingRail reports every payment ACCEPTED while it takes it, then
// fails Send (the answer was lost on the way back).
type reportingRail struct {
	manualRail
}

func (r *reportingRail) Send(ctx context.Context, p payments.OutgoingPayment, rep payments.Reporter) error {
	if err := r.take(ctx, p.ID); err != nil {
		return err
	}
	if err := rep.Report(ctx, payments.RailReport{PaymentID: p.ID, Reference: "bank-ack", Outcome: payments.RailAccepted}); err != nil {
		return err
	}
	return errors.New("connection reset after the bank answered")
}

// TestRails_ReportDuringSendTakesThePayment: a rail that reported on a
// payment while taking it owns it, even when Send then fails: the payment
// is not handed over again, retried or parked.
func TestRails_ReportDuringSendTakesThePayment(t *testing.T) {
	rail := &reportingRail{}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Rail = rail })
	acct, txID := payout(t, e, 10_000, 4_000, "000")
	assert.Empty(t, mustPending(t, e))
	for range engine.MaxDueAttempts {
		e.Clock.Advance(time.Hour)
		_, err := e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"send:" + txID}, rail.taken, "handed over once")
	dead, err := e.Eng.DeadLetters(ctx)
	require.NoError(t, err)
	assert.Empty(t, dead)
	assert.Equal(t, payments.TxProcessing, e.TxStatus(t, txID))
	require.NoError(t, e.Eng.Rails.Report(ctx, payments.RailReport{PaymentID: "send:" + txID, Reference: "bank-settled", Outcome: payments.RailCompleted}))
	assert.Equal(t, payments.TxCompleted, e.TxStatus(t, txID))
	assert.EqualValues(t, 6_000, e.Available(t, acct))
	require.NoError(t, payments.CheckLedger(ctx, e.Store))
}

func mustPending(t *testing.T, e *enginetest.Env) []string {
	t.Helper()
	p, err := e.Eng.Rails.Pending(ctx, 10)
	require.NoError(t, err)
	return p
}

// TestRails_LateReturnOfSpentDeposit: an ACH pull returned after the
// customer spent the money leaves the customer's account negative (its
// debt), instead of failing the return; the next deposit pays it down.
func TestRails_LateReturnOfSpentDeposit(t *testing.T) {
	rail := &manualRail{}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Rail = rail })
	acct := e.USDAccount(t, "Spender")
	ia, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	in, err := e.Eng.Transactions.TransferIn(ctx, payments.TransferInRequest{SourceAccountID: e.ExternalUSD(t, ia.CustomerID, "000"), DestinationAccountID: acct, Amount: 1_000})
	require.NoError(t, err)
	assert.Equal(t, payments.TxPending, in.Status)
	pid := "pull:" + in.ID
	require.NoError(t, e.Eng.Rails.Report(ctx, payments.RailReport{PaymentID: pid, Reference: "ach-1", Outcome: payments.RailCompleted}))
	other := e.USDAccount(t, "Payee")
	_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(acct, other, 800, true))
	require.NoError(t, err)
	require.NoError(t, e.Eng.Rails.Report(ctx, payments.RailReport{PaymentID: pid, Reference: "ach-return-R01", Outcome: payments.RailReturned, FailureReason: "PAYOUT_RETURNED"}))
	assert.Equal(t, payments.TxFailed, e.TxStatus(t, in.ID))
	assert.EqualValues(t, -800, e.Available(t, acct), "the customer owes what it spent")
	_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(acct, other, 1, true))
	enginetest.RequireCode(t, err, payments.CodeInsufficientFunds)
	_, err = e.Eng.Sandbox.Fund(ctx, acct, 500)
	require.NoError(t, err)
	assert.EqualValues(t, -300, e.Available(t, acct), "a deposit pays the debt down")
	require.NoError(t, payments.CheckLedger(ctx, e.Store))
}

// TestRails_InstantOutcomesMarkedByState: an instant rail's outcome that
// applies as the payout executes leaves no mark of its own (the payment's
// state records it), and the same report given to Rails.Report later
// changes nothing; an instant outcome that waits as due work is marked, so
// its repeat is refused before it takes effect, and it applies once.
func TestRails_InstantOutcomesMarkedByState(t *testing.T) {
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Rail = sandbox.InstantRail{} })
	marks := func(txID string) []string {
		var keys []string
		require.NoError(t, e.Store.View(ctx, func(tx payments.Tx) error {
			return tx.Scan("rail_reports", payments.ScanOptions{Prefix: "send:" + txID + "\x00"}, func(k string, _ []byte) (bool, error) {
				keys = append(keys, k)
				return true, nil
			})
		}))
		return keys
	}
	settled := func() (events int) {
		_, err := e.Eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		return len(e.Rec.Types())
	}

	acct, txID := payout(t, e, 10_000, 4_000, "000")
	assert.Equal(t, payments.TxCompleted, e.TxStatus(t, txID), "settled as it executed")
	assert.Empty(t, marks(txID), "its state is its mark")
	events := settled()
	require.NoError(t, e.Eng.Rails.Report(ctx, payments.RailReport{PaymentID: "send:" + txID, Reference: "sandbox-0-COMPLETED", Outcome: payments.RailCompleted}))
	assert.Equal(t, events, settled(), "the same report again changes nothing")
	assert.EqualValues(t, 6_000, e.Available(t, acct))

	acct, txID = payout(t, e, 10_000, 4_000, "005")
	assert.Equal(t, payments.TxCompleted, e.TxStatus(t, txID))
	returned := payments.RailReport{PaymentID: "send:" + txID, Reference: "sandbox-1-RETURNED", Outcome: payments.RailReturned,
		At: e.Clock.Now().Add(sandbox.ReturnAfter), FailureReason: "PAYOUT_RETURNED", RefundReason: "TRANSACTION_FAILED"}
	assert.Equal(t, []string{"send:" + txID + "\x00" + returned.Reference}, marks(txID), "the return waiting is marked")
	require.NoError(t, e.Eng.Rails.Report(ctx, returned))
	e.Clock.Advance(sandbox.ReturnAfter + time.Second)
	_, err := e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, payments.TxFailed, e.TxStatus(t, txID))
	assert.EqualValues(t, 10_000, e.Available(t, acct), "returned once")
	events = settled()
	for _, rep := range []payments.RailReport{returned, {PaymentID: "send:" + txID, Reference: "sandbox-0-COMPLETED", Outcome: payments.RailCompleted}} {
		require.NoError(t, e.Eng.Rails.Report(ctx, rep))
	}
	assert.Equal(t, events, settled(), "neither report again changes anything")
	assert.EqualValues(t, 10_000, e.Available(t, acct))
	require.NoError(t, payments.CheckLedger(ctx, e.Store))
}
