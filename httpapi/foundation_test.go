package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	ctx      = context.Background()
	timeZero = time.Time{}
)

func TestAuth(t *testing.T) {
	s := newServer(t)
	r := s.do("GET", "/config", nil)
	require.Equal(t, 200, r.Status, "body: %s", r.Raw)
	assert.True(t, strings.HasPrefix(r.Body["id"].(string), "PlatformConfig:"))

	id, _, _ := cut(s.cred)
	for name, cred := range map[string]string{"wrong secret": id + ":nope", "unknown id": "nobody:secret", "none": ""} {
		t.Run(name, func(t *testing.T) {
			r := s.doAs(cred, "GET", "/config", nil)
			requireError(t, r, 401, payments.CodeUnauthorized)
			assert.Contains(t, r.Header.Get("WWW-Authenticate"), "Basic")
		})
	}
	t.Run("malformed header", func(t *testing.T) {
		req, _ := http.NewRequest("GET", s.http.URL+base+"/config", nil)
		req.Header.Set("Authorization", "Bearer abc")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, 401, res.StatusCode)
	})
	t.Run("ErrForbidden for a VIEW-only token", func(t *testing.T) {
		view := s.token(payments.PermView)
		assert.Equal(t, 200, s.doAs(view, "GET", "/config", nil).Status)
		requireError(t, s.doAs(view, "PATCH", "/config", map[string]any{"umaDomain": "x.example.com"}), 403, payments.CodeForbidden)
		requireError(t, s.doAs(view, "POST", "/tokens", map[string]any{"name": "x", "permissions": []string{"VIEW"}}), 403, payments.CodeForbidden)
		cfg, _ := s.eng.Platform.Config(ctx)
		assert.NotEqual(t, "x.example.com", cfg.UmaDomain)
	})
}

func TestErrors(t *testing.T) {
	s := newServer(t)
	t.Run("unknown route", func(t *testing.T) {
		requireError(t, s.do("GET", "/no/such/thing", nil), 404, payments.CodeNotFound)
	})
	t.Run("wrong method", func(t *testing.T) {
		r := s.do("PUT", "/config", map[string]any{})
		requireError(t, r, 405, payments.CodeMethodNotAllowed)
		assert.Equal(t, "GET, PATCH", r.Header.Get("Allow"))
	})
	t.Run("malformed JSON", func(t *testing.T) {
		requireError(t, s.do("PATCH", "/config", `{"umaDomain": `), 400, payments.CodeInvalidInput)
		requireError(t, s.do("PATCH", "/config", `{"umaDomain": "a.com"} {}`), 400, payments.CodeInvalidInput)
		requireError(t, s.do("PATCH", "/config", ``), 400, payments.CodeInvalidInput)
		requireError(t, s.do("PATCH", "/config", `[1,2]`), 400, payments.CodeInvalidInput)
	})
	t.Run("wrong type names the field", func(t *testing.T) {
		requireError(t, s.do("PATCH", "/config", `{"umaDomain": 42}`), 400, payments.CodeInvalidInput, "umaDomain")
	})
	t.Run("every invalid field at once", func(t *testing.T) {
		r := s.do("PATCH", "/config", map[string]any{"umaDomain": "NOPE", "webhookEndpoint": "mailto:x",
			"supportedCurrencies": []map[string]any{{"currencyCode": "ZZZ", "minAmount": 5, "maxAmount": 1, "enabledTransactionTypes": []string{"SIDEWAYS"}}}})
		requireError(t, r, 400, payments.CodeInvalidInput, "umaDomain", "webhookEndpoint",
			"supportedCurrencies.0.currencyCode", "supportedCurrencies.0.maxAmount", "supportedCurrencies.0.enabledTransactionTypes.0")
	})
	t.Run("oversized body", func(t *testing.T) {
		big := `{"umaDomain":"` + strings.Repeat("a", 70<<10) + `.com"}`
		requireError(t, s.do("PATCH", "/config", big), 413, payments.CodeBodyTooLarge)
	})
	t.Run("bad list parameters", func(t *testing.T) {
		requireError(t, s.do("GET", "/tokens?limit=0&createdAfter=yesterday", nil), 400, payments.CodeInvalidInput, "limit", "createdAfter")
		requireError(t, s.do("GET", "/tokens?limit=abc", nil), 400, payments.CodeInvalidInput, "limit")
		requireError(t, s.do("GET", "/tokens?cursor=zzz", nil), 400, payments.CodeInvalidInput, "cursor")
	})
}

// panicStore fails View with a panic, to prove panics answer 500 without
// leaking internals.
type panicStore struct{ payments.Store }

