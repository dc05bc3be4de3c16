// Package oteltrace traces a payments engine with OpenTelemetry: Tracer is
// a payments.Observer (set it as payments.Config.Observer, beside
// prommetrics' with payments.Observers) that makes a span of each unit of
// work the engine reports, and LogHandler adds the trace and span ids to
// every log line written in a traced context. It is the engine's adapter to
// go.opentelemetry.io/otel, which neither the engine nor its HTTP API
// imports. The caller owns the TracerProvider: examples/server exports
// over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set.
//
//	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
//	defer tp.Shutdown(ctx)
//	eng, err := payments.New(payments.Config{Store: store, Observer: oteltrace.New(tp)})
//	logger := slog.New(httpapi.LogHandler(oteltrace.LogHandler(slog.NewJSONHandler(os.Stderr, nil))))
//
// # The span tree
//
// An API request (package httpapi) is a server span named by its route
// ("POST /quotes"), continuing the trace of its traceparent header. The
// operations it runs are spans inside it ("quotes.Create"), and so are
// their store transactions ("store.read", "store.write"; a transaction
// outside any trace, such as a worker's scan, makes no span) and, after
// the commit, the hand-overs of what they intended ("handover send": a
// payment given to the rail). An event the operation emitted keeps the
// traceparent of its transaction, so its delivery ("webhook
// OUTGOING_PAYMENT.COMPLETED"), later and in any process, is a client span
// in that same trace, and the webhook request carries the delivery's
// traceparent to the receiver. A due item ("due settlements_due") begins a
// trace of its own.
//
// Spans carry payments.* attributes (the area, operation and code of an
// operation, a request's id, an event's id and attempt, a transaction's
// runs, an outcome) and the standard http.* ones of a request. A span's
// status is Error for a server error (a 5xx code, a store error, a failed
// hand-over, a delivery that failed), not for a client's error, which is
// the operation's answer.
package oteltrace

import (
	"context"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/paygrid/payments"
)

// ScopeName names the instrumentation scope of the spans.
const ScopeName = "github.com/paygrid/payments"

// Tracer is a payments.Observer that makes OpenTelemetry spans of the
// engine's work. It is safe for concurrent use.
type Tracer struct {
	tracer trace.Tracer
}

var _ payments.Observer = (*Tracer)(nil)

// New returns a Tracer that starts its spans with tp's tracer.
func New(tp trace.TracerProvider) *Tracer {
	return &Tracer{tracer: tp.Tracer(ScopeName)}
}

// Start starts w's span in ctx: a child of w.Parent when it holds a valid
// traceparent (linked to the span ctx carries, if any), else of ctx's span.
// A store transaction outside any trace makes no span.
func (t *Tracer) Start(ctx context.Context, w payments.Work) context.Context {
	local := trace.SpanContextFromContext(ctx)
	opts := []trace.SpanStartOption{trace.WithTimestamp(w.Began), trace.WithSpanKind(kindOf(w.Kind))}
	if w.Parent != "" {
		if remote := parse(w.Parent); remote.IsValid() {
			ctx = trace.ContextWithRemoteSpanContext(ctx, remote)
			if local.IsValid() {
				opts = append(opts, trace.WithLinks(trace.Link{SpanContext: local}))
			}
		}
	} else if w.Kind == payments.WorkTransaction && !local.IsValid() {
		return ctx
	}
	ctx, _ = t.tracer.Start(ctx, spanName(w), opts...)
	return ctx
}

// End ends the span of w that ctx carries, at w.Began+w.Took, with w's
// outcome.
func (t *Tracer) End(ctx context.Context, w payments.Work) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	attrs := []attribute.KeyValue{attribute.String("payments.outcome", w.Outcome)}
	failed := false
	switch w.Kind {
	case payments.WorkRequest:
		method, route, _ := strings.Cut(w.Name, " ")
		if w.Name == "" {
			route = ""
		} else {
			span.SetName(w.Name)
		}
		attrs = append(attrs, attribute.String("http.request.method", method), attribute.String("http.route", route),
			attribute.Int("http.response.status_code", w.Status), attribute.String("payments.request_id", w.ID))
		failed = w.Status >= 500
	case payments.WorkOperation:
		attrs = append(attrs, attribute.String("payments.area", w.Area), attribute.String("payments.operation", w.Name),
			attribute.String("payments.code", w.Outcome))
		failed = w.Err != nil && payments.CodeOf(w.Err).Status() >= 500
	case payments.WorkTransaction:
		attrs = append(attrs, attribute.Int("payments.transaction.runs", w.Runs))
		failed = w.Outcome == "error" || w.Outcome == "conflict"
	case payments.WorkHandOver:
		attrs = append(attrs, attribute.String("payments.intent.id", w.ID))
		failed = w.Err != nil
	case payments.WorkDelivery:
		attrs = append(attrs, attribute.String("payments.event.id", w.ID), attribute.String("payments.event.type", w.Name),
			attribute.Int("payments.delivery.attempt", w.Attempt))
		failed = w.Err != nil
	case payments.WorkDue:
		attrs = append(attrs, attribute.String("payments.due.key", w.ID))
		failed = w.Err != nil
	}
	span.SetAttributes(attrs...)
	if failed {
		if w.Err != nil {
			span.RecordError(w.Err)
		}
		span.SetStatus(codes.Error, w.Outcome)
	}
	span.End(trace.WithTimestamp(w.Began.Add(w.Took)))
}

// TraceParent returns the W3C traceparent of the span ctx carries.
func (t *Tracer) TraceParent(ctx context.Context) string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return ""
	}
	return "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-" + sc.TraceFlags().String()
}

// spanName names w's span: the route of a request (renamed at its end,
// when the route is known), "area.Operation" of an operation, "store.read"
// and "store.write", "handover <kind>", "webhook <event type>",
// "due <table>".
func spanName(w payments.Work) string {
	switch w.Kind {
	case payments.WorkRequest:
		return "HTTP request"
	case payments.WorkOperation:
		return w.Area + "." + w.Name
	case payments.WorkTransaction:
		return "store." + w.Name
	case payments.WorkHandOver:
		return "handover " + w.Name
	case payments.WorkDelivery:
		return "webhook " + w.Name
	case payments.WorkDue:
		return "due " + w.Name
	}
	return w.Kind.String()
}

// kindOf is the span kind of work of kind k: a request is served, a
// hand-over and a delivery call out, the rest is internal.
func kindOf(k payments.WorkKind) trace.SpanKind {
	switch k {
	case payments.WorkRequest:
		return trace.SpanKindServer
	case payments.WorkHandOver, payments.WorkDelivery:
		return trace.SpanKindClient
	}
	return trace.SpanKindInternal
}

// parse reads a traceparent, the zero SpanContext when it is not valid.
func parse(traceparent string) trace.SpanContext {
	carrier := propagation.MapCarrier{"traceparent": traceparent}
	return trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(), carrier))
}
