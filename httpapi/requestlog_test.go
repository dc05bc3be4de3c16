package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a log destination safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// lines decodes the JSON log lines written so far.
func (s *syncBuffer) lines(t *testing.T) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		out = append(out, m)
	}
	return out
}

func TestRequestLogAndID(t *testing.T) {
	eng, err := payments.New(payments.Config{Store: memstore.New(), Sandbox: true})
	require.NoError(t, err)
	defer eng.Close()
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "a", Permissions: []payments.Permission{payments.PermManage}})
	require.NoError(t, err)
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base, Logger: logger}))
	defer srv.Close()

	send := func(method, path, reqID, key string) *http.Response {
		req, err := http.NewRequest(method, srv.URL+base+path, strings.NewReader(`{"name":"t","permissions":["VIEW"]}`))
		require.NoError(t, err)
		req.SetBasicAuth(tok.ClientID, tok.ClientSecret)
		req.Header.Set("Content-Type", "application/json")
		if reqID != "" {
			req.Header.Set(httpapi.RequestIDHeader, reqID)
		}
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		res, err := client(t).Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}

	res := send("POST", "/tokens", "trace-1.a:b_c", "key-7")
	assert.Equal(t, 201, res.StatusCode)
	assert.Equal(t, "trace-1.a:b_c", res.Header.Get(httpapi.RequestIDHeader), "a well-formed id is honoured")
	for _, bad := range []string{"", "has space", "a\u00e9", strings.Repeat("x", 129)} {
		res := send("GET", "/config", bad, "")
		assert.Regexp(t, `^[0-9a-f-]{36}$`, res.Header.Get(httpapi.RequestIDHeader), "%q gets a new id", bad)
	}
	res = send("GET", "/no-such-thing", "", "")
	assert.Equal(t, 404, res.StatusCode)
	assert.NotEmpty(t, res.Header.Get(httpapi.RequestIDHeader), "errors carry one too")

	lines := logs.lines(t)
	require.Len(t, lines, 6)
	first := lines[0]
	assert.Equal(t, "request", first["msg"])
	assert.Equal(t, "INFO", first["level"])
	assert.Equal(t, "POST", first["method"])
	assert.Equal(t, base+"/tokens", first["path"])
	assert.EqualValues(t, 201, first["status"])
	assert.Equal(t, "trace-1.a:b_c", first["request_id"])
	assert.Equal(t, "key-7", first["idempotency_key"])
	assert.Greater(t, first["duration_ms"], 0.0, "the time it took, in milliseconds")
	assert.Less(t, first["duration_ms"], 60_000.0, "milliseconds, not nanoseconds")
	assert.NotContains(t, first, "duration", "the unit is in the name")
	assert.NotContains(t, lines[1], "idempotency_key")
	assert.EqualValues(t, 404, lines[5]["status"])
}

// TestLogHandler_EngineLinesCarryTheRequestID: the lines the engine logs
// with a request's context, on a logger built with httpapi.LogHandler as
// a server builds it, carry the request's id, as the request line does;
// lines outside requests carry none.
func TestLogHandler_EngineLinesCarryTheRequestID(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(httpapi.LogHandler(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})))
	eng, err := payments.New(payments.Config{Store: memstore.New(), Sandbox: true, Logger: logger,
		Notifier: payments.NotifierFunc(func(context.Context, payments.Event) error { return errors.New("endpoint answered 503") })})
	require.NoError(t, err)
	defer eng.Close()
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "a", Permissions: []payments.Permission{payments.PermManage}})
	require.NoError(t, err)
	accts, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{}, payments.PlatformScope, payments.ListParams{})
	require.NoError(t, err)
	_, err = eng.Sandbox.Fund(ctx, accts.Data[0].ID, 100)
	require.NoError(t, err)
	_, err = eng.Webhooks.Flush(ctx) // its event's first try fails, outside any request
	require.NoError(t, err)
	pending, err := eng.Webhooks.PendingDeliveries(ctx, "", 0)
	require.NoError(t, err)
	require.NotEmpty(t, pending)
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base, Logger: logger}))
	defer srv.Close()

	// POST /sandbox/webhooks/{id}/redeliver is ours, off the reference:
	// sent without the wire check.
	req, err := http.NewRequest("POST", srv.URL+base+"/sandbox/webhooks/"+pending[0].Event.ID+"/redeliver", nil)
	require.NoError(t, err)
	req.SetBasicAuth(tok.ClientID, tok.ClientSecret)
	req.Header.Set(httpapi.RequestIDHeader, "trace-redeliver")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, 200, res.StatusCode)

	var during, outside []map[string]any
	for _, l := range logs.lines(t) {
		if l["msg"] != "event delivery failed" && l["msg"] != "request" {
			continue
		}
		if _, ok := l["request_id"]; ok {
			during = append(during, l)
		} else {
			outside = append(outside, l)
		}
	}
	require.Len(t, during, 2, "the engine's line and the request line: %v", during)
	for _, l := range during {
		assert.Equal(t, "trace-redeliver", l["request_id"], "%v", l)
	}
	assert.Equal(t, "event delivery failed", during[0]["msg"])
	assert.Equal(t, pending[0].Event.ID, during[0]["event"])
	require.NotEmpty(t, outside, "the first try, by Flush outside a request")
	assert.Equal(t, "event delivery failed", outside[0]["msg"])
}
