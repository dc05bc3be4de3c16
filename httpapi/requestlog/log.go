package requestlog

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Request is one API request of the request log: when it came, what it
// asked, how it was answered and who asked. It holds no secret and no
// body: the client id names the API token (an agent's id, on agent
// routes), never its secret.
type Request struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	// Path is the request's path, an agent's device code in it masked
	// (/agents/device-codes/****/redeem: MaskPath).
	Path           string  `json:"path"`
	Status         int     `json:"status"`
	Code           string  `json:"code,omitempty"` // the error body's code
	DurationMs     float64 `json:"durationMs"`
	RequestID      string  `json:"requestId"`
	IdempotencyKey string  `json:"idempotencyKey,omitempty"`
	ClientID       string  `json:"clientId,omitempty"`
}

// Log keeps the latest requests, a fixed number of them, and hands each
// new one to the streams following it. It is safe for concurrent use.
type Log struct {
	mu   sync.Mutex
	buf  []Request
	next int // where the next request goes
	full bool
	seq  uint64               // requests added so far: the id of the last one
	subs map[*stream]struct{} // the streams following the log
}

// New returns a log that keeps the latest size requests (size > 0).
func New(size int) *Log {
	return &Log{buf: make([]Request, size), subs: map[*stream]struct{}{}}
}

// Add keeps r, forgetting the oldest request when the log is full, and
// offers it to every stream whose filter it matches.
func (g *Log) Add(r Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buf[g.next] = r
	g.next++
	if g.next == len(g.buf) {
		g.next, g.full = 0, true
	}
	g.seq++
	for s := range g.subs {
		if s.filter.Match(r) {
			s.offer(sequenced{g.seq, r})
		}
	}
}

// Latest returns up to limit requests that f matches, newest first.
func (g *Log) Latest(limit int, f Filter) []Request {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := g.next
	if g.full {
		n = len(g.buf)
	}
	out := make([]Request, 0, min(n, limit))
	for i := 1; i <= n && len(out) < limit; i++ {
		if r := g.buf[(g.next-i+len(g.buf))%len(g.buf)]; f.Match(r) {
			out = append(out, r)
		}
	}
	return out
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
	req Request
}

// stream is one client following the log.
type stream struct {
	filter  Filter
	ch      chan sequenced
	dropped atomic.Int64 // requests the full buffer could not take
}

// offer queues r without blocking, counting it dropped when the buffer is
// full: a slow client never holds up a request.
func (s *stream) offer(r sequenced) {
	select {
	case s.ch <- r:
	default:
		s.dropped.Add(1)
	}
}

// follow subscribes s to the requests logged from now on; the returned
// function ends the subscription.
func (g *Log) follow(s *stream) func() {
	g.mu.Lock()
	g.subs[s] = struct{}{}
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		delete(g.subs, s)
		g.mu.Unlock()
	}
}

// Follow writes to w, as server-sent events, each request logged from now
// on that f matches, until r's client goes or done is closed: an event
// "request" whose id is its place in the log and whose data is the Request
// as JSON, passed through outgoing (the handler's brand), and an event
// "dropped" ({"dropped": n}) telling of requests a slow client missed. An
// idle stream sends a comment every 15 seconds.
func (g *Log) Follow(w http.ResponseWriter, r *http.Request, f Filter, done <-chan struct{}, outgoing func([]byte) []byte) {
	s := &stream{filter: f, ch: make(chan sequenced, streamBuffer)}
	defer g.follow(s)()
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
		case <-r.Context().Done():
			return
		case <-done:
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
			buf = append(buf, outgoing(data)...)
			buf = append(buf, "\n\n"...)
			if !send(buf) {
				return
			}
		}
	}
}
