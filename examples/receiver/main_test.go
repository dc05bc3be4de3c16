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

// TestHandler: a delivery signed with the server's key and sent just now is
// printed and answered 204; one signed with another key, or unsigned, is
// refused with 401 and not printed; without a key every delivery is
// printed.
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

	post := func(h http.Handler, body, sig string) int {
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
	h := handler(&webhooks.Verifier{Key: signer.PublicKey()}, webhooks.SignatureHeader, &out)
	assert.Equal(t, 204, post(h, body, good))
	assert.Equal(t, "TEST Webhook:1\n", out.String())
	out.Reset()
	assert.Equal(t, 401, post(h, body, forged))
	assert.Equal(t, 401, post(h, body, ""))
	assert.NotContains(t, out.String(), "Webhook:1")

	out.Reset()
	assert.Equal(t, 204, post(handler(nil, webhooks.SignatureHeader, &out), body, ""))
	assert.Equal(t, "TEST Webhook:1\n", out.String())
}

// TestHandler_StaleDelivery: a delivery sent more than the tolerance ago (a
// captured one replayed) is refused with 401 and said to be too old, not
// forged; -tolerance -1, for a sandbox whose clock was moved, accepts it on
// its signature.
func TestHandler_StaleDelivery(t *testing.T) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	signer, err := webhooks.New(webhooks.Config{Key: key})
	require.NoError(t, err)
	body := `{"id":"Webhook:1","type":"TEST","timestamp":"` + time.Now().UTC().Add(-6*time.Minute).Format(time.RFC3339) + `","data":{}}`
	sig, err := signer.Sign([]byte(body))
	require.NoError(t, err)
	post := func(h http.Handler) int {
		req := httptest.NewRequest("POST", "/webhooks", strings.NewReader(body))
		req.Header.Set(webhooks.SignatureHeader, sig)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}

	var out strings.Builder
	assert.Equal(t, 401, post(handler(&webhooks.Verifier{Key: signer.PublicKey()}, webhooks.SignatureHeader, &out)))
	assert.Contains(t, out.String(), "too old")
	assert.NotContains(t, out.String(), "Webhook:1")

	out.Reset()
	assert.Equal(t, 204, post(handler(&webhooks.Verifier{Key: signer.PublicKey(), Tolerance: -1}, webhooks.SignatureHeader, &out)))
	assert.Equal(t, "TEST Webhook:1\n", out.String())
}
