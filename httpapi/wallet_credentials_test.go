package httpapi_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/walletauth"
	"github.com/paygrid/payments/walletauth/passkeytest"
)

const walletOrigin = "http://localhost:8080"

// The credential helpers below take the server rather than being its
// methods: server keeps to what the tests of every area share.

// claims are fresh OIDC claims for the server's clock, bound to key.
func claims(s *server, sub, key string) map[string]any {
	now := s.clock.Now()
	c := map[string]any{"iss": "https://accounts.google.com", "aud": "app.example", "sub": sub, "email": "jane@gmail.com",
		"iat": now.Unix() - 5, "exp": now.Add(time.Hour).Unix()}
	if key != "" {
		c["nonce"] = walletauth.Nonce(key)
	}
	return c
}

// registerPasskey adds a passkey credential to acct, signed by se.
func registerPasskey(s *server, acct string, se session, a *passkeytest.Authenticator, challenge string) response {
	s.t.Helper()
	raw, _ := base64.RawURLEncoding.DecodeString(challenge)
	return s.signed(se.Key, "POST", "/auth/credentials", map[string]any{"type": "PASSKEY", "accountId": acct, "nickname": "iPhone Face-ID",
		"challenge": challenge, "attestation": a.Create(raw, walletOrigin)})
}

// passkeyLogin runs the passkey login: challenge for clientKey, assertion,
// verify with Request-Id.
func passkeyLogin(s *server, cred string, a *passkeytest.Authenticator, clientKey string) response {
	s.t.Helper()
	ch := s.do("POST", "/auth/credentials/"+cred+"/challenge", map[string]any{"clientPublicKey": clientKey})
	require.Equal(s.t, 200, ch.Status, "%s", ch.Raw)
	return s.do("POST", "/auth/credentials/"+cred+"/verify", map[string]any{"type": "PASSKEY",
		"assertion": a.Get([]byte(ch.Body["challenge"].(string)), walletOrigin)}, "Request-Id", ch.Body["requestId"].(string))
}

