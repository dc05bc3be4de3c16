package httpapi_test

import (
	"encoding/hex"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/walletauth"
)

func TestWallet_ProvisionedWithEmailOTP(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
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

func TestWallet_SignedRetryRefusals(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	path, body := "/internal-accounts/"+acct, map[string]any{"privateEnabled": true}
	first := s.do("PATCH", path, body)
	require.Equal(t, 202, first.Status, "%s", first.Raw)
	payload, reqID := first.Body["payloadToSign"].(string), first.Body["requestId"].(string)
	assert.NotEmpty(t, first.Body["expiresAt"])
	good := stampOf(t, se.Key, payload)
	retry := func(b any, headers ...string) response { return s.do("PATCH", path, b, headers...) }

	requireError(t, retry(body, "Service-Wallet-Signature", good), 401, payments.CodeRequestIDMissing)
	requireError(t, retry(body, "Request-Id", reqID), 401, payments.CodeWalletSignatureMissing)
	requireError(t, retry(body, "Service-Wallet-Signature", good, "Request-Id", "Request:unknown"), 401, payments.CodeUnauthorized)
	requireError(t, retry(map[string]any{"privateEnabled": false}, "Service-Wallet-Signature", good, "Request-Id", reqID), 401, payments.CodeWalletSignatureBodyMismatch)
	requireError(t, retry(body, "Service-Wallet-Signature", "not-a-stamp", "Request-Id", reqID), 401, payments.CodeWalletSignatureMalformed)
	requireError(t, retry(body, "Service-Wallet-Signature", stampOf(t, se.Key, payload+" "), "Request-Id", reqID), 401, payments.CodeWalletSignatureInvalid)
	requireError(t, retry(body, "Service-Wallet-Signature", stampOf(t, newKey(t), payload), "Request-Id", reqID), 401, payments.CodeWalletSignatureInvalid)
	// Another wallet's pending request is not this one's.
	_, other := s.wallet(set("email", "other@example.com"), set("phoneNumber", "+14155550199"))
	requireError(t, s.do("PATCH", "/internal-accounts/"+other, body, "Service-Wallet-Signature", good, "Request-Id", reqID), 401, payments.CodeUnauthorized)
	assert.Equal(t, false, s.do("GET", "/customers/internal-accounts?type=EMBEDDED_WALLET&limit=100", nil).Body["data"].([]any)[0].(map[string]any)["privateEnabled"], "nothing changed")

	ok := retry(body, "Service-Wallet-Signature", good, "Request-Id", reqID)
	require.Equal(t, 200, ok.Status, "%s", ok.Raw)
	requireError(t, retry(body, "Service-Wallet-Signature", good, "Request-Id", reqID), 401, payments.CodeUnauthorized, []string{}...)

	// An expired request cannot be signed.
	late := s.do("PATCH", path, body)
	s.clock.Advance(payments.SignedRequestTTL + 1)
	requireError(t, retry(body, "Service-Wallet-Signature", stampOf(t, se.Key, late.Body["payloadToSign"].(string)), "Request-Id", late.Body["requestId"].(string)), 401, payments.CodeUnauthorized)

	// The sandbox's legacy literal is still accepted.
	lit := s.do("PATCH", path, map[string]any{"privateEnabled": false})
	r := retry(map[string]any{"privateEnabled": false}, "Service-Wallet-Signature", payments.LegacyWalletSignature, "Request-Id", lit.Body["requestId"].(string))
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Equal(t, false, r.Body["privateEnabled"])

	// Bad input is 400 before any challenge; other accounts have no privacy.
	requireError(t, s.do("PATCH", path, map[string]any{}), 400, payments.CodeInvalidInput, "privateEnabled")
	requireError(t, s.do("PATCH", "/internal-accounts/InternalAccount:nope", body), 404, payments.CodeAccountNotFound)
	requireError(t, s.do("POST", "/internal-accounts/"+acct+"/export", map[string]any{"clientPublicKey": pubHex(t, se.Key)}), 400, payments.CodeInvalidInput, "clientPublicKey")
}

func TestWallet_OTPCodes(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	cred := s.credentialOf(acct, "EMAIL_OTP")
	verify := func(body map[string]any) response { return s.do("POST", "/auth/credentials/"+cred+"/verify", body) }
	ch := s.do("POST", "/auth/credentials/"+cred+"/challenge", map[string]any{})
	require.Equal(t, 200, ch.Status, "%s", ch.Raw)
	target := ch.Body["otpEncryptionTargetBundle"].(string)
	tek := newKey(t)
	for i := 1; i < payments.WalletOTPAttempts; i++ {
		r := verify(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, target, "123456", tek)})
		requireError(t, r, 401, payments.CodeUnauthorized)
		assert.Equal(t, "Invalid OTP code", r.Body["reason"])
	}
	locked := verify(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, target, "123456", tek)})
	requireError(t, locked, 429, payments.CodeRateLimited)
	assert.Equal(t, "900", locked.Header.Get("Retry-After"), "5 wrong codes at once: locked the whole 15-minute window")
	requireError(t, verify(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, target, "000000", tek)}), 429, payments.CodeRateLimited)
	requireError(t, s.do("POST", "/auth/credentials/"+cred+"/challenge", nil), 429, payments.CodeRateLimited)
	s.clock.Advance(payments.WalletOTPLockout)
	requireError(t, verify(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, target, "000000", tek)}), 401, payments.CodeUnauthorized)

	// A new challenge: a bundle sealed to the old target does not open.
	ch = s.do("POST", "/auth/credentials/"+cred+"/challenge", nil)
	requireError(t, verify(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, target, "000000", tek)}), 400, payments.CodeInvalidInput, "encryptedOtpBundle")
	requireError(t, verify(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": "{}"}), 400, payments.CodeInvalidInput, "encryptedOtpBundle")
	requireError(t, verify(map[string]any{"type": "SMS_OTP", "encryptedOtpBundle": "{}"}), 400, payments.CodeInvalidInput, "type")
	requireError(t, verify(map[string]any{"type": "EMAIL_OTP"}), 400, payments.CodeInvalidInput, "encryptedOtpBundle")
	requireError(t, s.do("POST", "/auth/credentials/AuthMethod:nope/verify", map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": "{}"}), 404, payments.CodeAuthMethodNotFound)

	// The retry must be stamped by the key sealed in the attempt.
	body := map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, ch.Body["otpEncryptionTargetBundle"].(string), "000000", tek)}
	first := verify(body)
	require.Equal(t, 202, first.Status, "%s", first.Raw)
	assert.Equal(t, "EMAIL_OTP", first.Body["type"])
	requireError(t, s.do("POST", "/auth/credentials/"+cred+"/verify", body, "Service-Wallet-Signature", stampOf(t, newKey(t), first.Body["payloadToSign"].(string)),
		"Request-Id", first.Body["requestId"].(string)), 401, payments.CodeWalletSignatureInvalid)
	done := s.do("POST", "/auth/credentials/"+cred+"/verify", body, "Service-Wallet-Signature", stampOf(t, tek, first.Body["payloadToSign"].(string)),
		"Request-Id", first.Body["requestId"].(string))
	require.Equal(t, 200, done.Status, "%s", done.Raw)
	assert.Nil(t, done.Body["encryptedSessionSigningKey"], "the client holds its key")
	// The code is single use.
	requireError(t, verify(body), 401, payments.CodeUnauthorized)
	// An expired OTP is refused.
	ch = s.do("POST", "/auth/credentials/"+cred+"/challenge", nil)
	s.clock.Advance(payments.WalletOTPTTL + 1)
	requireError(t, verify(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, ch.Body["otpEncryptionTargetBundle"].(string), "000000", tek)}), 401, payments.CodeUnauthorized)
}

