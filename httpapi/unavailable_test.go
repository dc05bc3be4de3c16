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
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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

// TestUnavailable_CutsUnderLoad: clients create and read customers while
// the database's connections are cut and restored again and again: no
// request is answered 500, only 2xx or 503 with Retry-After; and every
// creation answered 503, retried with its Idempotency-Key once the
// database is back, yields exactly one customer.
func TestUnavailable_CutsUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("a load of a few seconds")
	}
	proxy := pgtest.NewProxy(t)
	underLoad(t, proxy.DSN(), func() {
		proxy.Cut()
		time.Sleep(40 * time.Millisecond)
		proxy.Restore()
	})
}

// TestUnavailable_TerminatedUnderLoad: the same load while an
// administrator ends the server's sessions again and again
// (pg_terminate_backend, as a restart does): no 500 either.
func TestUnavailable_TerminatedUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("a load of a few seconds")
	}
	app := fmt.Sprintf("httpapi_terminate_%d", time.Now().UnixNano())
	admin, err := pgx.Connect(ctx, pgtest.DSN(t))
	require.NoError(t, err)
	defer admin.Close(ctx)
	underLoad(t, pgtest.DSN(t)+" application_name="+app, func() {
		_, err := admin.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", app)
		assert.NoError(t, err)
	})
}

// underLoad runs clients creating and reading customers on a store on
// dsn for 2 s, calling disrupt every 120 ms, and checks the answers.
func underLoad(t *testing.T, dsn string, disrupt func()) {
	store, err := pgstore.Open(context.Background(), dsn, &pgstore.Options{Schema: pgtest.Schema(t)})
	require.NoError(t, err)
	defer store.Close()
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true})
	require.NoError(t, err)
	defer eng.Close()
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "admin", Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	require.NoError(t, err)
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base, Logger: logger}))
	defer srv.Close()
	cred := tok.Credential()
	customer, _ := json.Marshal(individual())

	stop := make(chan struct{})
	cutter := make(chan int)
	go func() {
		cuts := 0
		for {
			select {
			case <-stop:
				cutter <- cuts
				return
			case <-time.After(120 * time.Millisecond):
			}
			disrupt()
			cuts++
		}
	}()
	type outcome struct {
		key    string
		status int
		raw    string
		retry  string
	}
	results := make(chan outcome, 10000)
	var wg sync.WaitGroup
	deadline := time.Now().Add(2 * time.Second)
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				key := fmt.Sprintf("load-%d-%d", w, i)
				res, _, raw := sendUnchecked(t, srv, cred, "POST", "/customers", string(customer), "Idempotency-Key", key)
				results <- outcome{key, res.StatusCode, raw, res.Header.Get("Retry-After")}
				res, _, raw = sendUnchecked(t, srv, cred, "GET", "/customers?limit=1", "")
				results <- outcome{"", res.StatusCode, raw, res.Header.Get("Retry-After")}
			}
		}()
	}
	wg.Wait()
	close(stop)
	cuts := <-cutter
	close(results)

	counts := map[int]int{}
	var unanswered []string
	keys := 0
	for o := range results {
		counts[o.status]++
		switch {
		case o.status == 503:
			assert.Equal(t, "1", o.retry)
			assert.Contains(t, o.raw, `"SERVICE_UNAVAILABLE"`)
			if o.key != "" {
				unanswered = append(unanswered, o.key)
			}
		case o.status >= 300:
			t.Errorf("answered %d: %s", o.status, o.raw)
		}
		if o.key != "" {
			keys++
		}
	}
	unknown := 0
	for _, l := range logs.lines(t) {
		if strings.HasPrefix(fmt.Sprint(l["msg"]), "commit outcome unknown") {
			unknown++
		}
		if l["msg"] == "request failed" && !strings.Contains(fmt.Sprint(l["err"]), "store unavailable") {
			t.Errorf("%s failed: %v", l["path"], l["err"])
		}
	}
	t.Logf("%d cuts; answers by status: %v; commits of unknown outcome: %d", cuts, counts, unknown)
	assert.Zero(t, counts[500])

	for _, key := range unanswered {
		res, _, raw := sendUnchecked(t, srv, cred, "POST", "/customers", string(customer), "Idempotency-Key", key)
		assert.Equal(t, 201, res.StatusCode, "%s", raw)
	}
	total := 0
	for p := (payments.ListParams{Limit: 100}); ; {
		page, err := eng.Customers.List(ctx, payments.CustomerFilter{}, p)
		require.NoError(t, err)
		total += len(page.Data)
		if !page.HasMore {
			break
		}
		p.Cursor = page.NextCursor
	}
	assert.Equal(t, keys, total, "one customer per key, none twice")
}
