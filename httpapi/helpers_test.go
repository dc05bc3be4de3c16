package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/internal/wirecheck"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/storetest"
	"github.com/stretchr/testify/require"
)

const base = "/2025-10-13"

// server is an httpapi handler over a sandbox engine on memstore, with an
// all-permission credential.
type server struct {
	t     testing.TB
	eng   *payments.Engine
	clock *sandbox.Clock
	store payments.Store
	http  *httptest.Server
	cred  string // clientId:secret with every permission
	brand string // httpapi.Config.Brand of a branded view ("" by default)
}

func newServer(t testing.TB, mutate ...func(*payments.Config)) *server {
	t.Helper()
	clock := sandbox.NewClock(timeZero)
	store := memstore.New()
	// Every transaction function runs twice, the first run discarded, so
	// every HTTP test also proves the engine's transactions retryable.
	cfg := payments.Config{Store: storetest.Twice(store), Now: clock.Now, NewUUID: sandbox.NewUUID, Sandbox: true}
	for _, m := range mutate {
		m(&cfg)
	}
	eng, err := payments.New(cfg)
	require.NoError(t, err)
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "admin",
		Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	require.NoError(t, err)
	h := httpapi.New(eng, httpapi.Config{BasePath: base, MaxBodyBytes: 64 << 10})
	srv := httptest.NewServer(h)
	s := &server{t: t, eng: eng, clock: clock, store: store, http: srv, cred: tok.Credential()}
	t.Cleanup(func() { srv.Close(); _ = eng.Close(); _ = store.Close() })
	return s
}

// branded returns a view of s served with httpapi.Config.Brand brand (given
// in title case): the same engine, clock and credential behind a listener of
// its own. Its exchanges are not checked against the reference, whose
// adapted copy speaks the default brand.
func (s *server) branded(brand string) *server {
	srv := httptest.NewServer(httpapi.New(s.eng, httpapi.Config{BasePath: base, MaxBodyBytes: 64 << 10, Brand: brand}))
	s.t.Cleanup(srv.Close)
	b := *s
	b.http, b.brand = srv, brand
	return &b
}

// walletHeader names the signed-retry header s reads.
func (s *server) walletHeader() string {
	if s.brand == "" {
		return "Service-Wallet-Signature"
	}
	return s.brand + "-Wallet-Signature"
}

// token creates a credential with the given permissions.
func (s *server) token(perms ...payments.Permission) string {
	tok, err := s.eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "t", Permissions: perms})
	require.NoError(s.t, err)
	return tok.Credential()
}

// response is a decoded reply.
type response struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

// do sends a request with the admin credential. body may be nil, a string
// (sent verbatim) or a value to encode as JSON.
func (s *server) do(method, path string, body any, headers ...string) response {
	return s.doAs(s.cred, method, path, body, headers...)
}

func (s *server) doAs(cred, method, path string, body any, headers ...string) response {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(s.t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.http.URL+base+path, rd)
	require.NoError(s.t, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cred != "" {
		id, secret, _ := cut(cred)
		req.SetBasicAuth(id, secret)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	c := client(s.t)
	if s.brand != "" {
		c = s.http.Client()
	}
	res, err := c.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	out := response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		require.NoError(s.t, json.Unmarshal(raw, &out.Body), "body: %s", raw)
	}
	return out
}

func basic(cred string) (string, string) {
	id, secret, _ := cut(cred)
	return id, secret
}

// client returns the HTTP client of the tests: every exchange is checked
// against the public reference when it is present (internal/wirecheck).
func client(t testing.TB) *http.Client {
	return &http.Client{Transport: wirecheck.Load(t).Transport(t, nil)}
}

func cut(cred string) (string, string, bool) {
	for i := range cred {
		if cred[i] == ':' {
			return cred[:i], cred[i+1:], true
		}
	}
	return cred, "", false
}

// requireError asserts the API's error body: status, code, message equal to
// reason, and (when given) exactly these details.errors fields.
func requireError(t testing.TB, r response, status int, code payments.Code, fields ...string) {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Raw)
	require.Equal(t, string(code), r.Body["code"], "body: %s", r.Raw)
	require.EqualValues(t, status, r.Body["status"])
	require.NotEmpty(t, r.Body["message"])
	require.Equal(t, r.Body["message"], r.Body["reason"])
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	if len(fields) == 0 {
		return
	}
	details, _ := r.Body["details"].(map[string]any)
	list, _ := details["errors"].([]any)
	var got []string
	for _, e := range list {
		m := e.(map[string]any)
		require.NotEmpty(t, m["message"])
		got = append(got, m["field"].(string))
	}
	require.ElementsMatch(t, fields, got, "body: %s", r.Raw)
}
