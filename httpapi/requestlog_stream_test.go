package httpapi_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/internal/wirecheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logGet GETs path off the wire check (the request log is ours) with the
// admin credential and decodes the answer.
func logGet(t *testing.T, s *server, path string) response {
	t.Helper()
	status, raw := getUnchecked(t, s.http, s.cred, path)
	out := response{Status: status, Raw: raw, Header: http.Header{"Content-Type": {"application/json"}}}
	require.NoError(t, json.Unmarshal(raw, &out.Body), "%s", raw)
	return out
}

// logPaths lists the paths of a request log answer, newest first.
func logPaths(t *testing.T, r response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	var page struct{ Data []httpapi.LoggedRequest }
	require.NoError(t, json.Unmarshal(r.Raw, &page))
	out := []string{}
	for _, q := range page.Data {
		out = append(out, q.Method+" "+strings.TrimPrefix(q.Path, base)+" "+http.StatusText(q.Status))
	}
	return out
}

// TestSandboxRequests_Filters: GET /sandbox/requests takes method, status
// (a code or a class), path (a prefix, with or without the base path) and
// requestId, each narrowing the list; unknown and malformed parameters are
// 400 INVALID_INPUT naming each.
func TestSandboxRequests_Filters(t *testing.T) {
	s := newServer(t)
	s.do("GET", "/config", nil, httpapi.RequestIDHeader, "first-1")
	s.do("GET", "/customers/Customer:nope", nil)
	s.do("POST", "/customers", `{"customerType":"NOPE"}`)
	s.do("GET", "/customers", nil)

	assert.Equal(t, []string{"GET /customers OK", "GET /customers/Customer:nope Not Found"},
		logPaths(t, logGet(t, s, "/sandbox/requests?method=get&path=/customers")))
	assert.Equal(t, []string{"GET /customers/Customer:nope Not Found"}, logPaths(t, logGet(t, s, "/sandbox/requests?status=404")))
	assert.Equal(t, []string{"POST /customers Bad Request", "GET /customers/Customer:nope Not Found"},
		logPaths(t, logGet(t, s, "/sandbox/requests?status=4xx")))
	assert.Equal(t, []string{"POST /customers Bad Request"}, logPaths(t, logGet(t, s, "/sandbox/requests?status=4XX&method=POST")))
	assert.Equal(t, []string{"GET /config OK"}, logPaths(t, logGet(t, s, "/sandbox/requests?requestId=first-1")))
	assert.Equal(t, []string{"GET /config OK"}, logPaths(t, logGet(t, s, "/sandbox/requests?path="+base+"/con")), "with the base path")
	assert.Equal(t, []string{}, logPaths(t, logGet(t, s, "/sandbox/requests?status=5xx")))
	assert.Len(t, logPaths(t, logGet(t, s, "/sandbox/requests?status=2xx&limit=2")), 2)

	for query, fields := range map[string][]string{
		"?sort=asc":                        {"sort"},
		"?method=FETCH":                    {"method"},
		"?status=44":                       {"status"},
		"?status=600":                      {"status"},
		"?status=4x":                       {"status"},
		"?path=customers":                  {"path"},
		"?requestId=a%20b":                 {"requestId"},
		"?limit=0&status=abc&extra=1&x=2":  {"limit", "status", "extra", "x"},
		"?method=GET&status=200&limit=abc": {"limit"},
	} {
		requireError(t, logGet(t, s, "/sandbox/requests"+query), 400, payments.CodeInvalidInput, fields...)
	}
}

// sseEvent is one server-sent event: its type, id and data.
type sseEvent struct{ typ, id, data string }

// readEvents reads the events of an event stream to ch until it ends.
func readEvents(body io.Reader, ch chan<- sseEvent) {
	defer close(ch)
	sc := bufio.NewScanner(body)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.typ != "" || ev.data != "" {
				ch <- ev
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			ev.typ = line[len("event: "):]
		case strings.HasPrefix(line, "id: "):
			ev.id = line[len("id: "):]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[len("data: "):]
		}
	}
}

// follow opens the request log's stream at path with the admin credential.
func follow(t *testing.T, s *server, path string, headers ...string) (*http.Response, chan sseEvent) {
	t.Helper()
	req, err := http.NewRequest("GET", s.http.URL+base+path, nil)
	require.NoError(t, err)
	id, secret := basic(s.cred)
	req.SetBasicAuth(id, secret)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(wirecheck.Skip(req))
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	ch := make(chan sseEvent, 16)
	if res.StatusCode == 200 {
		go readEvents(res.Body, ch)
	}
	return res, ch
}

