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

// requestRing keeps the latest requests, a fixed number of them, and hands
// each new one to the streams following the log.
type requestRing struct {
	mu   sync.Mutex
	buf  []LoggedRequest
	next int // where the next request goes
	full bool
	seq  uint64                      // requests added so far: the id of the last one
	subs map[*requestStream]struct{} // the streams following the log
}

// newRequestRing returns a ring that keeps the latest size requests.
func newRequestRing(size int) *requestRing {
	return &requestRing{buf: make([]LoggedRequest, size), subs: map[*requestStream]struct{}{}}
}

// add keeps r, forgetting the oldest request when the ring is full, and
// offers it to every stream whose filter it matches.
func (g *requestRing) add(r LoggedRequest) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buf[g.next] = r
	g.next++
	if g.next == len(g.buf) {
		g.next, g.full = 0, true
	}
	g.seq++
	for s := range g.subs {
		if s.filter.match(r) {
			s.offer(sequenced{g.seq, r})
		}
	}
}

// latest returns up to limit requests that f matches, newest first.
func (g *requestRing) latest(limit int, f requestFilter) []LoggedRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := g.next
	if g.full {
		n = len(g.buf)
	}
	out := make([]LoggedRequest, 0, min(n, limit))
	for i := 1; i <= n && len(out) < limit; i++ {
		if r := g.buf[(g.next-i+len(g.buf))%len(g.buf)]; f.match(r) {
			out = append(out, r)
		}
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
	return h.requests.latest(limit, requestFilter{})
}

// sandboxRequestRoutes are ours, not in the reference: the request log,
// in sandbox mode only, as a list and as a stream of server-sent events
// (the list's path with Accept: text/event-stream, or its /stream). It
// shows every client's requests, so it takes MANAGE.
func sandboxRequestRoutes() []route {
	return []route{
		{method: "GET", path: "/sandbox/requests", perm: manage, fn: listRequests, events: streamRequests},
		{method: "GET", path: "/sandbox/requests/stream", perm: manage, events: streamRequests},
	}
}

// requestsAnswer is the answer of GET /sandbox/requests.
type requestsAnswer struct {
	Data []LoggedRequest `json:"data"`
}

// listRequests is GET /sandbox/requests: the latest requests that match
// the filters (requestFilters), newest first, limit of them (1 to 1000,
// 100 by default).
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
	f := requestFilters(q, "limit")
	if err := q.err(); err != nil {
		return fail(err)
	}
	if r.h.requests == nil {
		return ok(http.StatusOK, requestsAnswer{Data: []LoggedRequest{}})
	}
	return ok(http.StatusOK, requestsAnswer{Data: r.h.requests.latest(limit, f)})
}
