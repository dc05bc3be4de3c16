package httpapi

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi/requestlog"
)

// RequestIDHeader carries the id of every request on its response (and
// names it in the request log). A request that brings a well-formed one
// (1 to 128 letters, digits, '.', '_', ':' or '-') keeps it; any other gets
// a new one. It is not the reference's Request-Id, which echoes a
// signature challenge.
const RequestIDHeader = requestlog.Header

// TraceParentHeader is the W3C trace context header: a request that
// carries one continues its trace when the engine has a tracing Observer.
const TraceParentHeader = "traceparent"

// observe sets the request id header on w and returns the writer to serve
// with, the request to serve (its context carries the id: RequestIDFrom)
// and the function that logs the exchange once served: one line per
// request at Info (Error for 5xx) with method, path, status, duration_ms
// (the time it took to serve, in milliseconds, fractional), request id and
// idempotency key. With an engine Observer the request is
// a unit of work (payments.WorkRequest: its route's pattern, status and
// code), continuing the trace of its traceparent header; the operations
// it runs nest in it.
func (h *Handler) observe(w http.ResponseWriter, r *http.Request) (*requestlog.StatusWriter, *http.Request, func()) {
	x := &requestlog.Exchange{ID: requestlog.ID(r)}
	w.Header().Set(RequestIDHeader, x.ID)
	ctx := requestlog.WithExchange(r.Context(), x)
	began := time.Now()
	var work *payments.Work // only with an Observer: nothing more to allocate without
	if h.obs != nil {
		work = &payments.Work{Kind: payments.WorkRequest, Area: "http", ID: x.ID, Parent: r.Header.Get(TraceParentHeader), Began: began}
		ctx = h.obs.Start(ctx, *work)
	}
	r = r.WithContext(ctx)
	sw := &requestlog.StatusWriter{ResponseWriter: w}
	return sw, r, func() {
		took, code := time.Since(began), ""
		if work != nil || h.requests != nil {
			code = sw.Code()
		}
		if work != nil {
			work.Name, work.Status, work.Took, work.Outcome = x.Route, sw.Status(), took, cmp.Or(code, payments.OutcomeOK)
			h.obs.End(ctx, *work)
		}
		if h.requests != nil {
			h.requests.Add(LoggedRequest{Time: began.UTC(), Method: r.Method, Path: requestlog.MaskPath(r.URL.Path), Status: sw.Status(),
				Code: code, DurationMs: float64(took.Microseconds()) / 1000, RequestID: x.ID,
				IdempotencyKey: r.Header.Get("Idempotency-Key"), ClientID: x.ClientID})
		}
		level := slog.LevelInfo
		if sw.Status() >= 500 {
			level = slog.LevelError
		}
		if !h.cfg.Logger.Enabled(r.Context(), level) {
			return
		}
		// The request id comes from the context (LogHandler).
		attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", requestlog.MaskPath(r.URL.Path)),
			slog.Int("status", sw.Status()), slog.Float64("duration_ms", float64(took)/float64(time.Millisecond))}
		if key := r.Header.Get("Idempotency-Key"); key != "" {
			attrs = append(attrs, slog.String("idempotency_key", key))
		}
		// The record is made here, without the caller's program counter
		// that Logger.LogAttrs captures for a source no one asked for
		// (runtime.Callers was a fifth of the line's cost).
		rec := slog.NewRecord(time.Now(), level, "request", 0)
		rec.AddAttrs(attrs...)
		_ = h.cfg.Logger.Handler().Handle(r.Context(), rec)
	}
}

// RequestIDFrom returns the id of the request the API handler serves with
// ctx (or a context derived from it), "" for any other context.
func RequestIDFrom(ctx context.Context) string { return requestlog.IDFrom(ctx) }

// LogHandler returns a slog handler that writes through next and adds
// request_id to every record logged with the context of a request the API
// serves (RequestIDFrom), so that the lines of one request, the engine's
// included, can be told apart. The handler wraps Config.Logger itself; a
// server gives its engine (payments.Config.Logger) a logger on it too:
//
//	logger := slog.New(httpapi.LogHandler(slog.NewJSONHandler(os.Stderr, nil)))
func LogHandler(next slog.Handler) slog.Handler { return requestlog.LogHandler(next) }
