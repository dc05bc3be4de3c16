package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/internal/wirecheck"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sendUnchecked sends one request out of the wire check (a 503 of an
// unreachable database is not in the reference's answers of every
// operation) and returns the answer with its decoded body.
func sendUnchecked(t *testing.T, srv *httptest.Server, cred, method, path, body string, headers ...string) (*http.Response, map[string]any, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+base+path, rd)
	require.NoError(t, err)
	id, secret := basic(cred)
	req.SetBasicAuth(id, secret)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := client(t).Do(wirecheck.Skip(req))
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var m map[string]any
	if len(raw) > 0 {
		require.NoError(t, json.Unmarshal(raw, &m), "%s", raw)
	}
	return res, m, string(raw)
}

// requireUnavailable asserts the answer of an unreachable store: 503
// SERVICE_UNAVAILABLE, Retry-After 1 and its detail, a message that says
// what happened and nothing of the cause.
func requireUnavailable(t *testing.T, res *http.Response, body map[string]any, raw string) {
	t.Helper()
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "%s", raw)
	assert.Equal(t, "1", res.Header.Get("Retry-After"))
	assert.Equal(t, "SERVICE_UNAVAILABLE", body["code"])
	assert.EqualValues(t, 503, body["status"])
	assert.Equal(t, map[string]any{"retryAfterSeconds": 1.0}, body["details"])
	assert.Equal(t, body["message"], body["reason"])
	for _, leak := range []string{"pgstore", "teststore", "EOF", "127.0.0.1", "dial", "refused", "reset", "pgconn"} {
		assert.NotContains(t, raw, leak)
	}
}

// TestUnavailable_PostgresCut: while the PostgreSQL behind the engine
// cannot be reached (its connections cut and new ones refused), every
// request, reads, writes and the authentication they need alike, is
// answered 503 SERVICE_UNAVAILABLE with Retry-After, never 500; once it is
// back, they are served again.
func TestUnavailable_PostgresCut(t *testing.T) {
	proxy := pgtest.NewProxy(t)
	store, err := pgstore.Open(context.Background(), proxy.DSN(), &pgstore.Options{Schema: pgtest.Schema(t)})
	require.NoError(t, err)
	defer store.Close()
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true})
	require.NoError(t, err)
	defer eng.Close()
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "admin", Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	require.NoError(t, err)
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base}))
	defer srv.Close()
	cred := tok.Credential()
	customer, _ := json.Marshal(individual())

	res, _, raw := sendUnchecked(t, srv, cred, "GET", "/customers", "")
	require.Equal(t, 200, res.StatusCode, "%s", raw)

	proxy.Cut()
	for i := range 3 {
		res, body, raw := sendUnchecked(t, srv, cred, "GET", "/customers", "")
		requireUnavailable(t, res, body, raw)
		res, body, raw = sendUnchecked(t, srv, cred, "POST", "/customers", string(customer), "Idempotency-Key", fmt.Sprint("cut-", i))
		requireUnavailable(t, res, body, raw)
	}

	proxy.Restore()
	res, _, raw = sendUnchecked(t, srv, cred, "POST", "/customers", string(customer), "Idempotency-Key", "cut-0")
	assert.Equal(t, 201, res.StatusCode, "%s", raw)
	res, _, raw = sendUnchecked(t, srv, cred, "GET", "/customers", "")
	assert.Equal(t, 200, res.StatusCode, "%s", raw)
}

// cutAtCommit is a store whose Updates, while cut is set, commit and then
// report the connection lost at COMMIT (payments.ErrCommitUnknown), as a
// database store does when its connection breaks after the commit was
// sent.
type cutAtCommit struct {
	payments.Store
	cut atomic.Bool
}

func (s *cutAtCommit) Update(ctx context.Context, fn func(payments.Tx) error) error {
	err := s.Store.Update(ctx, fn)
	if err == nil && s.cut.Load() {
		return fmt.Errorf("teststore: %w: read: connection reset by peer", payments.ErrCommitUnknown)
	}
	return err
}

// TestUnavailable_CommitUnknownLogged: a commit whose outcome is unknown is
// answered 503 with Retry-After, and the server log says so at ERROR with
// the operation; a retry with the same Idempotency-Key replays the answer
// of the commit that did apply.
func TestUnavailable_CommitUnknownLogged(t *testing.T) {
	store := &cutAtCommit{Store: memstore.New()}
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true})
	require.NoError(t, err)
	defer eng.Close()
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "admin", Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	require.NoError(t, err)
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base, Logger: logger}))
	defer srv.Close()
	cred := tok.Credential()
	customer, _ := json.Marshal(individual())

	store.cut.Store(true)
	res, body, raw := sendUnchecked(t, srv, cred, "POST", "/customers", string(customer), "Idempotency-Key", "k-1", httpapi.RequestIDHeader, "req-unknown")
	store.cut.Store(false)
	requireUnavailable(t, res, body, raw)
	assert.Contains(t, body["message"], "may or may not have taken effect")

	var line map[string]any
	require.Eventually(t, func() bool {
		for _, l := range logs.lines(t) {
			if strings.HasPrefix(fmt.Sprint(l["msg"]), "commit outcome unknown") {
				line = l
			}
		}
		return line != nil
	}, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, "ERROR", line["level"])
	assert.Equal(t, "POST /customers", line["operation"])
	assert.Equal(t, "req-unknown", line["request_id"])
	assert.Contains(t, line["err"], "outcome of a commit is unknown")

	res, body, raw = sendUnchecked(t, srv, cred, "POST", "/customers", string(customer), "Idempotency-Key", "k-1")
	assert.Equal(t, 201, res.StatusCode, "%s", raw)
	assert.Equal(t, "true", res.Header.Get("Idempotent-Replayed"), "the commit did apply: its answer is replayed")
	assert.NotEmpty(t, body["id"])
}
