package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/internal/wirecheck"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// getUnchecked GETs path with cred, out of the wire check: the request
// log is ours, off the reference.
func getUnchecked(t *testing.T, srv *httptest.Server, cred, path string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+base+path, nil)
	require.NoError(t, err)
	id, secret := basic(cred)
	req.SetBasicAuth(id, secret)
	res, err := client(t).Do(wirecheck.Skip(req))
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, raw
}

// TestSandboxRequests: GET /sandbox/requests lists the latest requests,
// newest first, with their status, error code, request id, idempotency
// key and client id, and no secret or body; the log keeps
// Config.RequestLogSize of them; it takes MANAGE and sandbox mode.
func TestSandboxRequests(t *testing.T) {
	s := newServer(t)
	id, secret := basic(s.cred)
	created := s.do("POST", "/tokens", map[string]any{"name": "secret-name", "permissions": []string{"VIEW"}},
		"Idempotency-Key", "key-1", httpapi.RequestIDHeader, "trace-1")
	require.Equal(t, 201, created.Status)
	viewer := created.Body["clientId"].(string) + ":" + created.Body["clientSecret"].(string)
	s.do("GET", "/customers/Customer:nope", nil)
	s.doAs(id+":wrong-secret-wrong-secret", "GET", "/config", nil)

	status, raw := getUnchecked(t, s.http, s.cred, "/sandbox/requests")
	require.Equal(t, 200, status, "%s", raw)
	var page struct{ Data []httpapi.LoggedRequest }
	require.NoError(t, json.Unmarshal(raw, &page))
	require.Len(t, page.Data, 3)
	unauth, missing, post := page.Data[0], page.Data[1], page.Data[2]
	assert.Equal(t, "POST", post.Method)
	assert.Equal(t, base+"/tokens", post.Path)
	assert.Equal(t, 201, post.Status)
	assert.Empty(t, post.Code)
	assert.Equal(t, "trace-1", post.RequestID)
	assert.Equal(t, "key-1", post.IdempotencyKey)
	assert.Equal(t, id, post.ClientID)
	assert.Positive(t, post.DurationMs)
	assert.False(t, post.Time.IsZero())
	assert.Equal(t, 404, missing.Status)
	assert.NotEmpty(t, missing.Code)
	assert.Equal(t, id, missing.ClientID)
	assert.Equal(t, 401, unauth.Status)
	assert.Equal(t, "UNAUTHORIZED", unauth.Code)
	assert.Empty(t, unauth.ClientID, "not authenticated")
	for _, never := range []string{secret, "wrong-secret", "secret-name", created.Body["clientSecret"].(string), "Basic"} {
		assert.NotContains(t, string(raw), never)
	}

	_, raw = getUnchecked(t, s.http, s.cred, "/sandbox/requests?limit=1")
	require.NoError(t, json.Unmarshal(raw, &page))
	require.Len(t, page.Data, 1)
	assert.Equal(t, base+"/sandbox/requests", page.Data[0].Path, "the last list is listed too")
	status, _ = getUnchecked(t, s.http, s.cred, "/sandbox/requests?limit=0")
	assert.Equal(t, 400, status)
	status, _ = getUnchecked(t, s.http, viewer, "/sandbox/requests")
	assert.Equal(t, 403, status, "MANAGE")

	t.Run("Bounded", func(t *testing.T) {
		h := httpapi.New(s.eng, httpapi.Config{BasePath: base, RequestLogSize: 2})
		for _, p := range []string{"/a", "/b", "/c"} {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", base+p, nil))
		}
		got := h.Requests(10)
		require.Len(t, got, 2)
		assert.Equal(t, []string{base + "/c", base + "/b"}, []string{got[0].Path, got[1].Path})
		off := httpapi.New(s.eng, httpapi.Config{BasePath: base, RequestLogSize: -1})
		off.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", base+"/a", nil))
		assert.Empty(t, off.Requests(10))
	})

	t.Run("OutsideSandbox", func(t *testing.T) {
		eng, err := payments.New(payments.Config{Store: memstore.New()})
		require.NoError(t, err)
		defer eng.Close()
		tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "a", Permissions: []payments.Permission{payments.PermManage}})
		require.NoError(t, err)
		srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base}))
		defer srv.Close()
		status, raw := getUnchecked(t, srv, tok.Credential(), "/sandbox/requests")
		assert.Equal(t, 403, status)
		assert.True(t, strings.Contains(string(raw), "FORBIDDEN"), "%s", raw)
	})
}
