// Package observe is the vocabulary in which the engine reports its work
// to an Observer (metrics and traces kept outside the kernel): the
// Observer interface, Work and its kinds, Observers to join several, and
// the traceparent a delivery's context carries. It imports nothing of the
// module; the kernel (internal/engine) and the root re-export every name,
// and the adapters (telemetry/prommetrics, telemetry/oteltrace) implement
// Observer.
package observe

import (
	"context"
	"time"
)

// The engine tells an Observer what work it does (an API
// request, an operation, a store transaction, a hand-over to a rail, a
// webhook delivery, a due item), so that metrics and traces can be kept
// outside the kernel: the kernel imports no metrics or tracing library, and
// the adapters (telemetry/prommetrics, telemetry/oteltrace) implement this
// interface. Without an Observer every hook is one nil check: nothing is
// allocated and the clock is not read.

// Observer watches the engine's work. The engine calls it from many
// goroutines at once; it must be safe for concurrent use and quick (it runs
// on every operation), and it must not call the engine back.
type Observer interface {
	// Start is called when w begins, with the context w runs in, and
	// returns the context to run it in: a tracer returns ctx with a span
	// started, a child of w.Parent when it is set (an incoming request's
	// traceparent; for a delivery, the transaction that emitted the
	// event), else of the span ctx carries; anything else returns ctx.
	// w.Began is set.
	Start(ctx context.Context, w Work) context.Context
	// End is called once for every Start, with the context Start returned
	// and w completed: Took, Outcome and, for a failure, Err.
	End(ctx context.Context, w Work)
	// TraceParent returns the W3C traceparent of the span ctx carries
	// ("00-<trace id>-<span id>-<flags>"), "" when it carries none. The
	// engine stores it with the events an operation emits, so that their
	// delivery, later and in any process, continues the operation's trace.
	TraceParent(ctx context.Context) string
}

// WorkKind says what a unit of Work is.
type WorkKind uint8

// The kinds of work, and what their Work's members hold.
const (
	// WorkRequest is an API request (package httpapi). Area is "http",
	// Name the route's pattern ("POST /quotes", "" for a path no route
	// serves), ID the request id, Parent the request's traceparent header;
	// Status is the HTTP status answered and Outcome its code ("OK" below
	// 400).
	WorkRequest WorkKind = iota + 1
	// WorkOperation is one call of a group method of the facade
	// (eng.Quotes.Create): Area is the area's package ("quotes"), Name the
	// method, qualified by its group when that is not the area's Service
	// ("Create", "Transactions.Get"). Outcome is the code the operation
	// answered (CodeOf), "OK" for success. An operation a group method
	// calls from inside another is part of the outer one, not observed on
	// its own.
	WorkOperation
	// WorkTransaction is one store transaction: Name is "read" (View) or
	// "write" (Update), Runs how many times the store ran its function (a
	// store retries conflicts by running it again). Outcome is "commit",
	// "rollback" (the function refused: an operation's answer), "conflict"
	// (engine.ErrConflict: a unique key taken or a store that gave up) or
	// "error" (the store failed).
	WorkTransaction
	// WorkHandOver is the hand-over of one intent after commit (a payment
	// to the rail, a code to its sender): Name is the intent's kind, ID
	// the intent's id. Outcome is "ok" or "failed" (left for the intent
	// worker, with backoff).
	WorkHandOver
	// WorkDelivery is one delivery attempt of a webhook event: Name is the
	// event type, ID the event's id, Parent the traceparent stored with
	// the event (the transaction that emitted it), Attempt the try's
	// number from 1. Outcome is "delivered", "retry" (failed, tried again
	// later) or "given_up" (failed for good: in the dead letters).
	WorkDelivery
	// WorkDue is one due item applied in its own transaction: Name is its
	// due table, ID its key. Outcome is "applied", "skipped" (nothing to
	// do: already applied) or "failed" (retried with backoff, then parked
	// in the dead letters).
	WorkDue
)

// String names the kind in lower case: "request", "operation",
// "transaction", "handover", "delivery", "due".
func (k WorkKind) String() string {
	switch k {
	case WorkRequest:
		return "request"
	case WorkOperation:
		return "operation"
	case WorkTransaction:
		return "transaction"
	case WorkHandOver:
		return "handover"
	case WorkDelivery:
		return "delivery"
	case WorkDue:
		return "due"
	}
	return "work"
}

// Work is one unit of the engine's work as an Observer sees it; WorkKind's
// constants say what each member holds for each kind.
type Work struct {
	Kind    WorkKind
	Area    string
	Name    string
	ID      string
	Parent  string    // a W3C traceparent to continue, "" for none
	Began   time.Time // when the work began
	Took    time.Duration
	Outcome string
	Err     error // the failure, nil when the work succeeded
	Status  int   // WorkRequest: the HTTP status
	Runs    int   // WorkTransaction: the runs of its function
	Attempt int   // WorkDelivery: the try's number
}

// Outcomes of operations and requests that succeeded.
const OutcomeOK = "OK"

// Observers returns an Observer that passes everything to each of obs in
// turn (a metrics and a tracing adapter together); nils are skipped, and
// with none left it returns nil. Start runs them in order, each given the
// context the one before returned, End in the reverse order; TraceParent is
// the first non-empty answer.
func Observers(obs ...Observer) Observer {
	var all tee
	for _, o := range obs {
		if t, ok := o.(tee); ok {
			all = append(all, t...)
		} else if o != nil {
			all = append(all, o)
		}
	}
	switch len(all) {
	case 0:
		return nil
	case 1:
		return all[0]
	}
	return all
}

// tee is Observers' Observer.
type tee []Observer

func (t tee) Start(ctx context.Context, w Work) context.Context {
	for _, o := range t {
		ctx = o.Start(ctx, w)
	}
	return ctx
}

func (t tee) End(ctx context.Context, w Work) {
	for i := len(t) - 1; i >= 0; i-- {
		t[i].End(ctx, w)
	}
}

func (t tee) TraceParent(ctx context.Context) string {
	for _, o := range t {
		if p := o.TraceParent(ctx); p != "" {
			return p
		}
	}
	return ""
}

// traceParentKey keys the traceparent of a delivery in its context.
type traceParentKey struct{}

// TraceParentFrom returns the W3C traceparent a Notifier (or WebhookSender)
// sends with the event it is given ctx for, "" when the event was emitted
// under no trace: the delivery's span when the engine has a tracing
// Observer, else the span of the transaction that emitted the event, kept
// with it in the outbox. package webhooks sends it as the traceparent
// header.
func TraceParentFrom(ctx context.Context) string {
	p, _ := ctx.Value(traceParentKey{}).(string)
	return p
}

// WithTraceParent returns ctx carrying traceparent for TraceParentFrom: the
// engine gives it to a delivery; a program that delivers events itself
// does too.
func WithTraceParent(ctx context.Context, traceparent string) context.Context {
	return context.WithValue(ctx, traceParentKey{}, traceparent)
}
