package oteltrace

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// LogHandler returns a slog handler that writes through next and adds
// trace_id and span_id to every record logged with a context that carries
// a span (an API request's, an operation's, a webhook delivery's), so that
// a log line leads to its trace. Put httpapi.LogHandler outside it, so the
// API does not wrap the handler again:
//
//	slog.New(httpapi.LogHandler(oteltrace.LogHandler(slog.NewJSONHandler(os.Stderr, nil))))
func LogHandler(next slog.Handler) slog.Handler {
	if h, ok := next.(traceHandler); ok {
		return h
	}
	return traceHandler{next}
}

// traceHandler is LogHandler's handler.
type traceHandler struct{ slog.Handler }

// Handle adds the trace and span ids of ctx's span, if any, to rec.
func (h traceHandler) Handle(ctx context.Context, rec slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		rec.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return h.Handler.Handle(ctx, rec)
}

// WithAttrs keeps adding trace ids to the new handler's records.
func (h traceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return traceHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup keeps adding trace ids to the new handler's records.
func (h traceHandler) WithGroup(name string) slog.Handler {
	return traceHandler{h.Handler.WithGroup(name)}
}
