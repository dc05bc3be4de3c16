package httpapi

import (
	"net/http"
	"strings"
	"sync"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi/requestlog"
)

// LoggedRequest is one API request of the request log (Handler.Requests,
// GET /sandbox/requests): when it came, what it asked, how it was answered
// and who asked. It holds no secret and no body: the client id names the
// API token (an agent's id, on agent routes), never its secret.
type LoggedRequest = requestlog.Request

// Requests returns up to limit of the latest requests the handler served,
// newest first (as many as Config.RequestLogSize keeps; none when it is
// negative). A request is listed once it was answered.
func (h *Handler) Requests(limit int) []LoggedRequest {
	if h.requests == nil || limit <= 0 {
		return []LoggedRequest{}
	}
	return h.requests.Latest(limit, requestlog.Filter{})
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

// requestFilters reads the request log's filters from q
// (requestlog.ParseFilter: method, status, path, requestId), refusing any
// other parameter but those named in also.
func requestFilters(q *query, also ...string) requestlog.Filter {
	return requestlog.ParseFilter(q.r.URL.Query(), q.r.h.cfg.BasePath, &q.fe, also...)
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
	return ok(http.StatusOK, requestsAnswer{Data: r.h.requests.Latest(limit, f)})
}

// streamRequests is GET /sandbox/requests/stream (or GET /sandbox/requests
// with Accept: text/event-stream): the requests answered from now on that
// match the list's filters, as server-sent events, until the client goes
// or the handler closes.
func streamRequests(w http.ResponseWriter, r *request) {
	if err := sandboxOnly(r); err != nil {
		r.h.writeError(w, err)
		return
	}
	q := r.query()
	f := requestFilters(q)
	if err := q.err(); err != nil {
		r.h.writeError(w, err)
		return
	}
	r.h.followRequests(w, r.Request, f)
}

// RequestStream returns the request log's stream of server-sent events as
// a handler with no authentication of its own, for a caller that mounts it
// behind its own (the dashboard does): each request answered from then on
// that matches the filters of GET /sandbox/requests in its query is an
// event "request" whose id is its place in the log and whose data is the
// LoggedRequest as JSON; an event "dropped" ({"dropped": n}) tells of
// requests a slow client missed. Bad filters are 400 INVALID_INPUT.
func (h *Handler) RequestStream() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, hr *http.Request) {
		q := (&request{Request: hr, eng: h.eng, h: h}).query()
		f := requestFilters(q)
		if err := q.err(); err != nil {
			h.writeError(w, err)
			return
		}
		h.followRequests(w, hr, f)
	})
}

// followRequests writes the stream of the requests f matches to w, in the
// handler's brand, until Close.
func (h *Handler) followRequests(w http.ResponseWriter, hr *http.Request, f requestlog.Filter) {
	if h.requests == nil {
		h.writeError(w, payments.Errorf(payments.CodeNotFound, "this server keeps no request log"))
		return
	}
	h.requests.Follow(w, hr, f, h.closing.ch, h.brand.Outgoing)
}

// closing is what Handler.Close closes: the streams end when it is.
type closing struct {
	once sync.Once
	ch   chan struct{}
}

// Close ends every stream the handler serves (the request log's, GET
// /sandbox/requests/stream), and any opened later at once, so that an
// http.Server's Shutdown, which waits for requests to finish, is not held
// by them: register it with http.Server.RegisterOnShutdown. Every other
// request is served as before.
func (h *Handler) Close() {
	h.closing.once.Do(func() { close(h.closing.ch) })
}

// acceptsEventStream reports whether r asks for server-sent events.
func acceptsEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}
