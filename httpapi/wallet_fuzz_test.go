package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzWalletBody sends fuzzed bodies to the embedded-wallet operations of
// a provisioned wallet, under the rules of fuzzHarness.check. A wrong OTP
// attempt legitimately counts.
func FuzzWalletBody(f *testing.F) {
	fh := newFuzzHarness(f)
	send := func(method, path string, body any) []byte {
		raw, err := json.Marshal(body)
		require.NoError(f, err)
		req := httptest.NewRequest(method, "http://fuzz"+base+path, bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth(fh.id, fh.pass)
		rec := httptest.NewRecorder()
		fh.h.ServeHTTP(rec, req)
		require.Less(f, rec.Code, 300, rec.Body.String())
		return rec.Body.Bytes()
	}
	send("PATCH", "/config", map[string]any{"embeddedWalletConfig": map[string]any{"appName": "Fuzz"}})
	var c, list struct {
		ID   string
		Data []struct{ ID string }
	}
	require.NoError(f, json.Unmarshal(send("POST", "/customers", individual(set("fullName", "Fuzz Wallet"), set("email", "fuzz@example.com"))), &c))
	require.NoError(f, json.Unmarshal(send("GET", "/customers/internal-accounts?type=EMBEDDED_WALLET&customerId="+c.ID, nil), &list))
	wallet := list.Data[0].ID
	require.NoError(f, json.Unmarshal(send("GET", "/auth/credentials?accountId="+wallet, nil), &list))
	cred := list.Data[0].ID
	routes := []fuzzRoute{
		{method: "POST", path: "/auth/credentials"},
		{method: "POST", path: "/auth/credentials/" + cred + "/challenge"},
		{method: "POST", path: "/auth/credentials/" + cred + "/verify", writesOn4xx: true},
		{method: "POST", path: "/auth/sessions/Session:00000000-0000-0000-0000-000000000000/refresh"},
		{method: "PATCH", path: "/internal-accounts/" + wallet},
		{method: "POST", path: "/internal-accounts/" + wallet + "/export"},
		{method: "POST", path: "/auth/delegated-keys"},
		{method: "PATCH", path: "/customers/" + c.ID},
	}
	for i, body := range []string{`{"type":"SMS_OTP","accountId":"` + wallet + `"}`, `{}`,
		`{"type":"EMAIL_OTP","encryptedOtpBundle":"{\"encappedPublic\":\"04\",\"ciphertext\":\"00\"}"}`,
		`{"clientPublicKey":"02f45f2a22c908b9ce09a7150e514afd24627c401c38a4afc164e1ea783adaaa31"}`, `{"privateEnabled":true}`,
		`{"clientPublicKey":"04f45f"}`, `{"cardId":"Card:x","internalAccountId":"` + wallet + `","nickname":"k"}`,
		`{"customerType":"INDIVIDUAL","email":"new@example.com"}`} {
		f.Add(uint8(i), []byte(body))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		fh.check(t, pick(routes, which), "", "application/json", body)
	})
}
