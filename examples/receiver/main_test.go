package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
	body := `{"id":"Webhook:1","type":"TEST","timestamp":"2025-10-13T12:00:00Z","data":{}}`

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
