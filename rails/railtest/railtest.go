// Package railtest is the conformance suite of payments.Rail: a rail
// author wires it in with a few lines,
//
//	func TestRail(t *testing.T) {
//		railtest.Run(t, railtest.Harness{Rail: myRail, Payment: ..., Account: ...})
//	}
//
// and each behaviour of the contract (package rails) runs as a subtest.
package railtest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
)

// Harness is what the suite needs of a rail.
type Harness struct {
	// Rail is the rail under test. If it implements payments.Puller, pulls
	// are checked too (Pull must then be set).
	Rail payments.Rail
	// Payment returns the n-th payment to send: a destination the rail
	// delivers to, and a distinct ID per n.
	Payment func(n int) payments.OutgoingPayment
	// Pull returns the n-th pull to collect, with a distinct ID per n.
	Pull func(n int) payments.PullRequest
	// Account returns a new external account for CheckAccount.
	Account func() *payments.ExternalAccount
	// Wait bounds how long the suite waits for a rail that reports
	// asynchronously to report a first outcome. Zero means 5 seconds.
	Wait time.Duration
	// Attempts is how often the suite hands a payment over before it gives
	// up on a rail that returns errors, as the engine's worker would retry.
	// Zero means 5.
	Attempts int
}

// Recorder is a payments.Reporter that keeps every report, safe for
// concurrent use. Tests of rails can use it on its own.
type Recorder struct {
	mu      sync.Mutex
	reports []payments.RailReport
	changed chan struct{}
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder { return &Recorder{changed: make(chan struct{}, 1)} }

// Report implements payments.Reporter.
func (r *Recorder) Report(_ context.Context, rep payments.RailReport) error {
	r.mu.Lock()
	r.reports = append(r.reports, rep)
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
	return nil
}

// Reports returns the reports so far for payment id ("" for all).
func (r *Recorder) Reports(id string) []payments.RailReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []payments.RailReport
	for _, rep := range r.reports {
		if id == "" || rep.PaymentID == id {
			out = append(out, rep)
		}
	}
	return out
}

// WaitFor waits until payment id has a report with an outcome other than
// ACCEPTED, or until d passed, and reports whether one came.
func (r *Recorder) WaitFor(id string, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		for _, rep := range r.Reports(id) {
			if rep.Outcome != payments.RailAccepted {
				return true
			}
		}
		select {
		case <-r.changed:
		case <-deadline.C:
			return false
		}
	}
}

// Run runs the suite against h.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if h.Wait == 0 {
		h.Wait = 5 * time.Second
	}
	if h.Attempts == 0 {
		h.Attempts = 5
	}
	puller, pulls := h.Rail.(payments.Puller)
	if pulls && h.Pull == nil {
		t.Fatal("railtest: the rail is a Puller; Harness.Pull is required")
	}
	t.Run("Name", func(t *testing.T) {
		if h.Rail.Name() == "" {
			t.Error("Name is empty; it names the rail's ledger account")
		}
	})
	t.Run("CheckAccountLeavesTheAccountAlone", func(t *testing.T) {
		a := h.Account()
		before := *a
		check, err := h.Rail.CheckAccount(context.Background(), a)
		if err != nil {
			if payments.CodeOf(err) == "" {
				t.Fatalf("CheckAccount refused with %v, not a *payments.Error", err)
			}
			return
		}
		if !reflect.DeepEqual(before, *a) {
			t.Error("CheckAccount changed the account it was given")
		}
		switch check.BeneficiaryStatus {
		case "", "MATCHED", "PARTIAL_MATCH", "NOT_MATCHED", "UNSUPPORTED", "CHECKED_BY_RECEIVING_FI", "PENDING":
		default:
			t.Errorf("BeneficiaryStatus %q is not one of the reference's values", check.BeneficiaryStatus)
		}
		if check.ValidationPeriod < 0 {
			t.Errorf("ValidationPeriod %v is negative", check.ValidationPeriod)
		}
	})
	send := func(ctx context.Context, n int, r payments.Reporter) (string, error) {
		p := h.Payment(n)
		return p.ID, h.Rail.Send(ctx, p, r)
	}
	run(t, "Send", h, send)
	if pulls {
		run(t, "Pull", h, func(ctx context.Context, n int, r payments.Reporter) (string, error) {
			p := h.Pull(n)
			return p.ID, puller.Pull(ctx, p, r)
		})
	}
}

