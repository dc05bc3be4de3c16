package httpapi

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"
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

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe sets the request id header on w and returns the writer to serve
// with and the function that logs the exchange once served: one line per
// request at Info (Error for 5xx) with method, path, status, duration,
// request id and idempotency key.
func (h *Handler) observe(w http.ResponseWriter, r *http.Request) (*statusWriter, func()) {
	id := requestID(r)
	w.Header().Set(RequestIDHeader, id)
	sw := &statusWriter{ResponseWriter: w}
	began := time.Now()
	return sw, func() {
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		if !h.cfg.Logger.Enabled(r.Context(), level) {
			return
		}
		attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Duration("duration", time.Since(began)), slog.String("request_id", id)}
		if key := r.Header.Get("Idempotency-Key"); key != "" {
			attrs = append(attrs, slog.String("idempotency_key", key))
		}
		h.cfg.Logger.LogAttrs(r.Context(), level, "request", attrs...)
	}
}
