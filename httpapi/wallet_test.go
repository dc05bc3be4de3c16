package httpapi_test

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/walletauth"
)

func TestWallet_ProvisionedWithEmailOTP(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	a := s.do("GET", "/customers/internal-accounts/"+acct, nil)
	if a.Status == 404 {
		a = s.do("GET", "/internal-accounts/"+acct, nil)
	}
	creds := s.do("GET", "/auth/credentials?accountId="+acct, nil)
	require.Equal(t, 200, creds.Status, "%s", creds.Raw)
	list := creds.Body["data"].([]any)
	require.Len(t, list, 1)
	c := list[0].(map[string]any)
	assert.Equal(t, "EMAIL_OTP", c["type"])
	assert.Equal(t, "jane@example.com", c["nickname"])
	assert.Equal(t, []any{}, s.do("GET", "/auth/credentials?accountId=InternalAccount:nope", nil).Body["data"])
	requireError(t, s.do("GET", "/auth/credentials", nil), 400, payments.CodeInvalidInput, "accountId")
}

func TestWallet_OTPLoginAndSignedActions(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	cred := s.credentialOf(acct, "EMAIL_OTP")
	se := s.otpLogin(cred, "EMAIL_OTP")

	ss := s.do("GET", "/auth/sessions?accountId="+acct, nil)
	require.Equal(t, 200, ss.Status, "%s", ss.Raw)
	require.Len(t, ss.Body["data"].([]any), 1)
	assert.Equal(t, se.ID, ss.Body["data"].([]any)[0].(map[string]any)["id"])

	// Wallet privacy.
	r := s.signed(se.Key, "PATCH", "/internal-accounts/"+acct, map[string]any{"privateEnabled": true})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Equal(t, true, r.Body["privateEnabled"])
	assert.Equal(t, "EMBEDDED_WALLET", r.Body["type"])

	// Export: the secret sealed to a fresh key, the same on every export.
	exportKey := newKey(t)
	x := s.signed(se.Key, "POST", "/internal-accounts/"+acct+"/export", map[string]any{"clientPublicKey": uncompressed(t, exportKey)})
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	assert.Equal(t, acct, x.Body["id"])
	secret, err := walletauth.OpenExport(ecdhKey(t, exportKey), x.Body["encryptedWalletCredentials"].(string))
	require.NoError(t, err)
	assert.Len(t, secret, 32)
	again := s.signed(se.Key, "POST", "/internal-accounts/"+acct+"/export", map[string]any{"clientPublicKey": uncompressed(t, exportKey)})
	secret2, err := walletauth.OpenExport(ecdhKey(t, exportKey), again.Body["encryptedWalletCredentials"].(string))
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(secret), hex.EncodeToString(secret2))

	// Refresh, then revoke the old session with the new one.
	nk := newKey(t)
	rf := s.signed(se.Key, "POST", "/auth/sessions/"+se.ID+"/refresh", map[string]any{"clientPublicKey": pubHex(t, nk)})
	require.Equal(t, 201, rf.Status, "%s", rf.Raw)
	ns := session{ID: rf.Body["id"].(string), Key: nk}
	assert.NotEqual(t, se.ID, ns.ID)
	rv := s.signed(nk, "DELETE", "/auth/sessions/"+se.ID, nil)
	require.Equal(t, 204, rv.Status, "%s", rv.Raw)
	requireError(t, s.do("DELETE", "/auth/sessions/"+se.ID, nil), 404, payments.CodeSessionNotFound)
	// The revoked session's key no longer signs.
	first := s.do("PATCH", "/internal-accounts/"+acct, map[string]any{"privateEnabled": false})
	require.Equal(t, 202, first.Status)
	requireError(t, s.do("PATCH", "/internal-accounts/"+acct, map[string]any{"privateEnabled": false},
		"Service-Wallet-Signature", stampOf(t, se.Key, first.Body["payloadToSign"].(string)), "Request-Id", first.Body["requestId"].(string)),
		401, payments.CodeWalletSignatureInvalid)
}