// handOver is one call of Send or Pull for the n-th payment.
type handOver func(ctx context.Context, n int, r payments.Reporter) (id string, err error)

// run checks one kind of hand-over.
func run(t *testing.T, name string, h Harness, call handOver) {
	t.Run(name+"ReportsAnOutcomeOfThePayment", func(t *testing.T) {
		rec := NewRecorder()
		id := deliver(t, h, call, 1, rec)
		if !rec.WaitFor(id, h.Wait) {
			t.Fatalf("no outcome reported for %s within %v", id, h.Wait)
		}
		checkLifecycle(t, rec.Reports(""), id)
	})
	t.Run(name+"TwiceReportsNothingNew", func(t *testing.T) {
		rec := NewRecorder()
		id := deliver(t, h, call, 2, rec)
		if !rec.WaitFor(id, h.Wait) {
			t.Fatalf("no outcome reported for %s within %v", id, h.Wait)
		}
		first := refs(rec.Reports(id))
		deliver(t, h, call, 2, rec)
		time.Sleep(h.Wait / 50) // let an asynchronous rail report the repeat, if it would
		for ref := range refs(rec.Reports(id)) {
			if !first[ref] {
				t.Errorf("handing %s over again reported a new outcome %q: Send must be idempotent on the payment's ID", id, ref)
			}
		}
	})
	t.Run(name+"ConcurrentPaymentsStayApart", func(t *testing.T) {
		rec := NewRecorder()
		var wg sync.WaitGroup
		ids := make([]string, 8)
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ids[i] = deliver(t, h, call, 10+i, rec)
			}()
		}
		wg.Wait()
		for _, id := range ids {
			if !rec.WaitFor(id, h.Wait) {
				t.Errorf("no outcome reported for %s within %v", id, h.Wait)
			}
		}
		checkLifecycle(t, rec.Reports(""), ids...)
	})
	t.Run(name+"CancelledContextReturns", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = call(ctx, 30, NewRecorder()) // either outcome is fine; blocking is not
		}()
		select {
		case <-done:
		case <-time.After(h.Wait):
			t.Fatalf("a hand-over with a cancelled context did not return within %v", h.Wait)
		}
	})
}

// deliver hands the n-th payment over until the rail takes it, at most
// h.Attempts times, as the engine's worker does.
func deliver(t *testing.T, h Harness, call handOver, n int, r payments.Reporter) string {
	t.Helper()
	var last error
	for range h.Attempts {
		id, err := call(context.Background(), n, r)
		if err == nil {
			return id
		}
		last = err
	}
	t.Fatalf("the rail did not take payment %d in %d attempts: %v", n, h.Attempts, last)
	return ""
}

// refs returns the (outcome, reference) pairs of reports.
func refs(reports []payments.RailReport) map[string]bool {
	out := map[string]bool{}
	for _, r := range reports {
		out[fmt.Sprintf("%s/%s", r.Outcome, r.Reference)] = true
	}
	return out
}

// checkLifecycle checks that every report names one of ids with a known
// outcome, and that each payment's outcomes
// follow the lifecycle in the order reported: nothing after FAILED or RETURNED, RETURNED only
// after COMPLETED.
func checkLifecycle(t *testing.T, reports []payments.RailReport, ids ...string) {
	t.Helper()
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	state := map[string]payments.RailOutcome{}
	for _, r := range reports {
		if !known[r.PaymentID] {
			t.Errorf("report for %q, which is none of the payments handed over", r.PaymentID)
			continue
		}
		prev := state[r.PaymentID]
		switch r.Outcome {
		case payments.RailAccepted:
			continue
		case payments.RailCompleted:
			if prev == payments.RailFailed || prev == payments.RailReturned {
				t.Errorf("%s: COMPLETED after %s", r.PaymentID, prev)
			}
		case payments.RailFailed:
			if prev == payments.RailReturned || prev == payments.RailFailed {
				t.Errorf("%s: FAILED after %s", r.PaymentID, prev)
			}
		case payments.RailReturned:
			if prev != payments.RailCompleted {
				t.Errorf("%s: RETURNED without a completion before it (after %q)", r.PaymentID, prev)
			}
		default:
			t.Errorf("%s: unknown outcome %q", r.PaymentID, r.Outcome)
		}
		state[r.PaymentID] = r.Outcome
	}
}
