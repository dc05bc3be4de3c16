package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
)

// Idempotency-Key on the wallet routes: a retry replays the first answer
// and creates nothing twice; a signed retry that reuses the key of the call
// that asked for its challenge runs (its scope gains its Request-Id), and a
// repeat of it replays its answer.

// keyed is the header pair of an Idempotency-Key.
func keyed(k string) []string { return []string{"Idempotency-Key", k} }

// requireReplay asserts that r repeats first byte for byte, marked replayed.
func requireReplay(t *testing.T, first, r response) {
	t.Helper()
	require.Equal(t, first.Status, r.Status, "%s", r.Raw)
	assert.Equal(t, string(first.Raw), string(r.Raw))
	assert.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
}

// signedBy is the headers of a signed retry of challenge ch, stamped with
// se's key, and the Idempotency-Key k.
func (s *server) signedBy(se session, ch response, k string) []string {
	return append(keyed(k), s.walletHeader(), stampOf(s.t, se.Key, ch.Body["payloadToSign"].(string)), "Request-Id", ch.Body["requestId"].(string))
}

func TestWallet_IdempotentChallengeAndVerify(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	cred := s.credentialOf(acct, "EMAIL_OTP")
	path := "/auth/credentials/" + cred

	ch := s.do("POST", path+"/challenge", nil, keyed("challenge-1")...)
	require.Equal(t, 200, ch.Status, "%s", ch.Raw)
	assert.Empty(t, ch.Header.Get("Idempotent-Replayed"))
	// Within the resend interval a new challenge is refused; the retry
	// replays the first one, whose target still opens the code.
	requireReplay(t, ch, s.do("POST", path+"/challenge", nil, keyed("challenge-1")...))
	requireError(t, s.do("POST", path+"/challenge", nil, keyed("challenge-2")...), 429, payments.CodeRateLimited)

	tek := newKey(t)
	body := map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, ch.Body["otpEncryptionTargetBundle"].(string), payments.SandboxOTPCode, tek)}
	leg := s.do("POST", path+"/verify", body, keyed("verify-1")...)
	require.Equal(t, 202, leg.Status, "%s", leg.Raw)
	requireReplay(t, leg, s.do("POST", path+"/verify", body, keyed("verify-1")...))
	signed := s.do("POST", path+"/verify", body, s.signedBy(session{Key: tek}, leg, "verify-1")...)
	require.Equal(t, 200, signed.Status, "%s", signed.Raw)
	assert.Empty(t, signed.Header.Get("Idempotent-Replayed"))
	requireReplay(t, signed, s.do("POST", path+"/verify", body, s.signedBy(session{Key: tek}, leg, "verify-1")...))

	sessions := s.do("GET", "/auth/sessions?accountId="+acct, nil).Body["data"].([]any)
	require.Len(t, sessions, 1, "one session")
	assert.Equal(t, signed.Body["id"], sessions[0].(map[string]any)["id"])
	requireError(t, s.do("POST", path+"/verify", map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": "other"}, keyed("verify-1")...),
		409, payments.CodeConflict)
}

// The signed retry is told apart by the header the brand reads, so a
// branded server (Acme-Wallet-Signature) scopes it the same way.
func TestWallet_IdempotentSignedCredential(t *testing.T) {
	for _, brand := range []string{"", "Acme"} {
		t.Run("brand="+brand, func(t *testing.T) {
			s := walletServer(t)
			if brand != "" {
				s = s.branded(brand)
			}
			_, acct := s.wallet()
			se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
			body := map[string]any{"type": "SMS_OTP", "accountId": acct}

			first := s.do("POST", "/auth/credentials", body, keyed("sms-1")...)
			require.Equal(t, 202, first.Status, "%s", first.Raw)
			requireReplay(t, first, s.do("POST", "/auth/credentials", body, keyed("sms-1")...))
			created := s.do("POST", "/auth/credentials", body, s.signedBy(se, first, "sms-1")...)
			require.Equal(t, 201, created.Status, "%s", created.Raw)
			assert.Equal(t, "SMS_OTP", created.Body["type"])
			assert.Empty(t, created.Header.Get("Idempotent-Replayed"))
			// Not SMS_OTP_CREDENTIAL_ALREADY_EXISTS: the first answer again.
			requireReplay(t, created, s.do("POST", "/auth/credentials", body, s.signedBy(se, first, "sms-1")...))
			// The challenge's key without the signature still replays the
			// challenge.
			requireReplay(t, first, s.do("POST", "/auth/credentials", body, keyed("sms-1")...))
			assert.Len(t, s.do("GET", "/auth/credentials?accountId="+acct, nil).Body["data"], 2)
		})
	}
}

func TestWallet_IdempotentDelegatedKey(t *testing.T) {
	s := cardServer(t)
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"embeddedWalletConfig": map[string]any{"appName": "Acme"}}).Status)
	holder, acct := s.wallet()
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	card := s.card(holder, acct)
	body := map[string]any{"cardId": card["id"], "internalAccountId": acct, "nickname": "Card payments key"}
	const k = "delegated-1"

	leg1 := s.do("POST", "/auth/delegated-keys", body, keyed(k)...)
	require.Equal(t, 202, leg1.Status, "%s", leg1.Raw)
	requireReplay(t, leg1, s.do("POST", "/auth/delegated-keys", body, keyed(k)...))
	leg2 := s.do("POST", "/auth/delegated-keys", body, s.signedBy(se, leg1, k)...)
	require.Equal(t, 202, leg2.Status, "%s", leg2.Raw)
	assert.NotEqual(t, leg1.Body["requestId"], leg2.Body["requestId"])
	requireReplay(t, leg2, s.do("POST", "/auth/delegated-keys", body, s.signedBy(se, leg1, k)...))
	leg3 := s.do("POST", "/auth/delegated-keys", body, s.signedBy(se, leg2, k)...)
	require.Equal(t, 201, leg3.Status, "%s", leg3.Raw)
	assert.Equal(t, "ACTIVE", leg3.Body["status"])
	requireReplay(t, leg3, s.do("POST", "/auth/delegated-keys", body, s.signedBy(se, leg2, k)...))
	keys := s.do("GET", "/auth/delegated-keys?accountId="+acct, nil).Body["data"].([]any)
	require.Len(t, keys, 1, "one key, created once")
	assert.Equal(t, leg3.Body["id"], keys[0].(map[string]any)["id"])
}

// A wallet quote's execution answers 401 WALLET_SIGNATURE_MISSING without
// the stamp and records nothing; the stamped retry with the same key runs,
// and its repeat replays it.
func TestWallet_IdempotentSignedQuoteExecution(t *testing.T) {
	s := walletServer(t)
	id, acct := s.wallet(set("currencies", []string{"USD", "EUR"}))
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 50000}).Status)
	q := s.do("POST", "/quotes", quoteBody(acct, s.eurAccount(id, "DE89370400440532013000"), 10000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	payload := q.Body["paymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)["payloadToSign"].(string)
	exec := "/quotes/" + q.Body["id"].(string) + "/execute"

	requireError(t, s.do("POST", exec, nil, keyed("exec-1")...), 401, payments.CodeWalletSignatureMissing)
	stamped := append(keyed("exec-1"), s.walletHeader(), stampOf(t, se.Key, payload))
	x := s.do("POST", exec, nil, stamped...)
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	assert.Empty(t, x.Header.Get("Idempotent-Replayed"))
	requireReplay(t, x, s.do("POST", exec, nil, stamped...))
	bal, _ := s.usdBalance(acct)
	assert.EqualValues(t, 40000, bal, "paid once")
}
