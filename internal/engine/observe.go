package engine

import (
	"context"
	"errors"
	"time"

	"github.com/paygrid/payments/internal/observe"
)

// The vocabulary of observation (Observer, Work, WorkKind, Observers, the
// traceparent of a delivery's context) is package observe's, a leaf; the
// kernel re-exports it and reports its work through it.

// Observer watches the engine's work (observe.Observer).
type Observer = observe.Observer

// WorkKind says what a unit of Work is (observe.WorkKind).
type WorkKind = observe.WorkKind

// The kinds of work (observe).
const (
	WorkRequest     = observe.WorkRequest
	WorkOperation   = observe.WorkOperation
	WorkTransaction = observe.WorkTransaction
	WorkHandOver    = observe.WorkHandOver
	WorkDelivery    = observe.WorkDelivery
	WorkDue         = observe.WorkDue
)

// Work is one unit of the engine's work as an Observer sees it
// (observe.Work).
type Work = observe.Work

// OutcomeOK is the outcome of operations and requests that succeeded.
const OutcomeOK = observe.OutcomeOK

// Observers returns an Observer that passes everything to each of obs in
// turn (observe.Observers).
func Observers(obs ...Observer) Observer { return observe.Observers(obs...) }

// TraceParentFrom returns the W3C traceparent a Notifier sends with the
// event it is given ctx for (observe.TraceParentFrom).
func TraceParentFrom(ctx context.Context) string { return observe.TraceParentFrom(ctx) }

// WithTraceParent returns ctx carrying traceparent for TraceParentFrom
// (observe.WithTraceParent).
func WithTraceParent(ctx context.Context, traceparent string) context.Context {
	return observe.WithTraceParent(ctx, traceparent)
}

// Observer returns the engine's Observer, nil when it has none.
func (e *Handle) Observer() Observer { return e.obs }

// Span is an operation in progress, begun with Begin; the zero Span, all
// there is without an Observer, does nothing.
type Span struct{ s *span }

// span is an observed unit of work: its Observer, the context Start
// returned and the Work; for a transaction, the traceparent of its
// context once read (traceParent).
type span struct {
	obs    Observer
	ctx    context.Context
	w      Work
	traced bool
	trace  string
}

// operationKey marks a context inside an observed operation, so that an
// operation run from inside another is part of it (WorkOperation).
type operationKey struct{}

// Begin starts the operation name of area: every group method of the
// facade begins with it and defers the Span's End with its error,
//
//	func (qs Service) Create(ctx context.Context, req Request) (_ *Quote, err error) {
//		ctx, op := qs.e.Begin(ctx, "quotes", "Create")
//		defer op.End(&err)
//
// and runs in the context it returns. Without an Observer it returns ctx
// and the zero Span, at the cost of a nil check.
func (e *Handle) Begin(ctx context.Context, area, name string) (context.Context, Span) {
	if e.obs == nil {
		return ctx, Span{}
	}
	return e.beginOperation(ctx, area, name)
}

// beginOperation is Begin with an Observer.
func (e *Handle) beginOperation(ctx context.Context, area, name string) (context.Context, Span) {
	if ctx.Value(operationKey{}) != nil {
		return ctx, Span{} // part of the operation that runs it
	}
	ctx, s := e.startWork(ctx, Work{Kind: WorkOperation, Area: area, Name: name})
	return context.WithValue(ctx, operationKey{}, true), Span{s}
}

// End ends the operation with the error *errp it returns (nil for
// success), its Outcome the error's code.
func (s Span) End(errp *error) {
	if s.s != nil {
		s.s.endOperation(*errp)
	}
}

// endOperation ends an operation with err.
func (s *span) endOperation(err error) {
	outcome := OutcomeOK
	if err != nil {
		outcome = string(CodeOf(err))
	}
	s.end(outcome, err)
}

// startWork starts w on e.obs, which is not nil.
func (e *Handle) startWork(ctx context.Context, w Work) (context.Context, *span) {
	w.Began = time.Now()
	ctx = e.obs.Start(ctx, w)
	return ctx, &span{obs: e.obs, ctx: ctx, w: w}
}

// end completes the work with outcome and err and tells the Observer.
func (s *span) end(outcome string, err error) {
	if s.w.Took == 0 {
		s.w.Took = time.Since(s.w.Began)
	}
	s.w.Outcome, s.w.Err = outcome, err
	s.obs.End(s.ctx, s.w)
}

// txnOutcome is the Outcome of a transaction that returned err, refused
// reporting that its function returned an error on its last run (errors
// are not compared: some error types are not comparable).
func txnOutcome(err error, refused bool) string {
	switch {
	case err == nil:
		return "commit"
	case errors.Is(err, ErrConflict):
		return "conflict"
	case refused:
		return "rollback"
	}
	return "error"
}

// txnSpan is the span of the transaction a Txn runs in, kept in the
// transaction's own state (Local) and only with an Observer: without one
// a Txn is no larger.
var txnSpan Local[*span]

// traceParent returns the traceparent of the span t's transaction runs in,
// "" without an Observer or a span: what Emit stores with an event, so
// that its delivery continues the trace. It is read once per transaction.
func (t *Txn) traceParent() string {
	if t.Handle.obs == nil {
		return ""
	}
	sp, ok := txnSpan.Value(t)
	if !ok {
		return ""
	}
	if !sp.traced {
		sp.trace, sp.traced = t.Handle.obs.TraceParent(sp.ctx), true
	}
	return sp.trace
}
