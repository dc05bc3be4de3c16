package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments/webhooks"
)

// TestParseFlags_Brand: -brand (or PAYMENTS_BRAND) names the brand; a name
// that cannot be a header or code word is refused at start.
func TestParseFlags_Brand(t *testing.T) {
	none := func(string) string { return "" }
	o, err := parseFlags(nil, none, io.Discard)
	require.NoError(t, err)
	assert.Empty(t, o.brand)
	o, err = parseFlags([]string{"-brand", "Acme"}, none, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "Acme", o.brand)
	o, err = parseFlags(nil, func(k string) string { return map[string]string{"PAYMENTS_BRAND": "Acme"}[k] }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "Acme", o.brand)
	_, err = parseFlags([]string{"-brand", "Acme Co"}, none, io.Discard)
	assert.ErrorContains(t, err, "-brand")
}

// TestRun_Brand: a server started with -brand speaks the brand in its
// answers and query parameters, and signs webhooks in X-<Brand>-Signature
// with the key it prints.
func TestRun_Brand(t *testing.T) {
	var mu sync.Mutex
	var got http.Header
	var body []byte
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, body = r.Header.Clone(), b
		mu.Unlock()
	}))
	defer recv.Close()
	base, out := serve(t, "-brand", "Acme")
	const cred = "dash-client:dash-secret-0123456789" // serve's token
	assert.Contains(t, out.String(), "webhooks are signed (X-Acme-Signature)")

	status, r := call(t, cred, "GET", base+"/stablecoins?acmeOperationsStatus=DONE", "")
	require.Equal(t, 400, status, "%v", r)
	assert.Equal(t, "acmeOperationsStatus", r["details"].(map[string]any)["errors"].([]any)[0].(map[string]any)["field"])

	status, r = call(t, cred, "PATCH", base+"/config", `{"webhookEndpoint":"`+recv.URL+`/hooks"}`)
	require.Equal(t, 200, status, "%v", r)
	status, r = call(t, cred, "POST", base+"/sandbox/webhooks/test", "")
	require.Equal(t, 200, status, "%v", r)
	m := regexp.MustCompile(`(?s)-----BEGIN PUBLIC KEY-----.*?-----END PUBLIC KEY-----\n`).FindString(out.String())
	pub, err := webhooks.ParsePublicKeyPEM(m)
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, got.Get("X-Service-Signature"))
	require.NoError(t, webhooks.Verify(pub, body, got.Get("X-Acme-Signature")))
}
