package httpapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/paygrid/payments"
)

// RequestIDHeader carries the id of every request on its response (and
// names it in the request log). A request that brings a well-formed one
// (1 to 128 letters, digits, '.', '_', ':' or '-') keeps it; any other gets
// a new one. It is not the reference's Request-Id, which echoes a
// signature challenge.
const RequestIDHeader = "X-Request-Id"

// requestID returns the id of r: its own when well-formed, else a new one.
func requestID(r *http.Request) string {
	if id := r.Header.Get(RequestIDHeader); wellFormedID(id) {
		return id
	}
	return uuid.NewString()
}

// wellFormedID reports whether id may be echoed in a header and a log.
func wellFormedID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// statusWriter remembers the status a handler wrote and, of an error
// answer, the start of its body (where its code is).
type statusWriter struct {
	http.ResponseWriter
	status int
	head   []byte // the first bytes of an error body
}

// headSize is how much of an error body statusWriter keeps: the error body
// begins {"status":...,"code":"...".
const headSize = 256

// WriteHeader records the first status written and passes it on.
func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write passes b on, keeping the head of an error body; a Write without
// WriteHeader is a 200, as net/http makes it.
func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status >= 400 && len(w.head) < headSize {
		w.head = append(w.head, b[:min(len(b), headSize-len(w.head))]...)
	}
	return w.ResponseWriter.Write(b)
}

// code returns the code of the error body written, "" when none. The
// error body names its code before any longer member (errorBody), so the
// kept head holds it.
func (w *statusWriter) code() string {
	if len(w.head) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(w.head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			return ""
		}
		if key == "code" {
			var code string
			_ = json.Unmarshal(v, &code)
			return code
		}
	}
	return ""
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe sets the request id header on w and returns the writer to serve
// with, the request to serve (its context carries the id: RequestIDFrom)
// and the function that logs the exchange once served: one line per
// request at Info (Error for 5xx) with method, path, status, duration_ms
// (the time it took to serve, in milliseconds, fractional), request id and
// idempotency key. With an engine Observer the request is
// a unit of work (payments.WorkRequest: its route's pattern, status and
// code), continuing the trace of its traceparent header; the operations
// it runs nest in it.
func (h *Handler) observe(w http.ResponseWriter, r *http.Request) (*statusWriter, *http.Request, func()) {
	x := &exchange{id: requestID(r)}
	w.Header().Set(RequestIDHeader, x.id)
	ctx := context.WithValue(r.Context(), exchangeKey{}, x)
	began := time.Now()
	var work *payments.Work // only with an Observer: nothing more to allocate without
	if h.obs != nil {
		work = &payments.Work{Kind: payments.WorkRequest, Area: "http", ID: x.id, Parent: r.Header.Get(TraceParentHeader), Began: began}
		ctx = h.obs.Start(ctx, *work)
	}
	r = r.WithContext(ctx)
	sw := &statusWriter{ResponseWriter: w}
	return sw, r, func() {
		took, code := time.Since(began), ""
		if work != nil || h.requests != nil {
			code = sw.code()
		}
		if work != nil {
			work.Name, work.Status, work.Took, work.Outcome = x.route, sw.status, took, cmp.Or(code, payments.OutcomeOK)
			h.obs.End(ctx, *work)
		}
		if h.requests != nil {
			h.requests.add(LoggedRequest{Time: began.UTC(), Method: r.Method, Path: maskPath(r.URL.Path), Status: sw.status,
				Code: code, DurationMs: float64(took.Microseconds()) / 1000, RequestID: x.id,
				IdempotencyKey: r.Header.Get("Idempotency-Key"), ClientID: x.clientID})
		}
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		if !h.cfg.Logger.Enabled(r.Context(), level) {
			return
		}
		// The request id comes from the context (LogHandler).
		attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", maskPath(r.URL.Path)),
			slog.Int("status", sw.status), slog.Float64("duration_ms", float64(took)/float64(time.Millisecond))}
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

// exchange is what a request's context carries about it: its id, the
// client id of the token it authenticated with (set once known) and the
// route that serves it ("METHOD path", "" for none).
type exchange struct {
	id       string
	clientID string
	route    string
}

// TraceParentHeader is the W3C trace context header: a request that
// carries one continues its trace when the engine has a tracing Observer.
const TraceParentHeader = "traceparent"

// exchangeKey keys the exchange in a request's context.
type exchangeKey struct{}

// exchangeOf returns the exchange of the request ctx serves, or nil.
func exchangeOf(ctx context.Context) *exchange {
	x, _ := ctx.Value(exchangeKey{}).(*exchange)
	return x
}

// RequestIDFrom returns the id of the request the API handler serves with
// ctx (or a context derived from it), "" for any other context.
func RequestIDFrom(ctx context.Context) string {
	if x := exchangeOf(ctx); x != nil {
		return x.id
	}
	return ""
}

// LogHandler returns a slog handler that writes through next and adds
// request_id to every record logged with the context of a request the API
// serves (RequestIDFrom), so that the lines of one request, the engine's
// included, can be told apart. The handler wraps Config.Logger itself; a
// server gives its engine (payments.Config.Logger) a logger on it too:
//
//	logger := slog.New(httpapi.LogHandler(slog.NewJSONHandler(os.Stderr, nil)))
func LogHandler(next slog.Handler) slog.Handler {
	if h, ok := next.(requestIDHandler); ok {
		return h
	}
	return requestIDHandler{next}
}

// requestIDHandler is LogHandler's handler.
type requestIDHandler struct{ slog.Handler }

// Handle adds the request id of ctx, if any, to rec.
func (h requestIDHandler) Handle(ctx context.Context, rec slog.Record) error {
	if id := RequestIDFrom(ctx); id != "" {
		rec.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, rec)
}

// WithAttrs keeps adding request ids to the new handler's records.
func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup keeps adding request ids to the new handler's records.
func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