func TestWallet_PayQuoteFromWallet(t *testing.T) {
	s := walletServer(t)
	id, acct := s.wallet(set("currencies", []string{"USD", "EUR"}))
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 50000}).Status)
	dest := s.eurAccount(id, "DE89370400440532013000")

	immediate := quoteBody(acct, dest, 10000)
	immediate["immediatelyExecute"] = true
	requireError(t, s.do("POST", "/quotes", immediate), 400, payments.CodeInvalidInput, "immediatelyExecute")

	q := s.do("POST", "/quotes", quoteBody(acct, dest, 10000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	ins := q.Body["paymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)
	assert.Equal(t, "EMBEDDED_WALLET", ins["accountType"])
	payload := ins["payloadToSign"].(string)
	assert.Contains(t, payload, q.Body["id"].(string))
	exec := "/quotes/" + q.Body["id"].(string) + "/execute"
	requireError(t, s.do("POST", exec, nil), 401, payments.CodeWalletSignatureMissing)
	requireError(t, s.do("POST", exec, nil, "Service-Wallet-Signature", "garbage"), 401, payments.CodeWalletSignatureMalformed)
	requireError(t, s.do("POST", exec, nil, "Service-Wallet-Signature", stampOf(t, newKey(t), payload)), 401, payments.CodeWalletSignatureInvalid)
	requireError(t, s.do("POST", exec, nil, "Service-Wallet-Signature", stampOf(t, se.Key, payload+"x")), 401, payments.CodeWalletSignatureInvalid)
	bal, _ := s.usdBalance(acct)
	assert.EqualValues(t, 50000, bal, "nothing moved")

	x := s.do("POST", exec, nil, "Service-Wallet-Signature", stampOf(t, se.Key, payload))
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	assert.Equal(t, "COMPLETED", s.do("GET", "/quotes/"+q.Body["id"].(string), nil).Body["status"], "settled")
	bal, _ = s.usdBalance(acct)
	assert.EqualValues(t, 40000, bal)
	require.NoError(t, payments.CheckLedger(ctx, s.store))

	// The engine's plain Execute (agents, SCA) cannot pay from a wallet.
	q2 := s.do("POST", "/quotes", quoteBody(acct, dest, 100))
	_, err := s.eng.Quotes.Execute(ctx, q2.Body["id"].(string))
	assert.Equal(t, payments.CodeWalletSignatureMissing, payments.CodeOf(err))
}

func TestWallet_DelegatedKeys(t *testing.T) {
	s := cardServer(t)
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"embeddedWalletConfig": map[string]any{"appName": "Acme"}}).Status)
	holder, acct := s.wallet()
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	card := s.card(holder, acct)
	body := map[string]any{"cardId": card["id"], "internalAccountId": acct, "nickname": "Card payments key"}

	leg1 := s.do("POST", "/auth/delegated-keys", body)
	require.Equal(t, 202, leg1.Status, "%s", leg1.Raw)
	leg2 := s.do("POST", "/auth/delegated-keys", body, "Service-Wallet-Signature", stampOf(t, se.Key, leg1.Body["payloadToSign"].(string)),
		"Request-Id", leg1.Body["requestId"].(string))
	require.Equal(t, 202, leg2.Status, "%s", leg2.Raw)
	assert.NotEqual(t, leg1.Body["requestId"], leg2.Body["requestId"])
	pending := s.do("GET", "/auth/delegated-keys?accountId="+acct, nil).Body["data"].([]any)
	require.Len(t, pending, 1)
	assert.Equal(t, "PENDING", pending[0].(map[string]any)["status"])
	requireError(t, s.do("POST", "/auth/delegated-keys", body, "Service-Wallet-Signature", stampOf(t, newKey(t), leg2.Body["payloadToSign"].(string)),
		"Request-Id", leg2.Body["requestId"].(string)), 401, payments.CodeWalletSignatureInvalid)
	leg3 := s.do("POST", "/auth/delegated-keys", body, "Service-Wallet-Signature", stampOf(t, se.Key, leg2.Body["payloadToSign"].(string)),
		"Request-Id", leg2.Body["requestId"].(string))
	require.Equal(t, 201, leg3.Status, "%s", leg3.Raw)
	assert.Equal(t, "ACTIVE", leg3.Body["status"])
	assert.Len(t, leg3.Body["publicKey"], 66)
	key := leg3.Body["id"].(string)
	fs := leg3.Body["fundingSourceId"].(string)
	assert.Equal(t, leg3.Raw, s.do("GET", "/auth/delegated-keys/"+key, nil).Raw)
	assert.Len(t, s.do("GET", "/auth/delegated-keys?fundingSourceId="+fs, nil).Body["data"], 1)

	requireError(t, s.do("POST", "/auth/delegated-keys", body), 409, payments.CodeConflict)
	requireError(t, s.do("POST", "/auth/delegated-keys", map[string]any{"cardId": card["id"], "internalAccountId": acct}), 400, payments.CodeInvalidInput, "nickname")
	requireError(t, s.do("GET", "/auth/delegated-keys", nil), 400, payments.CodeInvalidInput, "accountId")
	require.Equal(t, 204, s.do("DELETE", "/auth/delegated-keys/"+key, nil).Status)
	requireError(t, s.do("DELETE", "/auth/delegated-keys/"+key, nil), 400, payments.CodeInvalidInput, "id")
	requireError(t, s.do("GET", "/auth/delegated-keys/DelegatedKey:nope", nil), 404, payments.CodeNotFound)
	assert.Equal(t, 202, s.do("POST", "/auth/delegated-keys", body).Status, "a revoked key frees the funding source")
}

