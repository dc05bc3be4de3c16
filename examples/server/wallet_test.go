package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/walletauth"
	"github.com/paygrid/payments/walletauth/passkeytest"
)

// TestParseFlags_WalletRelyingParty: -wallet-origins and -wallet-rp-id (or
// their environment variables) set the passkey relying party; none keeps
// the engine's default, and a misconfiguration is refused at start.
func TestParseFlags_WalletRelyingParty(t *testing.T) {
	none := func(string) string { return "" }
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want walletauth.RelyingParty
	}{
		{name: "default", want: walletauth.RelyingParty{}},
		{name: "origins", args: []string{"-wallet-origins", "http://localhost:5173, http://localhost:8080/"},
			want: walletauth.RelyingParty{ID: "localhost", Origins: []string{"http://localhost:5173", "http://localhost:8080"}}},
		{name: "rp id and subdomain origin", args: []string{"-wallet-origins", "https://app.example.com", "-wallet-rp-id", "example.com"},
			want: walletauth.RelyingParty{ID: "example.com", Origins: []string{"https://app.example.com"}}},
		{name: "rp id only", args: []string{"-wallet-rp-id", "localhost"},
			want: walletauth.RelyingParty{ID: "localhost", Origins: payments.DefaultWalletRelyingParty.Origins}},
		{name: "environment", env: map[string]string{"PAYMENTS_WALLET_ORIGINS": "https://wallet.example.org", "PAYMENTS_WALLET_RP_ID": "example.org"},
			want: walletauth.RelyingParty{ID: "example.org", Origins: []string{"https://wallet.example.org"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parseFlags(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			require.NoError(t, err)
			assert.Equal(t, tc.want, o.walletRP)
			assert.Equal(t, tc.want, engineConfig(o, nil, nil, nil).WalletRelyingParty)
		})
	}
	for _, args := range [][]string{
		{"-wallet-origins", "localhost:5173"},
		{"-wallet-origins", "http://localhost:5173/app"},
		{"-wallet-origins", "https://evil.example", "-wallet-rp-id", "example.com"},
		{"-wallet-rp-id", "example.com"},
		{"-wallet-rp-id", "localhost:5173"},
	} {
		_, err := parseFlags(args, none, io.Discard)
		assert.Error(t, err, "%v", args)
	}
}

// TestRun_WalletOrigins: a server started with -wallet-origins registers an
// embedded-wallet passkey created at that origin, and refuses one from
// another origin with a message naming the origin check.
func TestRun_WalletOrigins(t *testing.T) {
	const devOrigin = "http://localhost:5173"
	base, _, _ := startServer(t, "-wallet-origins", devOrigin)
	const cred = "limits-client:limits-secret-0123456789"
	js := func(v any) string {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	status, body := call(t, cred, "PATCH", base+"/config", `{"embeddedWalletConfig":{"appName":"Dev Wallet"}}`)
	require.Equal(t, 200, status, "%v", body)
	status, body = call(t, cred, "POST", base+"/customers", js(individualBody("dev@example.com")))
	require.Equal(t, 201, status, "%v", body)
	status, body = call(t, cred, "GET", base+"/customers/internal-accounts?type=EMBEDDED_WALLET&customerId="+body["id"].(string), "")
	require.Equal(t, 200, status, "%v", body)
	acct := body["data"].([]any)[0].(map[string]any)["id"].(string)

	// A session by the sandbox's email OTP, to sign the registration with.
	status, body = call(t, cred, "GET", base+"/auth/credentials?accountId="+acct, "")
	require.Equal(t, 200, status, "%v", body)
	otp := body["data"].([]any)[0].(map[string]any)["id"].(string)
	status, body = call(t, cred, "POST", base+"/auth/credentials/"+otp+"/challenge", "")
	require.Equal(t, 200, status, "%v", body)
	tek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	pub, err := walletauth.CompressedKey(&tek.PublicKey)
	require.NoError(t, err)
	sealed, err := walletauth.SealOTP(body["otpEncryptionTargetBundle"].(string), walletauth.OTPAttempt{Code: payments.SandboxOTPCode, PublicKey: pub})
	require.NoError(t, err)
	signed := func(method, path, payload string) (int, map[string]any) {
		t.Helper()
		status, first := call(t, cred, method, base+path, payload)
		if status != 202 {
			return status, first
		}
		stamp, err := walletauth.SignStamp(tek, []byte(first["payloadToSign"].(string)))
		require.NoError(t, err)
		return call(t, cred, method, base+path, payload, "Service-Wallet-Signature", stamp, "Request-Id", first["requestId"].(string))
	}
	status, body = signed("POST", "/auth/credentials/"+otp+"/verify", js(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealed}))
	require.Equal(t, 200, status, "%v", body)

	challenge := []byte("dev-registration-challenge-0123456789")
	passkey := func(origin string) string {
		return js(map[string]any{"type": "PASSKEY", "accountId": acct, "nickname": "dev laptop",
			"challenge": base64.RawURLEncoding.EncodeToString(challenge), "attestation": passkeytest.New("localhost").Create(challenge, origin)})
	}
	status, body = signed("POST", "/auth/credentials", passkey("http://localhost:8080"))
	assert.Equal(t, 401, status, "%v", body)
	assert.Equal(t, "UNAUTHORIZED", body["code"])
	assert.Contains(t, body["message"], "the passkey's origin http://localhost:8080 is not one of the relying party's origins ("+devOrigin+")")

	status, body = signed("POST", "/auth/credentials", passkey(devOrigin))
	require.Equal(t, 201, status, "%v", body)
	assert.Equal(t, "PASSKEY", body["type"])
}
