package httpapi

import (
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paygrid/payments"
)

// requestFilter picks requests of the log: every non-zero member must
// match. The list and the stream of GET /sandbox/requests read it from the
// same query parameters (requestFilters).
type requestFilter struct {
	method    string // exact, upper case
	status    int    // an exact status, or
	class     int    // a status class: 4 for 4xx
	path      string // a prefix of the path, with or without the base path
	base      string // the handler's base path
	requestID string // exact
}

// match reports whether r passes every filter f sets.
func (f requestFilter) match(r LoggedRequest) bool {
	switch {
	case f.method != "" && r.Method != f.method,
		f.status != 0 && r.Status != f.status,
		f.class != 0 && r.Status/100 != f.class,
		f.requestID != "" && r.RequestID != f.requestID:
		return false
	case f.path != "":
		return strings.HasPrefix(r.Path, f.path) || strings.HasPrefix(r.Path, f.base+f.path)
	}
	return true
}

// requestFilterParams are the filters of the request log, besides limit.
var requestFilterParams = []string{"method", "status", "path", "requestId"}

// logMethods are the methods the method filter takes.
var logMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// statusPattern is a status code (404) or class (4xx).
var statusPattern = regexp.MustCompile(`^[1-5]([0-9][0-9]|[xX][xX])$`)

// requestFilters reads the request log's filters from q: method (GET,
// POST, ...), status (a code such as 404 or a class such as 4xx), path (a
// prefix, with or without the base path) and requestId. Any other
// parameter but those named in also is refused, as is a malformed value,
// each an INVALID_INPUT field error naming the parameter.
func requestFilters(q *query, also ...string) requestFilter {
	f := requestFilter{base: q.r.h.cfg.BasePath}
	for _, name := range slices.Sorted(maps.Keys(q.r.URL.Query())) {
		if !slices.Contains(requestFilterParams, name) && !slices.Contains(also, name) {
			q.fe.Add(name, nil, "%s is not a parameter of the request log; it takes %s", name, strings.Join(append(append([]string(nil), requestFilterParams...), also...), ", "))
		}
	}
	if m := q.str("method"); m != "" {
		if q.fe.Enum("method", strings.ToUpper(m), logMethods...) {
			f.method = strings.ToUpper(m)
		}
	}
	if s := q.str("status"); s != "" {
		switch {
		case !statusPattern.MatchString(s):
			q.fe.Add("status", nil, "status must be a status code such as 404 or a class such as 4xx")
		case s[1] == 'x' || s[1] == 'X':
			f.class = int(s[0] - '0')
		default:
			f.status, _ = strconv.Atoi(s)
		}
	}
	if p := q.str("path"); p != "" {
		if !strings.HasPrefix(p, "/") || len(p) > 1000 {
			q.fe.Add("path", nil, "path must be a path prefix that starts with / (at most 1000 characters)")
		}
		f.path = p
	}
	if id := q.str("requestId"); id != "" {
		if !wellFormedID(id) {
			q.fe.Add("requestId", nil, "requestId must be 1 to 128 letters, digits, '.', '_', ':' or '-'")
		}
		f.requestID = id
	}
	return f
}

// streamBuffer is how many requests a stream holds for a client that has
// not read them yet; past it, requests are dropped for that client and it
// is told how many (the "dropped" event).
const streamBuffer = 256

// streamHeartbeat is how often an idle stream sends a comment, so that a
// client that went away is noticed and proxies keep the connection.
const streamHeartbeat = 15 * time.Second

// sequenced is a logged request with its place in the log (the event id).
type sequenced struct {
	seq uint64
	req LoggedRequest
}

// requestStream is one client following the log.
type requestStream struct {
	filter  requestFilter
	ch      chan sequenced
	dropped atomic.Int64 // requests the full buffer could not take
}

// offer queues r without blocking, counting it dropped when the buffer is
// full: a slow client never holds up a request.
func (s *requestStream) offer(r sequenced) {
	select {
	case s.ch <- r:
	default:
		s.dropped.Add(1)
	}
}

// follow subscribes s to the requests logged from now on; the returned
// function ends the subscription.
func (g *requestRing) follow(s *requestStream) func() {
	g.mu.Lock()
	g.subs[s] = struct{}{}
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		delete(g.subs, s)
		g.mu.Unlock()
	}
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

// followRequests writes the stream of the requests f matches to w.
func (h *Handler) followRequests(w http.ResponseWriter, hr *http.Request, f requestFilter) {
	if h.requests == nil {
		h.writeError(w, payments.Errorf(payments.CodeNotFound, "this server keeps no request log"))
		return
	}
	s := &requestStream{filter: f, ch: make(chan sequenced, streamBuffer)}
	defer h.requests.follow(s)()
	rc := http.NewResponseController(w)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(streamHeartbeat))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send([]byte(": following the request log\n\n")) {
		return
	}
	beat := time.NewTicker(streamHeartbeat)
	defer beat.Stop()
	var buf []byte
	for {
		select {
		case <-hr.Context().Done():
			return
		case <-h.closing.ch:
			return
		case <-beat.C:
			if !send([]byte(": keep-alive\n\n")) {
				return
			}
		case it := <-s.ch:
			buf = buf[:0]
			if n := s.dropped.Swap(0); n > 0 {
				buf = append(buf, "event: dropped\ndata: {\"dropped\":"...)
				buf = strconv.AppendInt(buf, n, 10)
				buf = append(buf, "}\n\n"...)
			}
			data, err := json.Marshal(it.req)
			if err != nil {
				continue
			}
			buf = append(buf, "id: "...)
			buf = strconv.AppendUint(buf, it.seq, 10)
			buf = append(buf, "\nevent: request\ndata: "...)
			buf = append(buf, h.brand.Outgoing(data)...)
			buf = append(buf, "\n\n"...)
			if !send(buf) {
				return
			}
		}
	}
}