func TestWallet_CustomerContactChange(t *testing.T) {
	s := walletServer(t)
	id, acct := s.wallet()
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	_, _ = s.wallet(set("email", "taken@example.com"), set("phoneNumber", "+14155550100"))
	path := "/customers/" + id

	// A change that touches no credential applies at once.
	r := s.do("PATCH", path, map[string]any{"customerType": "INDIVIDUAL", "fullName": "Jane Q. Doe"})
	require.Equal(t, 200, r.Status, "%s", r.Raw)

	requireError(t, s.do("PATCH", path, map[string]any{"customerType": "INDIVIDUAL", "email": "taken@example.com"}), 409, payments.CodeEmailOtpEmailAlreadyExists)
	body := map[string]any{"customerType": "INDIVIDUAL", "email": "jane.new@example.com"}
	first := s.do("PATCH", path, body)
	require.Equal(t, 202, first.Status, "%s", first.Raw)
	assert.Contains(t, first.Body["payloadToSign"], "ACTIVITY_TYPE_UPDATE_USER_EMAIL")
	assert.Equal(t, "jane@example.com", s.do("GET", path, nil).Body["email"], "nothing changes before the signed retry")
	requireError(t, s.do("PATCH", path, map[string]any{"customerType": "INDIVIDUAL", "email": "x@example.com"}, "Service-Wallet-Signature",
		stampOf(t, se.Key, first.Body["payloadToSign"].(string)), "Request-Id", first.Body["requestId"].(string)), 401, payments.CodeWalletSignatureBodyMismatch)
	done := s.do("PATCH", path, body, "Service-Wallet-Signature", stampOf(t, se.Key, first.Body["payloadToSign"].(string)),
		"Request-Id", first.Body["requestId"].(string))
	require.Equal(t, 200, done.Status, "%s", done.Raw)
	assert.Equal(t, "jane.new@example.com", done.Body["email"])
	assert.Equal(t, "jane.new@example.com", s.do("GET", "/auth/credentials?accountId="+acct, nil).Body["data"].([]any)[0].(map[string]any)["nickname"])

	// The old email is free again, the new one taken.
	_, third := s.wallet(set("email", "jane@example.com"), set("phoneNumber", "+14155550111"))
	assert.Len(t, s.do("GET", "/auth/credentials?accountId="+third, nil).Body["data"], 1)

	// The engine's plain Update cannot skip the signature.
	_, err := s.eng.Customers.Update(ctx, id, payments.CustomerInput{CustomerType: "INDIVIDUAL", Email: "other@example.com"})
	assert.Equal(t, payments.CodeWalletSignatureMissing, payments.CodeOf(err))

	// Phone: tied once an SMS_OTP credential exists; a changed credential
	// set between the legs is a conflict.
	sms := s.signed(se.Key, "POST", "/auth/credentials", map[string]any{"type": "SMS_OTP", "accountId": acct})
	require.Equal(t, 201, sms.Status, "%s", sms.Raw)
	pb := map[string]any{"customerType": "INDIVIDUAL", "phoneNumber": "+14155550999"}
	pf := s.do("PATCH", path, pb)
	require.Equal(t, 202, pf.Status, "%s", pf.Raw)
	require.Equal(t, 204, s.signed(se.Key, "DELETE", "/auth/credentials/"+sms.Body["id"].(string), nil).Status)
	require.Equal(t, 201, s.signed(se.Key, "POST", "/auth/credentials", map[string]any{"type": "SMS_OTP", "accountId": acct}).Status)
	requireError(t, s.do("PATCH", path, pb, "Service-Wallet-Signature", stampOf(t, se.Key, pf.Body["payloadToSign"].(string)), "Request-Id", pf.Body["requestId"].(string)),
		409, payments.CodeSmsOtpCredentialSetChanged)
	pr := s.signed(se.Key, "PATCH", path, pb)
	require.Equal(t, 200, pr.Status, "%s", pr.Raw)
	assert.Equal(t, "+14155550999", pr.Body["phoneNumber"])
	assert.Equal(t, "+14155550999", s.credentialNickname(acct, "SMS_OTP"))
}