// next returns the next event of ch, failing after a few seconds.
func next(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		require.True(t, ok, "the stream ended")
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	return sseEvent{}
}

// TestSandboxRequests_Stream: the request log followed as server-sent
// events, at /sandbox/requests/stream or with Accept: text/event-stream,
// with the list's filters: a request answered after the client connected
// arrives as an event "request"; one the filters exclude does not; bad
// filters are refused before the stream opens; the stream ends when the
// handler closes (Handler.Close, as a server shuts down).
func TestSandboxRequests_Stream(t *testing.T) {
	s := newServer(t)
	s.do("GET", "/customers/Customer:before", nil)

	res, all := follow(t, s, "/sandbox/requests/stream")
	require.Equal(t, 200, res.StatusCode)
	assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	_, notFound := follow(t, s, "/sandbox/requests?status=4xx&method=GET", "Accept", "text/event-stream")

	s.do("GET", "/config", nil, httpapi.RequestIDHeader, "after-1")
	s.do("GET", "/customers/Customer:after", nil)

	ev := next(t, all)
	assert.Equal(t, "request", ev.typ)
	assert.NotEmpty(t, ev.id)
	var got httpapi.LoggedRequest
	require.NoError(t, json.Unmarshal([]byte(ev.data), &got))
	assert.Equal(t, base+"/config", got.Path, "the request made before connecting is not sent")
	assert.Equal(t, "after-1", got.RequestID)
	assert.Equal(t, 200, got.Status)
	ev2 := next(t, all)
	require.NoError(t, json.Unmarshal([]byte(ev2.data), &got))
	assert.Equal(t, base+"/customers/Customer:after", got.Path)
	assert.NotEqual(t, ev.id, ev2.id)

	ev = next(t, notFound)
	require.NoError(t, json.Unmarshal([]byte(ev.data), &got))
	assert.Equal(t, base+"/customers/Customer:after", got.Path, "the filters apply: GET /config is not a 4xx")
	assert.Equal(t, 404, got.Status)

	for _, path := range []string{"/sandbox/requests/stream?status=abc", "/sandbox/requests/stream?limit=5"} {
		res, _ := follow(t, s, path)
		raw, _ := io.ReadAll(res.Body)
		assert.Equal(t, 400, res.StatusCode, "%s: %s", path, raw)
		assert.Contains(t, string(raw), "INVALID_INPUT")
	}
	viewer := s.token(payments.PermView)
	req, _ := http.NewRequest("GET", s.http.URL+base+"/sandbox/requests/stream", nil)
	id, secret := basic(viewer)
	req.SetBasicAuth(id, secret)
	res, err := http.DefaultClient.Do(wirecheck.Skip(req))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 403, res.StatusCode, "MANAGE")

	t.Run("EndsOnClose", func(t *testing.T) {
		h := httpapi.New(s.eng, httpapi.Config{BasePath: base})
		srv := httptest.NewServer(h)
		srv.Config.RegisterOnShutdown(h.Close)
		defer srv.Close()
		req, _ := http.NewRequest("GET", srv.URL+base+"/sandbox/requests/stream", nil)
		id, secret := basic(s.cred)
		req.SetBasicAuth(id, secret)
		res, err := http.DefaultClient.Do(wirecheck.Skip(req))
		require.NoError(t, err)
		defer res.Body.Close()
		ch := make(chan sseEvent, 4)
		go readEvents(res.Body, ch)
		h.Close()
		select {
		case _, ok := <-ch:
			assert.False(t, ok, "no event, the stream ends")
		case <-time.After(5 * time.Second):
			t.Fatal("the stream did not end")
		}
	})

	t.Run("RequestStreamHandler", func(t *testing.T) {
		h := httpapi.New(s.eng, httpapi.Config{BasePath: base})
		mounted := httptest.NewServer(h.RequestStream())
		defer mounted.Close()
		res, err := http.Get(mounted.URL + "?path=/customers&method=DELETE")
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, 200, res.StatusCode)
		res, err = http.Get(mounted.URL + "?method=NOPE")
		require.NoError(t, err)
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, 400, res.StatusCode)
		assert.Contains(t, string(raw), `"field":"method"`)
	})
}
