package httpapi_test

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments/walletauth"
)

// The client side of embedded wallets, as an app would run it: keys made
// here, OTP attempts sealed with HPKE to the service's target bundle,
// payloads stamped with the session key.

// walletServer is a money server whose platform provisions embedded
// wallets (an embeddedWalletConfig is set).
func walletServer(t *testing.T) *server {
	s := moneyServer(t)
	r := s.do("PATCH", "/config", map[string]any{"embeddedWalletConfig": map[string]any{"appName": "Acme Wallet"}})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	return s
}

// wallet creates a customer (USD) and returns it and its embedded wallet.
func (s *server) wallet(mutate ...func(map[string]any)) (customerID, acct string) {
	s.t.Helper()
	customerID = s.customer(append([]func(map[string]any){set("currencies", []string{"USD"})}, mutate...)...)
	r := s.do("GET", "/customers/internal-accounts?customerId="+customerID+"&type=EMBEDDED_WALLET", nil)
	require.Equal(s.t, 200, r.Status, "%s", r.Raw)
	list := r.Body["data"].([]any)
	require.Len(s.t, list, 1, "%s", r.Raw)
	return customerID, list[0].(map[string]any)["id"].(string)
}

// credentialOf returns the id of the wallet's credential of type typ.
func (s *server) credentialOf(acct, typ string) string {
	s.t.Helper()
	for _, c := range s.do("GET", "/auth/credentials?accountId="+acct, nil).Body["data"].([]any) {
		if m := c.(map[string]any); m["type"] == typ {
			return m["id"].(string)
		}
	}
	s.t.Fatalf("wallet %s has no %s credential", acct, typ)
	return ""
}

// newKey makes a P-256 key pair.
func newKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	return k
}

// pubHex is a key's compressed hex.
func pubHex(t testing.TB, k *ecdsa.PrivateKey) string {
	p, err := walletauth.CompressedKey(&k.PublicKey)
	require.NoError(t, err)
	return p
}

// stampOf stamps payload with k.
func stampOf(t testing.TB, k *ecdsa.PrivateKey, payload string) string {
	s, err := walletauth.SignStamp(k, []byte(payload))
	require.NoError(t, err)
	return s
}

// session is a logged-in wallet session: its id and signing key.
type session struct {
	ID  string
	Key *ecdsa.PrivateKey
}

// sealOTP seals code and the TEK's public key to a challenge's target.
func sealOTP(t testing.TB, target, code string, tek *ecdsa.PrivateKey) string {
	b, err := walletauth.SealOTP(target, walletauth.OTPAttempt{Code: code, PublicKey: pubHex(t, tek)})
	require.NoError(t, err)
	return b
}

// otpLogin runs the whole OTP login of credential cred (EMAIL_OTP or
// SMS_OTP): challenge, sealed attempt (202), stamped retry (200).
func (s *server) otpLogin(cred, typ string) session {
	s.t.Helper()
	ch := s.do("POST", "/auth/credentials/"+cred+"/challenge", nil)
	require.Equal(s.t, 200, ch.Status, "%s", ch.Raw)
	tek := newKey(s.t)
	body := map[string]any{"type": typ, "encryptedOtpBundle": sealOTP(s.t, ch.Body["otpEncryptionTargetBundle"].(string), payments.SandboxOTPCode, tek)}
	first := s.do("POST", "/auth/credentials/"+cred+"/verify", body)
	require.Equal(s.t, 202, first.Status, "%s", first.Raw)
	done := s.do("POST", "/auth/credentials/"+cred+"/verify", body, s.walletHeader(),
		stampOf(s.t, tek, first.Body["payloadToSign"].(string)), "Request-Id", first.Body["requestId"].(string))
	require.Equal(s.t, 200, done.Status, "%s", done.Raw)
	return session{ID: done.Body["id"].(string), Key: tek}
}

// signed runs a signed flow: the call, then its stamped retry with the same
// body. It returns the retry's answer, or the call's when that is not a
// challenge (a refusal before any).
func (s *server) signed(k *ecdsa.PrivateKey, method, path string, body any) response {
	s.t.Helper()
	first := s.do(method, path, body)
	if first.Status != 202 {
		return first
	}
	return s.do(method, path, body, s.walletHeader(), stampOf(s.t, k, first.Body["payloadToSign"].(string)),
		"Request-Id", first.Body["requestId"].(string))
}

// ecdhKey is k as an ECDH key (to open HPKE bundles sealed to it).
func ecdhKey(t testing.TB, k *ecdsa.PrivateKey) *ecdh.PrivateKey {
	e, err := k.ECDH()
	require.NoError(t, err)
	return e
}

// uncompressed is k's public key, uncompressed hex.
func uncompressed(t testing.TB, k *ecdsa.PrivateKey) string {
	b, err := k.PublicKey.Bytes()
	require.NoError(t, err)
	return hex.EncodeToString(b)
}

// oidcToken is a sandbox OIDC token (dummy signature) with claims.
func oidcToken(claims map[string]any) string {
	h := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`))
	c, _ := json.Marshal(claims)
	return h + "." + base64.RawURLEncoding.EncodeToString(c) + ".sandbox-signature"
}
