package sandbox

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/webhooks"
)

// WebhookReceiver is a webhook endpoint for tests: it verifies each
// delivery's signature (webhooks.SignatureHeader) with the platform's public
// key, as a platform's own receiver does, answers 401 to a delivery that
// does not verify (its signature alone: the sandbox's clock, which stamps
// each delivery when it is sent, may be moved or frozen far from the wall
// clock, so it does not check their age as webhooks.Verify does), and
// keeps the verified events in delivery order, once each, as first
// delivered (deliveries are at least once; it dedupes on the event id).
type WebhookReceiver struct {
	// URL is the endpoint's address.
	URL string

	pub      *ecdsa.PublicKey
	srv      *httptest.Server
	mu       sync.Mutex
	events   []payments.Event
	seen     map[string]bool
	tries    map[string]int // verified deliveries by event id
	rejected int
	status   int
	arrived  chan struct{} // closed and replaced on every new event
}

// NewWebhookReceiver starts a receiver verifying with pub. Close it when
// done.
func NewWebhookReceiver(pub *ecdsa.PublicKey) *WebhookReceiver {
	w := &WebhookReceiver{pub: pub, seen: map[string]bool{}, tries: map[string]int{}, status: http.StatusOK, arrived: make(chan struct{})}
	w.srv = httptest.NewServer(w)
	w.URL = w.srv.URL
	return w
}

// Close shuts the receiver down.
func (w *WebhookReceiver) Close() { w.srv.Close() }

// PublicKey returns the key deliveries are verified with.
func (w *WebhookReceiver) PublicKey() *ecdsa.PublicKey { return w.pub }

// Answer sets the status later verified deliveries get (200 at first): 202
// to an INCOMING_PAYMENT.PENDING asks the platform to wait for the
// decision (on an engine with Config.IncomingApproval); a 5xx makes the
// platform retry with backoff.
func (w *WebhookReceiver) Answer(status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.status = status
}

// ServeHTTP verifies and records one delivery.
func (w *WebhookReceiver) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var ev payments.Event
	if err == nil {
		err = webhooks.Verifier{Key: w.pub, Tolerance: -1}.Verify(body, r.Header.Get(webhooks.SignatureHeader))
	}
	if err == nil {
		err = json.Unmarshal(body, &ev)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.rejected++
		http.Error(rw, "signature does not verify", http.StatusUnauthorized)
		return
	}
	w.tries[ev.ID]++
	if !w.seen[ev.ID] {
		w.seen[ev.ID] = true
		w.events = append(w.events, ev)
		close(w.arrived)
		w.arrived = make(chan struct{})
	}
	rw.WriteHeader(w.status)
}

// Events returns the verified events received so far, in delivery order.
func (w *WebhookReceiver) Events() []payments.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.events)
}

// Types returns the types of Events, in order.
func (w *WebhookReceiver) Types() []string {
	var out []string
	for _, ev := range w.Events() {
		out = append(out, string(ev.Type))
	}
	return out
}

// Deliveries returns how many verified deliveries of the event id came,
// whatever they were answered: the first, every retry and every
// redelivery (POST /sandbox/webhooks/{id}/redeliver).
func (w *WebhookReceiver) Deliveries(id string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tries[id]
}

// Rejected returns how many deliveries failed verification.
func (w *WebhookReceiver) Rejected() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rejected
}

// Wait returns the first received event of type typ, waiting for it up to
// timeout; false when none came.
func (w *WebhookReceiver) Wait(typ payments.EventType, timeout time.Duration) (payments.Event, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		w.mu.Lock()
		i := slices.IndexFunc(w.events, func(ev payments.Event) bool { return ev.Type == typ })
		arrived := w.arrived
		var ev payments.Event
		if i >= 0 {
			ev = w.events[i]
		}
		w.mu.Unlock()
		if i >= 0 {
			return ev, true
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return payments.Event{}, false
		}
	}
}