func (s *server) credentialNickname(acct, typ string) string {
	for _, c := range s.do("GET", "/auth/credentials?accountId="+acct, nil).Body["data"].([]any) {
		if m := c.(map[string]any); m["type"] == typ {
			return m["nickname"].(string)
		}
	}
	return ""
}

// A wallet payment of a customer in an SCA region: the stamp is checked on
// execute, the SCA challenge follows, and authorizing it releases the
// payment without a second stamp.
func TestWallet_PayQuoteWithSCA(t *testing.T) {
	s := walletServer(t)
	eu, acct := s.wallet(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 5000}).Status)
	q := s.do("POST", "/quotes", quoteBody(acct, s.eurAccount(eu, "DE89370400440532013000"), 2000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	payload := q.Body["paymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)["payloadToSign"].(string)
	qid := q.Body["id"].(string)
	requireError(t, s.do("POST", "/quotes/"+qid+"/execute", nil), 401, payments.CodeWalletSignatureMissing)
	x := s.do("POST", "/quotes/"+qid+"/execute", nil, "Service-Wallet-Signature", stampOf(t, se.Key, payload))
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	assert.Equal(t, "PENDING_AUTHORIZATION", x.Body["status"])
	s.scaLogin(eu)
	a := s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"})
	require.Equal(t, 200, a.Status, "%s", a.Raw)
	assert.Equal(t, "COMPLETED", s.do("GET", "/quotes/"+qid, nil).Body["status"])
}

// Wrong OTP codes count per credential, not per challenge: 10 challenges
// with 4 wrong codes each reach 429 at the 5th wrong code, later challenges
// and the right code are refused until the window passes, then the login
// works.
func TestWallet_OTPWrongCodesLockAcrossChallenges(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	cred := s.credentialOf(acct, "EMAIL_OTP")
	tek := newKey(t)
	verify := func(target, code string) response {
		return s.do("POST", "/auth/credentials/"+cred+"/verify", map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealOTP(t, target, code, tek)})
	}
	statuses := map[string]int{}
	var target string
	for range 10 {
		s.clock.Advance(payments.WalletOTPResendInterval)
		ch := s.do("POST", "/auth/credentials/"+cred+"/challenge", nil)
		if ch.Status != 200 {
			requireError(t, ch, 429, payments.CodeRateLimited)
			assert.NotEmpty(t, ch.Header.Get("Retry-After"))
			statuses["challenge 429"]++
			continue
		}
		target = ch.Body["otpEncryptionTargetBundle"].(string)
		for range 4 {
			r := verify(target, "123456")
			statuses[strconv.Itoa(r.Status)]++
			if r.Status == 429 {
				assert.NotEmpty(t, r.Header.Get("Retry-After"))
			}
		}
	}
	assert.Equal(t, map[string]int{"401": payments.WalletOTPAttempts - 1, "429": 8 - (payments.WalletOTPAttempts - 1), "challenge 429": 8}, statuses)

	right := verify(target, payments.SandboxOTPCode)
	requireError(t, right, 429, payments.CodeRateLimited)
	wait, err := strconv.Atoi(right.Header.Get("Retry-After"))
	require.NoError(t, err)
	s.clock.Advance(time.Duration(wait-1) * time.Second)
	requireError(t, s.do("POST", "/auth/credentials/"+cred+"/challenge", nil), 429, payments.CodeRateLimited)
	s.clock.Advance(time.Second)
	s.otpLogin(cred, "EMAIL_OTP")
}

// OTP challenges are limited per credential: WalletOTPResendInterval apart
// while the last code is outstanding, WalletOTPChallengesPerHour an hour
// (429 with Retry-After); after the hour, the login works.
func TestWallet_OTPChallengeLimit(t *testing.T) {
	s := walletServer(t)
	_, acct := s.wallet()
	cred := s.credentialOf(acct, "EMAIL_OTP")
	challenge := func() response { return s.do("POST", "/auth/credentials/"+cred+"/challenge", nil) }
	require.Equal(t, 200, challenge().Status)
	again := challenge()
	requireError(t, again, 429, payments.CodeRateLimited)
	assert.Equal(t, "30", again.Header.Get("Retry-After"))
	s.clock.Advance(payments.WalletOTPResendInterval - time.Second)
	requireError(t, challenge(), 429, payments.CodeRateLimited)
	s.clock.Advance(time.Second)
	for i := 1; i < payments.WalletOTPChallengesPerHour; i++ {
		r := challenge()
		require.Equal(t, 200, r.Status, "challenge %d: %s", i+1, r.Raw)
		s.clock.Advance(payments.WalletOTPResendInterval)
	}
	// Ten challenges 30 s apart since 0:00; it is 5:00.
	over := challenge()
	requireError(t, over, 429, payments.CodeRateLimited)
	assert.Equal(t, "3300", over.Header.Get("Retry-After"))
	s.clock.Advance(3300 * time.Second)
	s.otpLogin(cred, "EMAIL_OTP")
}

// TestWallet_GlobalAccountUSDB: on a platform that supports USDB, a
// customer's USDB is held in its Global Account (an EMBEDDED_WALLET, with
// no INTERNAL_CRYPTO USDB account beside it), USDB is quoted at par with
// USD, and a withdrawal from the wallet to the customer's US bank account,
// executed with the wallet's signature, completes.
func TestWallet_GlobalAccountUSDB(t *testing.T) {
	s := moneyServer(t)
	cfg := s.do("GET", "/config", nil)
	require.Equal(t, 200, cfg.Status, "%s", cfg.Raw)
	currencies := append(cfg.Body["supportedCurrencies"].([]any), map[string]any{"currencyCode": "USDB", "minAmount": 1,
		"maxAmount": 1_000_000_000_000, "requiredCounterpartyFields": []any{}, "enabledTransactionTypes": []string{"INCOMING", "OUTGOING"}})
	r := s.do("PATCH", "/config", map[string]any{"supportedCurrencies": currencies})
	require.Equal(t, 200, r.Status, "%s", r.Raw)

	rate := s.do("GET", "/exchange-rates?sourceCurrency=USDB&destinationCurrency=USD&sendingAmount=1000000", nil)
	require.Equal(t, 200, rate.Status, "%s", rate.Raw)
	rates := rate.Body["data"].([]any)
	require.Len(t, rates, 1)
	assert.EqualValues(t, 1, rates[0].(map[string]any)["exchangeRate"], "USDB is at par with USD")
	assert.EqualValues(t, 100, rates[0].(map[string]any)["receivingAmount"], "1 USDB is 100 cents")

	id := s.customer() // every platform currency
	usdb := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USDB", nil)
	require.Equal(t, 200, usdb.Status, "%s", usdb.Raw)
	list := usdb.Body["data"].([]any)
	require.Len(t, list, 1, "%s", usdb.Raw)
	wallet := list[0].(map[string]any)
	assert.Equal(t, "EMBEDDED_WALLET", wallet["type"])
	acct := wallet["id"].(string)
	usd := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USD", nil).Body["data"].([]any)
	require.Len(t, usd, 1)
	assert.Equal(t, "INTERNAL_FIAT", usd[0].(map[string]any)["type"])

	se := s.otpLogin(s.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")
	require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 50_000_000}).Status)
	bank := s.do("POST", "/customers/external-accounts", usdAccount(id, "123456789"))
	require.Equal(t, 201, bank.Status, "%s", bank.Raw)
	q := s.do("POST", "/quotes", quoteBody(acct, bank.Body["id"].(string), 10_000_000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	assert.Equal(t, "USDB", q.Body["sendingCurrency"].(map[string]any)["code"])
	payload := q.Body["paymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)["payloadToSign"].(string)
	qid := q.Body["id"].(string)
	x := s.do("POST", "/quotes/"+qid+"/execute", nil, "Service-Wallet-Signature", stampOf(t, se.Key, payload))
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	for range 10 {
		if s.do("GET", "/quotes/"+qid, nil).Body["status"] == "COMPLETED" {
			break
		}
		s.clock.Advance(time.Hour)
		_, err := s.eng.ProcessDue(ctx)
		require.NoError(t, err)
	}
	assert.Equal(t, "COMPLETED", s.do("GET", "/quotes/"+qid, nil).Body["status"])
	after := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USDB", nil).Body["data"].([]any)[0].(map[string]any)
	assert.EqualValues(t, 40_000_000, after["balance"].(map[string]any)["amount"])
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}