func TestWallet_AddCredentials(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")

	// SMS OTP: a signed addition tied to the customer's phone, then a login.
	first := s.do("POST", "/auth/credentials", map[string]any{"type": "SMS_OTP", "accountId": acct})
	require.Equal(t, 202, first.Status, "%s", first.Raw)
	assert.Equal(t, "SMS_OTP", first.Body["type"])
	assert.Contains(t, first.Body["payloadToSign"], "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER")
	sms := s.do("POST", "/auth/credentials", map[string]any{"type": "SMS_OTP", "accountId": acct}, "Service-Wallet-Signature",
		stampOf(t, se.Key, first.Body["payloadToSign"].(string)), "Request-Id", first.Body["requestId"].(string))
	require.Equal(t, 201, sms.Status, "%s", sms.Raw)
	assert.Equal(t, "+14155550123", sms.Body["nickname"])
	assert.NotEmpty(t, sms.Body["otpEncryptionTargetBundle"])
	s.otpLogin(sms.Body["id"].(string), "SMS_OTP")
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "SMS_OTP", "accountId": acct}), 400, payments.CodeSmsOtpCredentialAlreadyExists)
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "EMAIL_OTP", "accountId": acct}), 400, payments.CodeEmailOtpCredentialAlreadyExists)

	// OAuth: registered identity, then logins with a fresh token whose nonce
	// binds the client key.
	oa := s.signed(se.Key, "POST", "/auth/credentials", map[string]any{"type": "OAUTH", "accountId": acct, "oidcToken": oidcToken(claims(s, "u-1", ""))})
	require.Equal(t, 201, oa.Status, "%s", oa.Raw)
	assert.Equal(t, "jane@gmail.com", oa.Body["nickname"])
	oauth := oa.Body["id"].(string)
	k := newKey(t)
	v := s.do("POST", "/auth/credentials/"+oauth+"/verify", map[string]any{"type": "OAUTH", "oidcToken": oidcToken(claims(s, "u-1", pubHex(t, k))), "clientPublicKey": pubHex(t, k)})
	require.Equal(t, 200, v.Status, "%s", v.Raw)
	assert.Equal(t, "OAUTH", v.Body["type"])
	osess := session{ID: v.Body["id"].(string), Key: k}
	for name, c := range map[string]map[string]any{
		"other subject": claims(s, "u-2", pubHex(t, k)),
		"other nonce":   claims(s, "u-1", pubHex(t, newKey(t))),
		"stale": func() map[string]any {
			c := claims(s, "u-1", pubHex(t, k))
			c["iat"] = s.clock.Now().Unix() - 70
			return c
		}(),
	} {
		r := s.do("POST", "/auth/credentials/"+oauth+"/verify", map[string]any{"type": "OAUTH", "oidcToken": oidcToken(c), "clientPublicKey": pubHex(t, k)})
		requireError(t, r, 401, payments.CodeUnauthorized)
		assert.NotEmpty(t, r.Body["reason"], name)
	}
	requireError(t, s.do("POST", "/auth/credentials/"+oauth+"/verify", map[string]any{"type": "OAUTH", "oidcToken": "sandbox-valid-oidc-token", "clientPublicKey": pubHex(t, k)}),
		400, payments.CodeInvalidInput, "oidcToken")
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "OAUTH", "accountId": acct, "oidcToken": "a.b"}), 400, payments.CodeInvalidInput, "oidcToken")
	requireError(t, s.do("POST", "/auth/credentials/"+oauth+"/challenge", nil), 400, payments.CodeInvalidInput, "id")

	// Passkey: registration verified with WebAuthn, login by assertion.
	auth := passkeytest.New("localhost")
	pk := registerPasskey(s, acct, osess, auth, "ArkQi2yAYHPlgnJNFBlneIwchQdWXBOTrdB-AmMUB21L")
	require.Equal(t, 201, pk.Status, "%s", pk.Raw)
	assert.Equal(t, auth.CredentialID(), pk.Body["credentialId"])
	passkey := pk.Body["id"].(string)
	ck := newKey(t)
	login := passkeyLogin(s, passkey, auth, pubHex(t, ck))
	require.Equal(t, 200, login.Status, "%s", login.Raw)
	psess := session{ID: login.Body["id"].(string), Key: ck}
	// The same WebAuthn credential cannot be registered twice, nor a
	// challenge reused.
	requireError(t, registerPasskey(s, acct, psess, auth, "ArkQi2yAYHPlgnJNFBlneIwchQdWXBOTrdB-AmMUB21M"), 400, payments.CodePasskeyCredentialAlreadyExists)
	requireError(t, registerPasskey(s, acct, psess, passkeytest.New("localhost"), "ArkQi2yAYHPlgnJNFBlneIwchQdWXBOTrdB-AmMUB21L"), 400, payments.CodeInvalidInput, "challenge")
	requireError(t, registerPasskey(s, acct, psess, passkeytest.New("localhost"), "ArkQi2yAYHPlgnJNFBlneIwchQdWXBOTrdB-AmMUB21N"), 409, payments.CodePasskeyAlreadyEnrolled)
	// A bad attestation (other origin) is refused before any challenge.
	raw, _ := base64.RawURLEncoding.DecodeString("AAAA")
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "PASSKEY", "accountId": acct, "nickname": "x", "challenge": "AAAA",
		"attestation": passkeytest.New("localhost").Create(raw, "https://evil.example")}), 401, payments.CodeUnauthorized)
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "PASSKEY", "accountId": acct}), 400, payments.CodeInvalidInput, "nickname", "challenge", "attestation")

	// Passkey refusals: no Request-Id, a stuck counter, user not present,
	// the wrong challenge; the legacy literal is accepted in the sandbox.
	ch := s.do("POST", "/auth/credentials/"+passkey+"/challenge", map[string]any{"clientPublicKey": pubHex(t, ck)})
	requireError(t, s.do("POST", "/auth/credentials/"+passkey+"/verify", map[string]any{"type": "PASSKEY", "assertion": auth.Get([]byte(ch.Body["challenge"].(string)), walletOrigin)}),
		401, payments.CodeRequestIDMissing)
	require.Equal(t, 200, passkeyLogin(s, passkey, auth, pubHex(t, ck)).Status)
	auth.StuckCounter = true
	requireError(t, passkeyLogin(s, passkey, auth, pubHex(t, ck)), 401, payments.CodeUnauthorized)
	auth.StuckCounter, auth.Flags = false, 0
	requireError(t, passkeyLogin(s, passkey, auth, pubHex(t, ck)), 401, payments.CodeUnauthorized)
	auth.Flags = passkeytest.FlagUserPresent | passkeytest.FlagUserVerified
	ch = s.do("POST", "/auth/credentials/"+passkey+"/challenge", map[string]any{"clientPublicKey": pubHex(t, ck)})
	requireError(t, s.do("POST", "/auth/credentials/"+passkey+"/verify", map[string]any{"type": "PASSKEY", "assertion": auth.Get([]byte("other"), walletOrigin)},
		"Request-Id", ch.Body["requestId"].(string)), 401, payments.CodeUnauthorized)
	lit := auth.Get([]byte("x"), walletOrigin)
	lit.Signature = payments.LegacyPasskeySignature
	legacy := s.do("POST", "/auth/credentials/"+passkey+"/verify", map[string]any{"type": "PASSKEY", "assertion": lit}, "Request-Id", ch.Body["requestId"].(string))
	require.Equal(t, 200, legacy.Status, "%s", legacy.Raw)
	requireError(t, s.do("POST", "/auth/credentials/"+passkey+"/challenge", map[string]any{}), 400, payments.CodeInvalidInput, "clientPublicKey")

	// Legacy session key: an uncompressed clientPublicKey gets the session's
	// key sealed to it, and that key signs.
	lk := newKey(t)
	lg := passkeyLogin(s, passkey, auth, uncompressed(t, lk))
	require.Equal(t, 200, lg.Status, "%s", lg.Raw)
	scalar, err := walletauth.OpenSessionKey(ecdhKey(t, lk), lg.Body["encryptedSessionSigningKey"].(string))
	require.NoError(t, err)
	sk, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), scalar)
	require.NoError(t, err)
	assert.Equal(t, 0, sk.D.Cmp(new(big.Int).SetBytes(scalar)))
	r := s.signed(sk, "PATCH", "/internal-accounts/"+acct, map[string]any{"privateEnabled": true})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Nil(t, s.do("GET", "/auth/sessions?accountId="+acct, nil).Body["data"].([]any)[0].(map[string]any)["encryptedSessionSigningKey"], "listed sessions carry no key")

	// Revoking: signed by another credential's session; its sessions end.
	creds := s.do("GET", "/auth/credentials?accountId="+acct, nil).Body["data"].([]any)
	require.Len(t, creds, 4)
	requireError(t, s.signed(osess.Key, "DELETE", "/auth/credentials/"+oauth, nil), 401, payments.CodeWalletSignatureInvalid)
	rv := s.signed(se.Key, "DELETE", "/auth/credentials/"+oauth, nil)
	require.Equal(t, 204, rv.Status, "%s", rv.Raw)
	requireError(t, s.do("DELETE", "/auth/sessions/"+osess.ID, nil), 404, payments.CodeSessionNotFound)
	requireError(t, s.do("DELETE", "/auth/credentials/"+oauth, nil), 404, payments.CodeAuthMethodNotFound)
	assert.Len(t, s.do("GET", "/auth/credentials?accountId="+acct, nil).Body["data"].([]any), 3)
}

func TestWallet_LastCredentialStays(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	cred := s.credentialOf(acct, "EMAIL_OTP")
	requireError(t, s.do("DELETE", "/auth/credentials/"+cred, nil), 400, payments.CodeInvalidInput, "id")
	// A wallet without credentials (no email) takes its first one unsigned.
	_, bare := s.wallet(func(b map[string]any) { delete(b, "email") }, set("phoneNumber", "+14155550177"))
	assert.Empty(t, s.do("GET", "/auth/credentials?accountId="+bare, nil).Body["data"])
	r := s.do("POST", "/auth/credentials", map[string]any{"type": "SMS_OTP", "accountId": bare})
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "EMAIL_OTP", "accountId": bare}), 400, payments.CodeInvalidInput, "type")
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "FACE", "accountId": ""}), 400, payments.CodeInvalidInput, "type", "accountId")
	requireError(t, s.do("POST", "/auth/credentials", map[string]any{"type": "SMS_OTP", "accountId": "InternalAccount:nope"}), 404, payments.CodeAccountNotFound)
}