func (p panicStore) View(ctx context.Context, fn func(payments.Tx) error) error {
	if ctx.Value(panicKey{}) == nil {
		return p.Store.View(ctx, fn)
	}
	panic("secret internal detail")
}

type panicKey struct{}

func TestErrors_PanicIsInternalError(t *testing.T) {
	s := newServer(t, func(c *payments.Config) { c.Store = panicStore{c.Store} })
	h := httpapi.New(s.eng, httpapi.Config{})
	req := httptest.NewRequest("GET", "/config", nil).WithContext(context.WithValue(ctx, panicKey{}, true))
	req.SetBasicAuth(basic(s.cred))
	rec := httptest.NewRecorder()
	// Authentication reads through View too, so the panic happens in the handler chain.
	h.ServeHTTP(rec, req)
	assert.Equal(t, 500, rec.Code)
	assert.Contains(t, rec.Body.String(), `"code":"INTERNAL_ERROR"`)
	assert.NotContains(t, rec.Body.String(), "secret internal detail")
}

func TestConfig(t *testing.T) {
	s := newServer(t)
	r := s.do("PATCH", "/config", map[string]any{"umaDomain": "pay.example.com", "skipVerificationPaperwork": true,
		"feeConfigs": []map[string]any{{"feeType": "CROSS_CURRENCY_TRANSACTION", "sourceCurrency": "USD", "variableFeeBps": 30, "fixedFee": map[string]any{"amount": 100, "currency": "USD"}}}})
	require.Equal(t, 200, r.Status, "body: %s", r.Raw)
	assert.Equal(t, "pay.example.com", r.Body["umaDomain"])
	assert.Equal(t, true, r.Body["skipVerificationPaperwork"])
	got := s.do("GET", "/config", nil)
	assert.Equal(t, r.Body, got.Body)
}

func TestTokens(t *testing.T) {
	s := newServer(t)
	r := s.do("POST", "/tokens", map[string]any{"name": "reader", "permissions": []string{"VIEW"}})
	require.Equal(t, 201, r.Status, "body: %s", r.Raw)
	id := r.Body["id"].(string)
	secret := r.Body["clientSecret"].(string)
	clientID := r.Body["clientId"].(string)
	require.NotEmpty(t, secret)

	got := s.do("GET", "/tokens/"+id, nil)
	require.Equal(t, 200, got.Status)
	assert.NotContains(t, got.Body, "clientSecret", "the secret is shown once")
	assert.NotContains(t, string(got.Raw), "secretHash")
	assert.Equal(t, 200, s.doAs(clientID+":"+secret, "GET", "/config", nil).Status)

	list := s.do("GET", "/tokens?name=reader", nil)
	require.Equal(t, 200, list.Status)
	assert.EqualValues(t, 1, list.Body["totalCount"])
	assert.Equal(t, false, list.Body["hasMore"])

	requireError(t, s.do("POST", "/tokens", map[string]any{"permissions": []string{"ADMIN"}}), 400, payments.CodeInvalidInput, "name", "permissions.0")
	del := s.do("DELETE", "/tokens/"+id, nil)
	assert.Equal(t, 204, del.Status)
	assert.Empty(t, del.Raw)
	requireError(t, s.doAs(clientID+":"+secret, "GET", "/config", nil), 401, payments.CodeUnauthorized)
	requireError(t, s.do("GET", "/tokens/"+id, nil), 404, payments.CodeTokenNotFound)
}

func TestIdempotency(t *testing.T) {
	s := newServer(t)
	body := map[string]any{"name": "idem", "permissions": []string{"VIEW"}}
	first := s.do("POST", "/tokens", body, "Idempotency-Key", "key-1")
	require.Equal(t, 201, first.Status)
	again := s.do("POST", "/tokens", body, "Idempotency-Key", "key-1")
	assert.Equal(t, 201, again.Status)
	assert.Equal(t, string(first.Raw), string(again.Raw), "the original response is replayed")
	assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))

	requireError(t, s.do("POST", "/tokens", map[string]any{"name": "other", "permissions": []string{"VIEW"}}, "Idempotency-Key", "key-1"), 409, payments.CodeConflict)
	requireError(t, s.do("POST", "/tokens", body, "Idempotency-Key", strings.Repeat("k", 256)), 400, payments.CodeInvalidInput, "Idempotency-Key")
	list := s.do("GET", "/tokens?name=idem", nil)
	assert.EqualValues(t, 1, list.Body["totalCount"], "nothing was created twice")

	t.Run("50 concurrent requests with one key execute once", func(t *testing.T) {
		var wg sync.WaitGroup
		bodies := make([]string, 50)
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := s.do("POST", "/tokens", map[string]any{"name": "burst", "permissions": []string{"VIEW"}}, "Idempotency-Key", "burst")
				assert.Equal(t, 201, r.Status)
				bodies[i] = string(r.Raw)
			}()
		}
		wg.Wait()
		for _, b := range bodies {
			assert.Equal(t, bodies[0], b)
		}
		list := s.do("GET", "/tokens?name=burst", nil)
		assert.EqualValues(t, 1, list.Body["totalCount"])
	})
}

