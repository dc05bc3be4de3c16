package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments/webhooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHandler: a delivery signed with the server's key is printed and
// answered 204; one signed with another key, or unsigned, is refused with
// 401 and not printed; without a key every delivery is printed.
func TestHandler(t *testing.T) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	other, err := webhooks.GenerateKey()
	require.NoError(t, err)
	signer, err := webhooks.New(webhooks.Config{Key: key})
	require.NoError(t, err)
	forger, err := webhooks.New(webhooks.Config{Key: other})
	require.NoError(t, err)
	body := `{"id":"Webhook:1","type":"TEST","timestamp":"` + time.Now().UTC().Format(time.RFC3339) + `","data":{}}`

	post := func(h http.Handler, sig string) int {
		req := httptest.NewRequest("POST", "/webhooks", strings.NewReader(body))
		if sig != "" {
			req.Header.Set(webhooks.SignatureHeader, sig)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	good, err := signer.Sign([]byte(body))
	require.NoError(t, err)
	forged, err := forger.Sign([]byte(body))
	require.NoError(t, err)

	var out strings.Builder
	h := handler(signer.PublicKey(), webhooks.SignatureHeader, &out)
	assert.Equal(t, 204, post(h, good))
	assert.Equal(t, "TEST Webhook:1\n", out.String())
	out.Reset()
	assert.Equal(t, 401, post(h, forged))
	assert.Equal(t, 401, post(h, ""))
	assert.NotContains(t, out.String(), "Webhook:1")

	out.Reset()
	assert.Equal(t, 204, post(handler(nil, webhooks.SignatureHeader, &out), ""))
	assert.Equal(t, "TEST Webhook:1\n", out.String())
}

// TestHandler_RefusesStale: a correctly signed delivery dated more than
// webhooks.DefaultTolerance ago (a captured delivery replayed) is refused
// with 401, and the log line says why.
func TestHandler_RefusesStale(t *testing.T) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	signer, err := webhooks.New(webhooks.Config{Key: key})
	require.NoError(t, err)
	old := time.Now().Add(-webhooks.DefaultTolerance - time.Minute).UTC().Format(time.RFC3339)
	body := `{"id":"Webhook:2","type":"TEST","timestamp":"` + old + `","data":{}}`
	sig, err := signer.Sign([]byte(body))
	require.NoError(t, err)
	var out strings.Builder
	req := httptest.NewRequest("POST", "/webhooks", strings.NewReader(body))
	req.Header.Set(webhooks.SignatureHeader, sig)
	rec := httptest.NewRecorder()
	handler(signer.PublicKey(), webhooks.SignatureHeader, &out).ServeHTTP(rec, req)
	assert.Equal(t, http.StatusUnauthorized, rec.Code)
	assert.Contains(t, out.String(), "refused:")
	assert.NotContains(t, out.String(), "Webhook:2")
}
