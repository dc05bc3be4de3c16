// Package outbound holds what delivering a webhook event takes, apart
// from the outbox that keeps the events: the ports events leave through
// (Notifier, and a WebhookSender that sends to the platform's endpoint),
// what an endpoint answered (Delivery, Answer), when a failed try is made
// again (RetryPolicy), and how a failed try is told to whoever reads the
// delivery's record (Classify). It is a leaf: the kernel's delivery
// worker (internal/engine) uses it, and an adapter that sends webhooks
// (package webhooks) reads it alone.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/paygrid/payments/internal/eventrec"
)

// Notifier delivers events after the transaction that wrote them committed.
// Notify is called at least once per event, in the order events were written,
// and may be called again for an event it already accepted (after a crash or a
// failed acknowledgement), so receivers dedupe on Event.ID. The context of
// an event emitted under a trace carries its traceparent (payments.TraceParentFrom). A nil error means
// the event is delivered; any error schedules a retry with backoff. An error
// wrapping ErrPermanent stops retries at once. ev.Data may share memory with
// the store's copy of the event: keep it as long as needed, never modify it.
type Notifier interface {
	Notify(ctx context.Context, ev eventrec.Event) error
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, ev eventrec.Event) error

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, ev eventrec.Event) error { return f(ctx, ev) }

// ErrPermanent marks a Notifier error that must not be retried: the event
// goes to the outbox's dead letters at once.
var ErrPermanent = errors.New("payments: permanent delivery failure")

// WebhookSender is the optional capability of a Notifier that delivers to the
// platform's configured webhook endpoint (see package webhooks). When the
// Notifier has it and an endpoint is configured, the engine calls Send with
// the current endpoint instead of Notify.
type WebhookSender interface {
	Send(ctx context.Context, endpoint string, ev eventrec.Event) (Delivery, error)
}

// EndpointOnly is the optional capability of a WebhookSender whose Notify
// drops every event: it delivers to the configured webhook endpoint and
// nowhere else (package webhooks). While no endpoint is configured, the
// events of an engine with such a Notifier would reach no one, so its
// operations do not write them to the outbox: without an EventHistory they
// are not written at all (an event written to the outbox and deleted for
// nothing cost a third of a payment on PostgreSQL), and with one they
// enter the history at once, delivered, as the pass that handed them to
// Notify would have recorded them. An event belongs to the endpoint
// configured when its operation commits (read in the operation's
// transaction); one configured later receives the events from then on.
type EndpointOnly interface {
	WebhookSender
	// DropsWithoutEndpoint reports whether Notify drops every event.
	DropsWithoutEndpoint() bool
}

// Delivery is what a webhook endpoint answered: its HTTP status and body.
type Delivery struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// Answer is what the webhook endpoint answered to one event.
type Answer struct {
	Event    eventrec.Event
	Delivery Delivery
	Err      error
}

// RetryPolicy is the outbox's delivery backoff: Initial, doubling per attempt
// up to Max, giving up after MaxAge (the event then moves to the dead-letter
// table, the kernel's TableOutboxDead). Due work and intents use its Backoff too. The
// zero values are defaults only through WithDefaults, which the facade
// applies.
type RetryPolicy struct {
	Initial time.Duration // zero: 1 second
	Max     time.Duration // zero: 30 minutes
	MaxAge  time.Duration // zero: 7 days
	// Redeliver bounds the one try of Webhooks.Redeliver; zero: 10
	// seconds (DefaultRedeliverTimeout).
	Redeliver time.Duration
}

// DefaultRedeliverTimeout bounds a try of Webhooks.Redeliver when
// RetryPolicy.Redeliver is zero.
const DefaultRedeliverTimeout = 10 * time.Second

// WithDefaults returns p with every zero or negative member set to its
// default (1 second, 30 minutes, 7 days).
func (p RetryPolicy) WithDefaults() RetryPolicy {
	if p.Initial <= 0 {
		p.Initial = time.Second
	}
	if p.Max <= 0 {
		p.Max = 30 * time.Minute
	}
	if p.MaxAge <= 0 {
		p.MaxAge = 7 * 24 * time.Hour
	}
	return p
}

// Backoff returns the wait after the given number of failed attempts.
func (p RetryPolicy) Backoff(attempts int) time.Duration {
	d := p.Initial
	for i := 1; i < attempts && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}

// sendError is a failed try to the webhook endpoint as the delivery's
// record keeps it (lastError, in GET /sandbox/webhooks and the answer of
// redeliver): its class only (the receiver's status, a connection that
// failed, a timeout), never an address, a port or the transport's words,
// which would let whoever sets the endpoint probe the network behind the
// server. The cause (Unwrap) goes to the server log.
type sendError struct {
	class string
	err   error
}

// Error is the class.
func (e *sendError) Error() string { return e.class }

// Unwrap returns the cause (ErrPermanent stays visible to errors.Is).
func (e *sendError) Unwrap() error { return e.err }

// Classify returns err, the failure of a send that got d, told by its
// class only: the receiver's status class, a refused endpoint, a timeout
// or a failed connection; nil for nil. Cause returns what it hides.
func Classify(ctx context.Context, d Delivery, err error) error {
	if err == nil {
		return nil
	}
	var timeout interface{ Timeout() bool }
	class := "connection failed"
	switch {
	case d.Status != 0:
		// The status class only: the status itself, beside the
		// address a MANAGE caller chose, would tell what answers there.
		class = fmt.Sprintf("receiver answered %dxx", d.Status/100)
	case errors.Is(err, ErrPermanent):
		class = "endpoint refused: not a valid public URL"
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil || errors.As(err, &timeout) && timeout.Timeout():
		class = "timed out"
	}
	return &sendError{class: class, err: err}
}

// TimedOut returns err, the failure of a try that ran out of its time, as
// Classify tells a timeout.
func TimedOut(err error) error { return &sendError{class: "timed out", err: err} }

// Cause returns the cause of a failure Classify or TimedOut told, for the
// log; any other error as it is.
func Cause(err error) error {
	var se *sendError
	if errors.As(err, &se) {
		return se.err
	}
	return err
}