func TestPagination(t *testing.T) {
	s := newServer(t)
	for i := range 25 {
		s.do("POST", "/tokens", map[string]any{"name": fmt.Sprintf("p%02d", i), "permissions": []string{"VIEW"}})
	}
	seen := map[string]bool{}
	path := "/tokens?limit=10"
	for range 10 {
		r := s.do("GET", path, nil)
		require.Equal(t, 200, r.Status)
		for _, it := range r.Body["data"].([]any) {
			id := it.(map[string]any)["id"].(string)
			assert.False(t, seen[id])
			seen[id] = true
		}
		assert.NotContains(t, r.Body, "totalCount", "a list longer than one page is not counted")
		if r.Body["hasMore"] != true {
			break
		}
		path = "/tokens?limit=10&cursor=" + r.Body["nextCursor"].(string)
	}
	assert.Len(t, seen, 26)
}

func TestMountUnderPrefix(t *testing.T) {
	s := newServer(t)
	mux := http.NewServeMux()
	mux.Handle("/api/", httpapi.New(s.eng, httpapi.Config{BasePath: "/api"}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	req := httptest.NewRequest("GET", "/api/config", nil)
	req.SetBasicAuth(basic(s.cred))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	assert.Equal(t, 200, rec.Code)
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	assert.Equal(t, 204, rec.Code)
}

func TestDecodeNamesEveryBadMember(t *testing.T) {
	s := newServer(t)
	before := s.customerCount()
	requireError(t, s.do("POST", "/customers", `{"customerType":"INDIVIDUAL","fullName":7,"currencies":"USD","address":{"line1":1},`+
		`"agreementConsents":[{"acceptedAt":"yesterday"}]}`), 400, payments.CodeInvalidInput,
		"fullName", "currencies", "address.line1", "agreementConsents.0.acceptedAt")
	requireError(t, s.do("POST", "/customers", `{"customerType":"INDIVIDUAL","fullName":7,"fullName":"Jo"}`), 400, payments.CodeInvalidInput, "fullName")
	requireError(t, s.do("POST", "/customers", `{"customerType":"INDIVIDUAL","agreementConsents":{"a":1}}`), 400, payments.CodeInvalidInput, "agreementConsents")
	requireError(t, s.do("POST", "/quotes", `{"lockedCurrencyAmount":1e308,"platformFeeOverride":{"platformVariableFeeBps":99999999999999999999}}`),
		400, payments.CodeInvalidInput, "lockedCurrencyAmount", "platformFeeOverride.platformVariableFeeBps")
	requireError(t, s.do("POST", "/quotes", `["not","an","object"]`), 400, payments.CodeInvalidInput)
	r := s.do("POST", "/customers", "\ufeff{}")
	requireError(t, r, 400, payments.CodeInvalidInput)
	require.NotContains(t, string(r.Raw), "invalid character")
	require.Equal(t, before, s.customerCount())
}

// TestShortBody: a body that stops short of its declared Content-Length
// is answered 400 once the read times out, and the connection is closed.
func TestShortBody(t *testing.T) {
	eng, err := payments.New(payments.Config{Store: memstore.New(), Sandbox: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close() })
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "t", Permissions: []payments.Permission{payments.PermManage}})
	require.NoError(t, err)
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base, BodyReadTimeout: 200 * time.Millisecond}))
	t.Cleanup(srv.Close)

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
	id, secret := basic(tok.Credential())
	req, err := http.NewRequest("PATCH", srv.URL+base+"/config", nil)
	require.NoError(t, err)
	req.SetBasicAuth(id, secret)
	_, err = fmt.Fprintf(conn, "PATCH %s/config HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\nContent-Type: application/json\r\n"+
		"Content-Length: 100\r\n\r\n{\"umaDomain\":\"a.com\"}", base, req.Header.Get("Authorization")) // 21 of 100 bytes
	require.NoError(t, err)

	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	require.NoError(t, err)
	defer res.Body.Close()
	var body struct{ Code string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	assert.Equal(t, 400, res.StatusCode)
	assert.Equal(t, string(payments.CodeInvalidInput), body.Code)
	assert.True(t, res.Close, "the connection is closed after a body read that failed")
}
