package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// scaFuzzRoutes are the SCA operations with a JSON body; a wrong login
// proof legitimately counts an attempt.
var scaFuzzRoutes = []fuzzRoute{
	{method: "POST", path: "/sca/factors"},
	{method: "POST", path: "/sca/factors/confirm"},
	{method: "POST", path: "/sca/login/start"},
	{method: "POST", path: "/sca/login/complete", writesOn4xx: true},
	{method: "POST", path: "/sca/record-event"},
	{method: "POST", path: "/sca/factors/reset"},
}

// FuzzSCABody sends fuzzed bodies to the SCA operations of a customer in
// an SCA region, under the rules of fuzzHarness.check.
func FuzzSCABody(f *testing.F) {
	fh := newFuzzHarness(f)
	raw, err := json.Marshal(individual(set("region", "DE"), set("fullName", "Fuzz Europa")))
	require.NoError(f, err)
	req := httptest.NewRequest("POST", "http://fuzz"+base+"/customers", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(fh.id, fh.pass)
	rec := httptest.NewRecorder()
	fh.h.ServeHTTP(rec, req)
	require.Equal(f, 201, rec.Code, rec.Body.String())
	var c struct{ ID string }
	require.NoError(f, json.Unmarshal(rec.Body.Bytes(), &c))
	for i, body := range []string{`{"type":"TOTP"}`, `{"type":"PASSKEY","origin":"http://localhost:8080","credential":{"credentialId":"AA","clientDataJson":"e30","attestationObject":"oA"}}`,
		`{"factor":"SMS_OTP"}`, `{"factor":"PASSKEY","endUserIpAddress":"203.0.113.1","origin":"http://localhost:8080","passkeyAssertion":{"credentialId":"AA","signature":"!!"}}`,
		`{"eventType":"FAILED_LOGIN_ATTEMPT"}`, `{"factor":"TOTP"}`} {
		f.Add(uint8(i), []byte(body))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		fh.check(t, pick(scaFuzzRoutes, which), "customerId="+c.ID, "application/json", body)
	})
}
