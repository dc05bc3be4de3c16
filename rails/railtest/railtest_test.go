package railtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/rails/railtest"
	"github.com/paygrid/payments/sandbox"
)

// slowRail reports every payment from another goroutine after a delay.
type slowRail struct {
	sandbox.Rail
	delay time.Duration
}

func (r slowRail) Name() string { return "slow" }

func (r slowRail) Send(_ context.Context, p payments.OutgoingPayment, rep payments.Reporter) error {
	go func() {
		time.Sleep(r.delay)
		_ = rep.Report(context.Background(), payments.RailReport{PaymentID: p.ID, Reference: "slow-1", Outcome: payments.RailCompleted})
	}()
	return nil
}

// flakyRail refuses the first hand-over of every payment.
type flakyRail struct {
	sandbox.Rail
	mu   sync.Mutex
	seen map[string]bool
}

func (r *flakyRail) Send(ctx context.Context, p payments.OutgoingPayment, rep payments.Reporter) error {
	r.mu.Lock()
	first := !r.seen[p.ID]
	r.seen[p.ID] = true
	r.mu.Unlock()
	if first {
		return errors.New("flaky: try again")
	}
	return r.Rail.Send(ctx, p, rep)
}

func (r *flakyRail) Pull(ctx context.Context, p payments.PullRequest, rep payments.Reporter) error {
	return r.Rail.Pull(ctx, p, rep)
}

// TestRails_Conformance runs railtest on a deliberately slow and a
// deliberately failing rail.
func TestRails_Conformance(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	account := func(suffix string) *payments.ExternalAccount {
		info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "12345" + suffix, "routingNumber": "021000021"})
		return &payments.ExternalAccount{Currency: "USD", AccountInfo: info}
	}
	h := railtest.Harness{
		Payment: func(n int) payments.OutgoingPayment {
			return payments.OutgoingPayment{ID: fmt.Sprintf("send:T%d", n), Currency: "USD", Amount: 1, Destination: account("000"), SubmittedAt: at}
		},
		Pull: func(n int) payments.PullRequest {
			return payments.PullRequest{ID: fmt.Sprintf("pull:T%d", n), Currency: "USD", Amount: 1, From: account("000"), SubmittedAt: at}
		},
		Account: func() *payments.ExternalAccount { return account("000") },
	}
	t.Run("slow", func(t *testing.T) {
		h := h
		h.Rail = slowRail{delay: 20 * time.Millisecond}
		railtest.Run(t, h)
	})
	t.Run("failing", func(t *testing.T) {
		h := h
		h.Rail = &flakyRail{seen: map[string]bool{}}
		railtest.Run(t, h)
	})
}
