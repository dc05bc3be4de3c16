package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingStore is a store whose reads fail while fail is set.
type failingStore struct {
	payments.Store
	fail atomic.Bool
}

func (s *failingStore) View(ctx context.Context, fn func(payments.Tx) error) error {
	if s.fail.Load() {
		return errors.New("the database does not answer")
	}
	return s.Store.View(ctx, fn)
}

// probeGet serves one request of method to h and returns the status and
// the decoded body (nil when none).
func probeGet(t *testing.T, h http.Handler, method string) (int, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, "/probe", nil))
	var body map[string]any
	if rec.Body.Len() > 0 {
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
	}
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	return rec.Code, body
}

// TestHealth: the liveness probe answers while the process serves.
func TestHealth(t *testing.T) {
	status, body := probeGet(t, httpapi.Health(), "GET")
	assert.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"status": "ok"}, body)
	status, body = probeGet(t, httpapi.Health(), "HEAD")
	assert.Equal(t, 200, status)
	assert.Nil(t, body)
	status, body = probeGet(t, httpapi.Health(), "POST")
	assert.Equal(t, 405, status)
	assert.Equal(t, "METHOD_NOT_ALLOWED", body["code"])
}

// TestReady: the readiness probe passes while the store answers and the
// workers run, and fails (503, naming the check) when the store fails,
// while the server drains, and once the engine is closed.
func TestReady(t *testing.T) {
	store := &failingStore{Store: memstore.New()}
	eng, err := payments.New(payments.Config{Store: store})
	require.NoError(t, err)
	var draining atomic.Bool
	ready := httpapi.Ready(eng, httpapi.ReadyOptions{Draining: draining.Load})

	status, body := probeGet(t, ready, "GET")
	assert.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"status": "ready", "checks": map[string]any{"store": "ok", "workers": "ok"}}, body)

	store.fail.Store(true)
	status, body = probeGet(t, ready, "GET")
	assert.Equal(t, 503, status)
	assert.Equal(t, map[string]any{"status": "unavailable", "checks": map[string]any{"store": "failing", "workers": "ok"}}, body)
	store.fail.Store(false)

	draining.Store(true)
	status, body = probeGet(t, ready, "GET")
	assert.Equal(t, 503, status)
	assert.Equal(t, "draining", body["checks"].(map[string]any)["shutdown"])
	draining.Store(false)

	require.NoError(t, eng.Close())
	status, body = probeGet(t, ready, "GET")
	assert.Equal(t, 503, status)
	assert.Equal(t, "stopped", body["checks"].(map[string]any)["workers"])
	assert.Equal(t, 503, func() int { s, _ := probeGet(t, httpapi.Ready(eng, httpapi.ReadyOptions{}), "HEAD"); return s }())
}

// TestResponseLength: every JSON answer carries its Content-Length and is
// sent whole, not chunked: a short one through net/http's own buffer, one
// longer than that buffer (2 KiB) through the header writeRaw sets.
func TestResponseLength(t *testing.T) {
	s := newServer(t)
	for range 6 {
		s.customer()
	}
	for _, path := range []string{"/config", "/customers?limit=6"} {
		req, err := http.NewRequest("GET", s.http.URL+base+path, nil)
		require.NoError(t, err)
		id, secret := basic(s.cred)
		req.SetBasicAuth(id, secret)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		raw, err := io.ReadAll(res.Body)
		require.NoError(t, res.Body.Close())
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode, "%s", raw)
		assert.Equal(t, int64(len(raw)), res.ContentLength, path)
		assert.Empty(t, res.TransferEncoding, path)
		t.Logf("%s: %d bytes", path, len(raw))
	}
}
