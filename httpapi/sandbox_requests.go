package httpapi

import (
	"net/http"
	"sync"
	"time"
)

// LoggedRequest is one API request of the request log (Handler.Requests,
// GET /sandbox/requests): when it came, what it asked, how it was answered
// and who asked. It holds no secret and no body: the client id names the
// API token (an agent's id, on agent routes), never its secret.
type LoggedRequest struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	// Path is the request's path, an agent's device code in it masked
	// (/agents/device-codes/****/redeem).
	Path           string  `json:"path"`
	Status         int     `json:"status"`
	Code           string  `json:"code,omitempty"` // the error body's code
	DurationMs     float64 `json:"durationMs"`
	RequestID      string  `json:"requestId"`
	IdempotencyKey string  `json:"idempotencyKey,omitempty"`
	ClientID       string  `json:"clientId,omitempty"`
}

// requestRing keeps the latest requests, a fixed number of them.
type requestRing struct {
	mu   sync.Mutex
	buf  []LoggedRequest
	next int // where the next request goes
	full bool
}

// newRequestRing returns a ring that keeps the latest size requests.
func newRequestRing(size int) *requestRing { return &requestRing{buf: make([]LoggedRequest, size)} }

// add keeps r, forgetting the oldest request when the ring is full.
func (g *requestRing) add(r LoggedRequest) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buf[g.next] = r
	g.next++
	if g.next == len(g.buf) {
		g.next, g.full = 0, true
	}
}

// latest returns up to limit requests, newest first.
func (g *requestRing) latest(limit int) []LoggedRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := g.next
	if g.full {
		n = len(g.buf)
	}
	out := make([]LoggedRequest, 0, min(n, limit))
	for i := 1; i <= n && len(out) < limit; i++ {
		out = append(out, g.buf[(g.next-i+len(g.buf))%len(g.buf)])
	}
	return out
}

// Requests returns up to limit of the latest requests the handler served,
// newest first (as many as Config.RequestLogSize keeps; none when it is
// negative). A request is listed once it was answered.
func (h *Handler) Requests(limit int) []LoggedRequest {
	if h.requests == nil || limit <= 0 {
		return []LoggedRequest{}
	}
	return h.requests.latest(limit)
}

// sandboxRequestRoutes are ours, not in the reference: the request log,
// in sandbox mode only. It shows every client's requests, so it takes
// MANAGE.
func sandboxRequestRoutes() []route {
	return []route{{method: "GET", path: "/sandbox/requests", perm: manage, fn: listRequests}}
}

// requestsAnswer is the answer of GET /sandbox/requests.
type requestsAnswer struct {
	Data []LoggedRequest `json:"data"`
}

// listRequests is GET /sandbox/requests: the latest requests, newest
// first, limit of them (1 to 1000, 100 by default).
func listRequests(r *request) (int, any, error) {
	if err := sandboxOnly(r); err != nil {
		return fail(err)
	}
	q := r.query()
	limit := 100
	if n, ok := q.int64("limit"); ok {
		if n < 1 || n > 1000 {
			q.fe.Add("limit", nil, "limit must be between 1 and 1000")
		}
		limit = int(n)
	}
	if err := q.err(); err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, requestsAnswer{Data: r.h.Requests(limit)})
}
