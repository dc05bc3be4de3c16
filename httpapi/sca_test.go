package httpapi_test

import (
	"context"
	"encoding/base64"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/walletauth/passkeytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const origin = "http://localhost:8080"

// codeLog is a CodeSender that keeps what it was given.
type codeLog struct {
	mu   sync.Mutex
	sent []payments.CodeMessage
}

func (l *codeLog) SendCode(_ context.Context, m payments.CodeMessage) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent = append(l.sent, m)
	return nil
}

func (l *codeLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.sent)
}

// scaServer is a money server whose one-time codes land in the returned
// log.
func scaServer(t *testing.T) (*server, *codeLog) {
	codes, rec := &codeLog{}, &eventRecorder{}
	s := newServer(t, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory, c.Notifier, c.Codes = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}, rec, codes
	})
	recorders.Store(s.eng, rec)
	return s, codes
}

// scaLogin opens an SCA session for an EU customer by SMS.
func (s *server) scaLogin(customerID string) {
	s.t.Helper()
	st := s.do("POST", "/sca/login/start?customerId="+customerID, map[string]any{"factor": "SMS_OTP"})
	require.Equal(s.t, 200, st.Status, "%s", st.Raw)
	c := s.do("POST", "/sca/login/complete?customerId="+customerID, map[string]any{"factor": "SMS_OTP",
		"challengeId": st.Body["challengeId"], "code": sandbox.ContactCode, "endUserIpAddress": "203.0.113.42"})
	require.Equal(s.t, 200, c.Status, "%s", c.Raw)
}

// jitQuote creates a real-time funded quote for customer, paying an EUR
// account; extra members are added to the request.
func (s *server) jitQuote(customerID string, extra map[string]any) response {
	s.t.Helper()
	body := map[string]any{"source": map[string]any{"sourceType": "REALTIME_FUNDING", "currency": "USD", "customerId": customerID},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": s.payee(customerID)},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 2000}
	for k, v := range extra {
		body[k] = v
	}
	return s.do("POST", "/quotes", body)
}

// payee is the customer's EUR external account, created on first use.
func (s *server) payee(customerID string) string {
	s.t.Helper()
	list := s.do("GET", "/customers/external-accounts?customerId="+customerID, nil)
	require.Equal(s.t, 200, list.Status, "%s", list.Raw)
	if data := list.Body["data"].([]any); len(data) > 0 {
		return data[0].(map[string]any)["id"].(string)
	}
	return s.eurAccount(customerID, "DE89370400440532013000")
}

func challenge(r response) map[string]any {
	ch, _ := r.Body["scaChallenge"].(map[string]any)
	return ch
}

// webauthnChallenge decodes the challenge of WebAuthn options.
func webauthnChallenge(t *testing.T, opts any) []byte {
	b, err := base64.RawURLEncoding.DecodeString(opts.(map[string]any)["challenge"].(string))
	require.NoError(t, err)
	return b
}

// TestSCA_OutsideRegions: for a customer outside SCA regions every SCA
// endpoint answers 409 and no challenge ever appears.
func TestSCA_OutsideRegions(t *testing.T) {
	s, codes := scaServer(t)
	us := s.customer(set("currencies", []string{"USD", "EUR"}))
	q := "?customerId=" + us
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/sca/factors" + q, nil},
		{"POST", "/sca/factors" + q, map[string]any{"type": "TOTP"}},
		{"POST", "/sca/factors/confirm" + q, map[string]any{"type": "TOTP", "secret": "00", "code": "123456"}},
		{"DELETE", "/sca/factors/abc" + q, nil},
		{"POST", "/sca/login/start" + q, map[string]any{"factor": "SMS_OTP"}},
		{"POST", "/sca/login/complete" + q, map[string]any{"factor": "SMS_OTP", "code": "123456", "endUserIpAddress": "203.0.113.42"}},
		{"POST", "/sca/record-event" + q, map[string]any{"eventType": "FAILED_LOGIN_ATTEMPT"}},
		{"POST", "/sca/factors/reset" + q, map[string]any{"factor": "SMS_OTP"}},
		{"GET", "/sca/factors/reset/ScaReset:x" + q, nil},
		{"POST", "/sca/factors/reset/ScaReset:x/complete" + q, nil},
	} {
		requireError(t, s.do(c.method, c.path, c.body), 409, payments.CodeConflict)
	}
	quote := s.jitQuote(us, map[string]any{"scaFactor": "PASSKEY"})
	require.Equal(t, 201, quote.Status, "%s", quote.Raw)
	assert.Equal(t, "PENDING", quote.Body["status"])
	assert.Nil(t, quote.Body["scaChallenge"])
	assert.NotEmpty(t, quote.Body["paymentInstructions"])
	qid := quote.Body["id"].(string)
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize/resend", nil), 409, payments.CodeConflict)
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeConflict)

	payer, acct := s.funded(10_000)
	x := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": acct},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": s.payee(payer)},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 1000, "immediatelyExecute": true})
	require.Equal(t, 201, x.Status, "%s", x.Raw)
	assert.Nil(t, x.Body["scaChallenge"])
	assert.Equal(t, "PROCESSING", x.Body["status"], "executed at once")
	assert.Zero(t, codes.count(), "no code was ever sent")
	requireError(t, s.do("GET", "/sca/factors", nil), 400, payments.CodeInvalidInput, "customerId")
	requireError(t, s.do("GET", "/sca/factors?customerId=Customer:nope", nil), 404, payments.CodeCustomerNotFound)
}

// TestSCA_LoginAndQuote: an EU customer's quote is authorized only inside an
// SCA login session; the session expires.
func TestSCA_LoginAndQuote(t *testing.T) {
	s, codes := scaServer(t)
	eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	f := s.do("GET", "/sca/factors?customerId="+eu, nil)
	require.Equal(t, 200, f.Status, "%s", f.Raw)
	assert.Equal(t, []any{map[string]any{"factor": "SMS_OTP"}}, f.Body["factors"])

	q := s.jitQuote(eu, nil)
	require.Equal(t, 202, q.Status, "%s", q.Raw)
	ch := challenge(q)
	assert.Equal(t, "SMS_OTP", ch["factor"], "the default factor")
	assert.Equal(t, []any{"SMS_OTP"}, ch["availableFactors"])
	qid := q.Body["id"].(string)
	require.Equal(t, 1, codes.count())
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeScaSessionRequired)

	path := "/sca/login/complete?customerId=" + eu
	requireError(t, s.do("POST", path, map[string]any{"factor": "SMS_OTP", "code": "123456", "endUserIpAddress": "203.0.113.42"}), 400,
		payments.CodeInvalidInput, "factor")
	requireError(t, s.do("POST", "/sca/login/start?customerId="+eu, map[string]any{"factor": "EMAIL"}), 400, payments.CodeInvalidInput, "factor")
	requireError(t, s.do("POST", "/sca/login/start?customerId="+eu, map[string]any{"factor": "TOTP"}), 400, payments.CodeInvalidInput, "factor")
	st := s.do("POST", "/sca/login/start?customerId="+eu, map[string]any{"factor": "SMS_OTP"})
	require.Equal(t, 200, st.Status, "%s", st.Raw)
	assert.NotEmpty(t, st.Body["challengeId"])
	assert.NotEmpty(t, st.Body["expiresAt"])
	assert.Equal(t, 2, codes.count())
	requireError(t, s.do("POST", path, map[string]any{"factor": "SMS_OTP", "challengeId": st.Body["challengeId"]}), 400,
		payments.CodeInvalidInput, "endUserIpAddress")
	requireError(t, s.do("POST", path, map[string]any{"factor": "SMS_OTP", "challengeId": "ScaChallenge:other", "code": "123456",
		"endUserIpAddress": "203.0.113.42"}), 400, payments.CodeInvalidInput, "challengeId")
	requireError(t, s.do("POST", path, map[string]any{"factor": "SMS_OTP", "challengeId": st.Body["challengeId"], "code": "000000",
		"endUserIpAddress": "203.0.113.42"}), 400, payments.CodeInvalidInput, "code")
	done := s.do("POST", path, map[string]any{"factor": "SMS_OTP", "challengeId": st.Body["challengeId"], "code": "123456",
		"endUserIpAddress": "203.0.113.42"})
	require.Equal(t, 200, done.Status, "%s", done.Raw)
	assert.Equal(t, "SUCCESS", done.Body["status"])
	assert.Equal(t, s.clock.Now().Add(payments.ScaSessionTTL).UTC().Format(time.RFC3339), done.Body["sessionExpiresAt"])

	a := s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456", "endUserIpAddress": "203.0.113.42"})
	require.Equal(t, 200, a.Status, "%s", a.Raw)
	assert.Equal(t, "PENDING", a.Body["status"])
	assert.NotEmpty(t, a.Body["paymentInstructions"])

	s.clock.Advance(payments.ScaSessionTTL)
	q2 := s.jitQuote(eu, nil)
	requireError(t, s.do("POST", "/quotes/"+q2.Body["id"].(string)+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeScaSessionRequired)
	requireError(t, s.do("POST", "/quotes/"+q2.Body["id"].(string)+"/authorize", map[string]any{}), 409, payments.CodeScaSessionRequired)
	s.scaLogin(eu)
	requireError(t, s.do("POST", "/quotes/"+q2.Body["id"].(string)+"/authorize", map[string]any{}), 400, payments.CodeInvalidInput, "code")
}

// TestSCA_Lockout: wrong codes lock the login at the reference's milestones
// (423 ACCOUNT_LOCKED with its details); security events escalate and a
// password reset clears the counter and revokes the session.
func TestSCA_Lockout(t *testing.T) {
	s, _ := scaServer(t)
	eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	start := func() any {
		st := s.do("POST", "/sca/login/start?customerId="+eu, map[string]any{"factor": "SMS_OTP"})
		require.Equal(t, 200, st.Status, "%s", st.Raw)
		return st.Body["challengeId"]
	}
	complete := func(id any, code string) response {
		return s.do("POST", "/sca/login/complete?customerId="+eu, map[string]any{"factor": "SMS_OTP", "challengeId": id, "code": code,
			"endUserIpAddress": "203.0.113.42"})
	}
	id := start()
	for range 4 {
		requireError(t, complete(id, "000000"), 400, payments.CodeInvalidInput, "code")
	}
	locked := complete(id, "000000")
	requireError(t, locked, 423, payments.CodeAccountLocked)
	until := s.clock.Now().Add(15 * time.Minute).UTC().Format(time.RFC3339)
	assert.Equal(t, map[string]any{"suspended": false, "lockedUntil": until, "failedAttempts": float64(5)}, locked.Body["details"])
	requireError(t, complete(id, "123456"), 423, payments.CodeAccountLocked)

	// A quote cannot be authorized while locked either.
	s.clock.Advance(15 * time.Minute)
	s.scaLogin(eu)
	q := s.jitQuote(eu, nil)
	qid := q.Body["id"].(string)
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "000000"}), 400, payments.CodeInvalidInput, "code")

	ev := func(typ string) response {
		r := s.do("POST", "/sca/record-event?customerId="+eu, map[string]any{"eventType": typ})
		require.Equal(t, 200, r.Status, "%s", r.Raw)
		return r
	}
	for i, want := range []time.Duration{0, 0, 0, 15 * time.Minute, 30 * time.Minute, time.Hour, 24 * time.Hour} {
		r := ev("FAILED_LOGIN_ATTEMPT")
		assert.EqualValues(t, i+2, r.Body["failedAttempts"])
		if want == 0 {
			assert.Nil(t, r.Body["lockedUntil"])
		} else {
			assert.Equal(t, s.clock.Now().Add(want).UTC().Format(time.RFC3339), r.Body["lockedUntil"])
		}
	}
	r := ev("FAILED_LOGIN_ATTEMPT")
	assert.Equal(t, true, r.Body["suspended"])
	assert.Nil(t, r.Body["lockedUntil"])
	a := s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"})
	requireError(t, a, 423, payments.CodeAccountLocked)
	assert.Equal(t, true, a.Body["details"].(map[string]any)["suspended"])
	assert.NotContains(t, a.Body["details"], "lockedUntil")

	r = ev("RESET_PASSWORD_COMPLETED")
	assert.Equal(t, map[string]any{"eventType": "RESET_PASSWORD_COMPLETED", "suspended": false, "lockedUntil": nil, "failedAttempts": float64(0)}, r.Body)
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeScaSessionRequired)
	requireError(t, s.do("POST", "/sca/record-event?customerId="+eu, map[string]any{"eventType": "LOGOUT"}), 400, payments.CodeInvalidInput, "eventType")
	s.clock.Advance(time.Minute) // login codes are sent at most every 30 seconds
	s.scaLogin(eu)
	assert.Equal(t, 200, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}).Status)
}

// TestSCA_Resend: a quote's SMS code is sent again at most every 30 seconds
// and five times per challenge (429 with Retry-After), without extending
// the challenge; the new code replaces the old one.
func TestSCA_Resend(t *testing.T) {
	s, codes := scaServer(t)
	eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	q := s.jitQuote(eu, nil)
	qid := q.Body["id"].(string)
	path := "/quotes/" + qid + "/authorize/resend"
	r := s.do("POST", path, nil)
	requireError(t, r, 429, payments.CodeRateLimited)
	assert.Equal(t, "30", r.Header.Get("Retry-After"))
	for i := 2; i <= payments.ScaMaxSends; i++ {
		s.clock.Advance(payments.ScaResendInterval)
		require.Equal(t, 204, s.do("POST", path, nil).Status)
		assert.Equal(t, i, codes.count())
	}
	r = s.do("POST", path, nil)
	requireError(t, r, 429, payments.CodeRateLimited)
	wait, err := strconv.Atoi(r.Header.Get("Retry-After"))
	require.NoError(t, err)
	assert.Equal(t, int(payments.ScaChallengeTTL/time.Second)-4*30, wait, "five sends: until the first leaves the challenge's window")
	assert.Equal(t, challenge(q)["expiresAt"], challenge(s.do("GET", "/quotes/"+qid, nil))["expiresAt"], "not extended")
	requireError(t, s.do("POST", "/quotes/Quote:nope/authorize/resend", nil), 404, payments.CodeQuoteNotFound)

	s.scaLogin(eu)
	require.Equal(t, 200, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}).Status)
	requireError(t, s.do("POST", path, nil), 409, payments.CodeConflict)
}

// TestSCA_TOTP: TOTP enrolls with a real RFC 6238 code, logs in (also with a
// one-time recovery code), and is refused for per-transaction challenges.
func TestSCA_TOTP(t *testing.T) {
	s, _ := scaServer(t)
	eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	q := "?customerId=" + eu
	requireError(t, s.do("POST", "/sca/factors"+q, map[string]any{"type": "SMS_OTP"}), 400, payments.CodeInvalidInput, "type")
	requireError(t, s.do("POST", "/sca/factors"+q, map[string]any{}), 400, payments.CodeInvalidInput, "type")
	en := s.do("POST", "/sca/factors"+q, map[string]any{"type": "TOTP"})
	require.Equal(t, 200, en.Status, "%s", en.Raw)
	secret, err := customers.Base32.DecodeString(en.Body["secretBase32Encoded"].(string))
	require.NoError(t, err)
	assert.Contains(t, en.Body["totpUri"], "otpauth://totp/Service:jane@example.com?")
	confirm := func(code string) response {
		return s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "TOTP", "secret": en.Body["secret"], "code": code})
	}
	requireError(t, s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "TOTP", "secret": "abcd", "code": "1"}), 400,
		payments.CodeInvalidInput, "secret")
	requireError(t, s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "TOTP"}), 400, payments.CodeInvalidInput, "secret", "code")
	wrong := customers.TOTPCode(secret, s.clock.Now().Add(-time.Hour))
	requireError(t, confirm(wrong), 400, payments.CodeInvalidInput, "code")
	c := confirm(customers.TOTPCode(secret, s.clock.Now()))
	require.Equal(t, 200, c.Status, "%s", c.Raw)
	recovery := c.Body["recoveryCodes"].([]any)
	require.Len(t, recovery, 8)
	assert.Equal(t, []any{map[string]any{"factor": "SMS_OTP"}, map[string]any{"factor": "TOTP"}}, s.do("GET", "/sca/factors"+q, nil).Body["factors"])
	requireError(t, s.do("POST", "/sca/factors"+q, map[string]any{"type": "TOTP"}), 409, payments.CodeConflict)

	login := func(code string) response {
		st := s.do("POST", "/sca/login/start"+q, map[string]any{"factor": "TOTP"})
		require.Equal(t, 200, st.Status, "%s", st.Raw)
		assert.Equal(t, map[string]any{"factor": "TOTP"}, st.Body, "TOTP carries nothing else")
		return s.do("POST", "/sca/login/complete"+q, map[string]any{"factor": "TOTP", "code": code, "endUserIpAddress": "203.0.113.42"})
	}
	s.clock.Advance(time.Minute)
	assert.Equal(t, 200, login(customers.TOTPCode(secret, s.clock.Now())).Status)
	assert.Equal(t, 200, login(recovery[0].(string)).Status)
	requireError(t, login(recovery[0].(string)), 400, payments.CodeInvalidInput, "code")
	assert.Equal(t, 200, login(sandbox.ContactCode).Status, "the sandbox's fixed code")

	requireError(t, s.jitQuote(eu, map[string]any{"scaFactor": "TOTP"}), 400, payments.CodeInvalidInput, "scaFactor")
	requireError(t, s.do("POST", "/quotes/Quote:any/execute", map[string]any{"scaFactor": "TOTP"}), 400, payments.CodeInvalidInput, "scaFactor")
}

// TestSCA_Passkey: a passkey made by a software authenticator in the test
// enrolls (one per customer), logs in and authorizes a quote whose
// challenge was issued for it; forged, foreign and replayed assertions are
// refused.
func TestSCA_Passkey(t *testing.T) {
	s, codes := scaServer(t)
	eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	q := "?customerId=" + eu
	// Preferring PASSKEY without one falls back to SMS_OTP.
	fallback := s.jitQuote(eu, map[string]any{"scaFactor": "PASSKEY"})
	assert.Equal(t, "SMS_OTP", challenge(fallback)["factor"])

	en := s.do("POST", "/sca/factors"+q, map[string]any{"type": "PASSKEY"})
	require.Equal(t, 200, en.Status, "%s", en.Raw)
	assert.Equal(t, "localhost", en.Body["relyingPartyId"])
	assert.Contains(t, en.Body["allowedOrigins"], origin)
	key := passkeytest.New("localhost")
	att := key.Create(webauthnChallenge(t, en.Body["options"]), origin)
	requireError(t, s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "PASSKEY", "origin": "https://evil.example", "credential": att}),
		400, payments.CodeInvalidInput, "origin")
	other := passkeytest.New("localhost").Create([]byte("another challenge"), origin)
	requireError(t, s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "PASSKEY", "origin": origin, "credential": other}),
		400, payments.CodeInvalidInput, "credential")
	requireError(t, s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "PASSKEY"}), 400, payments.CodeInvalidInput, "origin", "credential")
	c := s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "PASSKEY", "origin": origin, "credential": att})
	require.Equal(t, 200, c.Status, "%s", c.Raw)
	view := map[string]any{"factor": "PASSKEY", "credentialId": key.CredentialID()}
	assert.Equal(t, map[string]any{"type": "PASSKEY", "factor": view}, c.Body)
	assert.Equal(t, []any{map[string]any{"factor": "SMS_OTP"}, view}, s.do("GET", "/sca/factors"+q, nil).Body["factors"])
	requireError(t, s.do("POST", "/sca/factors"+q, map[string]any{"type": "PASSKEY"}), 409, payments.CodePasskeyAlreadyEnrolled)

	// Log in with the passkey.
	st := s.do("POST", "/sca/login/start"+q, map[string]any{"factor": "PASSKEY"})
	require.Equal(t, 200, st.Status, "%s", st.Raw)
	assert.Equal(t, "localhost", st.Body["passkeyOptions"].(map[string]any)["rpId"])
	login := key.Get(webauthnChallenge(t, st.Body["passkeyOptions"]), origin)
	done := s.do("POST", "/sca/login/complete"+q, map[string]any{"factor": "PASSKEY", "passkeyAssertion": login, "origin": origin,
		"endUserIpAddress": "203.0.113.42"})
	require.Equal(t, 200, done.Status, "%s", done.Raw)
	assert.Equal(t, "SUCCESS", done.Body["status"])

	sent := codes.count()
	pq := s.jitQuote(eu, map[string]any{"scaFactor": "PASSKEY"})
	require.Equal(t, 202, pq.Status, "%s", pq.Raw)
	ch := challenge(pq)
	assert.Equal(t, "PASSKEY", ch["factor"])
	assert.Equal(t, []any{"PASSKEY"}, ch["availableFactors"])
	opts := ch["passkeyAssertionOptions"].(map[string]any)
	assert.Equal(t, key.CredentialID(), opts["allowCredentials"].([]any)[0].(map[string]any)["id"])
	assert.Equal(t, sent, codes.count(), "no SMS for a passkey challenge")
	qid := pq.Body["id"].(string)
	requireError(t, s.do("POST", "/quotes/"+qid+"/authorize/resend", nil), 409, payments.CodeConflict)

	nonce := webauthnChallenge(t, opts)
	authorize := func(body map[string]any) response { return s.do("POST", "/quotes/"+qid+"/authorize", body) }
	requireError(t, authorize(map[string]any{"code": "123456"}), 400, payments.CodeInvalidInput, "passkeyAssertion", "origin")
	requireError(t, authorize(map[string]any{"passkeyAssertion": key.Get(nonce, origin)}), 400, payments.CodeInvalidInput, "origin")
	requireError(t, authorize(map[string]any{"passkeyAssertion": key.Get(nonce, origin), "origin": "https://evil.example"}), 400,
		payments.CodeInvalidInput, "origin")
	requireError(t, authorize(map[string]any{"passkeyAssertion": key.Get(nonce, "https://localhost"), "origin": origin}), 400,
		payments.CodeInvalidInput, "passkeyAssertion")
	requireError(t, authorize(map[string]any{"passkeyAssertion": key.Get(webauthnChallenge(t, st.Body["passkeyOptions"]), origin), "origin": origin}), 400,
		payments.CodeInvalidInput, "passkeyAssertion")
	stranger := passkeytest.New("localhost")
	requireError(t, authorize(map[string]any{"passkeyAssertion": stranger.Get(nonce, origin), "origin": origin}), 400,
		payments.CodeInvalidInput, "passkeyAssertion")
	a := authorize(map[string]any{"passkeyAssertion": key.Get(nonce, origin), "origin": origin, "endUserIpAddress": "203.0.113.42"})
	require.Equal(t, 200, a.Status, "%s", a.Raw)
	assert.Equal(t, "PENDING", a.Body["status"])
	assert.NotEmpty(t, a.Body["paymentInstructions"])

	assert.Equal(t, 204, s.do("DELETE", "/sca/factors/"+key.CredentialID()+q, nil).Status)
	requireError(t, s.do("DELETE", "/sca/factors/"+key.CredentialID()+q, nil), 404, payments.CodeNotFound)
	assert.Equal(t, []any{map[string]any{"factor": "SMS_OTP"}}, s.do("GET", "/sca/factors"+q, nil).Body["factors"])
	assert.Equal(t, 200, s.do("POST", "/sca/factors"+q, map[string]any{"type": "PASSKEY"}).Status, "a new passkey may enroll")
}

// TestSCA_ExecuteChallenge: executing an EU customer's prefunded quote
// starts no transfer until it is authorized; paying a trusted beneficiary
// skips the challenge.
func TestSCA_ExecuteChallenge(t *testing.T) {
	s, _ := scaServer(t)
	eu, acct := s.funded(100_000, set("region", "DE"))
	dest := s.payee(eu)
	quote := func() string {
		q := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": acct},
			"destination": map[string]any{"destinationType": "ACCOUNT", "accountId": dest}, "lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 1000})
		require.Equal(t, 201, q.Status, "%s", q.Raw)
		assert.Nil(t, q.Body["scaChallenge"], "no challenge before execution")
		return q.Body["id"].(string)
	}
	qid := quote()
	x := s.do("POST", "/quotes/"+qid+"/execute", map[string]any{"scaFactor": "SMS_OTP"})
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	assert.Equal(t, "PENDING_AUTHORIZATION", x.Body["status"])
	assert.Equal(t, "SMS_OTP", challenge(x)["factor"])
	bal, _ := s.usdBalance(acct)
	assert.EqualValues(t, 100_000, bal, "no money moved")
	requireError(t, s.do("POST", "/quotes/"+qid+"/execute", nil), 409, payments.CodeConflict)
	txID := x.Body["transactionId"].(string)
	assert.Equal(t, "PENDING_AUTHORIZATION", s.do("GET", "/transactions/"+txID, nil).Body["status"])
	s.scaLogin(eu)
	a := s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"})
	require.Equal(t, 200, a.Status, "%s", a.Raw)
	assert.Equal(t, "PROCESSING", a.Body["status"])
	assert.Equal(t, []string{"OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PENDING_AUTHORIZATION", "OUTGOING_PAYMENT.PROCESSING",
		"OUTGOING_PAYMENT.COMPLETED"}, s.eventsOf(txID))
	bal, _ = s.usdBalance(acct)
	assert.EqualValues(t, 99_000, bal)

	// Immediately executed: the same challenge, answered 202.
	im := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": acct},
		"destination": map[string]any{"destinationType": "ACCOUNT", "accountId": dest}, "lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 1000,
		"immediatelyExecute": true})
	require.Equal(t, 202, im.Status, "%s", im.Raw)
	assert.Equal(t, "PENDING_AUTHORIZATION", im.Body["status"])

	// So is a transfer out, released through its quote.
	usd := s.do("POST", "/customers/external-accounts", usdAccount(eu, "000123"))
	require.Equal(t, 201, usd.Status, "%s", usd.Raw)
	out := s.do("POST", "/transfer-out", map[string]any{"source": map[string]any{"accountId": acct},
		"destination": map[string]any{"accountId": usd.Body["id"]}, "amount": 500})
	require.Equal(t, 201, out.Status, "%s", out.Raw)
	assert.Equal(t, "PENDING_AUTHORIZATION", out.Body["status"])
	a = s.do("POST", "/quotes/"+out.Body["quoteId"].(string)+"/authorize", map[string]any{"code": "123456"})
	require.Equal(t, 200, a.Status, "%s", a.Raw)
	assert.Equal(t, "PROCESSING", a.Body["status"])
	bal, _ = s.usdBalance(acct)
	assert.EqualValues(t, 98_500, bal)

	// A trusted beneficiary is paid without a challenge.
	trust := "/customers/external-accounts/" + dest + "/trust"
	require.Equal(t, 200, s.do("POST", trust, nil).Status)
	require.Equal(t, 200, s.do("POST", trust+"/confirm", map[string]any{"code": "123456"}).Status)
	qid = quote()
	x = s.do("POST", "/quotes/"+qid+"/execute", nil)
	require.Equal(t, 200, x.Status, "%s", x.Raw)
	assert.Equal(t, "PROCESSING", x.Body["status"])
	assert.Nil(t, x.Body["scaChallenge"])
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

// TestSCA_Reset: the liveness-gated reset of each factor, its status, the
// new number of an SMS_OTP reset and the limit of five starts a day.
func TestSCA_Reset(t *testing.T) {
	s, codes := scaServer(t)
	eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
	q := "?customerId=" + eu
	requireError(t, s.do("POST", "/sca/factors/reset"+q, map[string]any{"factor": "PASSKEY"}), 400, payments.CodeInvalidInput, "factor")
	requireError(t, s.do("POST", "/sca/factors/reset"+q, map[string]any{}), 400, payments.CodeInvalidInput, "factor")
	r := s.do("POST", "/sca/factors/reset"+q, map[string]any{"factor": "SMS_OTP"})
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	assert.NotEmpty(t, r.Body["livenessAccessToken"])
	rid := r.Body["resetId"].(string)
	status := func() map[string]any {
		g := s.do("GET", "/sca/factors/reset/"+rid+q, nil)
		require.Equal(t, 200, g.Status, "%s", g.Raw)
		return g.Body
	}
	assert.Equal(t, map[string]any{"status": "INITIATED", "factor": "SMS_OTP", "enrollmentStatus": nil, "completedAt": nil,
		"expiresAt": r.Body["expiresAt"]}, status())
	requireError(t, s.do("POST", "/sca/factors/reset/"+rid+"/complete"+q, nil), 400, payments.CodeInvalidInput)
	s.clock.Advance(30 * time.Second)
	assert.Equal(t, "PENDING_REVIEW", status()["status"])
	s.clock.Advance(30 * time.Second)
	assert.Equal(t, "LIVENESS_PASSED", status()["status"])
	requireError(t, s.do("POST", "/sca/factors/reset/"+rid+"/complete"+q, nil), 400, payments.CodeInvalidInput, "mobile")
	requireError(t, s.do("POST", "/sca/factors/reset/"+rid+"/complete"+q, map[string]any{"mobile": map[string]any{"countryCode": "+49", "number": "x"}}),
		400, payments.CodeInvalidInput, "mobile.number")
	require.Equal(t, 204, s.do("POST", "/sca/factors/reset/"+rid+"/complete"+q, map[string]any{"mobile": map[string]any{"countryCode": "+49", "number": "15112345678"}}).Status)
	assert.Equal(t, "COMPLETED", status()["status"])
	assert.NotNil(t, status()["completedAt"])
	assert.Equal(t, "+4915112345678", s.do("GET", "/customers/"+eu, nil).Body["phoneNumber"])
	s.scaLogin(eu)
	codes.mu.Lock()
	assert.Equal(t, "+4915112345678", codes.sent[len(codes.sent)-1].To, "codes go to the new number")
	codes.mu.Unlock()
	requireError(t, s.do("POST", "/sca/factors/reset/"+rid+"/complete"+q, nil), 400, payments.CodeInvalidInput)
	other := s.customer(set("region", "FR"))
	requireError(t, s.do("GET", "/sca/factors/reset/"+rid+"?customerId="+other, nil), 404, payments.CodeNotFound)

	// A TOTP reset: the factor is cleared, then re-enrolled.
	en := s.do("POST", "/sca/factors"+q, map[string]any{"type": "TOTP"})
	require.Equal(t, 200, s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "TOTP", "secret": en.Body["secret"], "code": "123456"}).Status)
	r = s.do("POST", "/sca/factors/reset"+q, map[string]any{"factor": "TOTP"})
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	rid = r.Body["resetId"].(string)
	s.clock.Advance(time.Minute)
	assert.Equal(t, "PENDING", status()["enrollmentStatus"])
	require.Equal(t, 204, s.do("POST", "/sca/factors/reset/"+rid+"/complete"+q, nil).Status)
	assert.Equal(t, []any{map[string]any{"factor": "SMS_OTP"}}, s.do("GET", "/sca/factors"+q, nil).Body["factors"])
	assert.Equal(t, "PENDING", status()["enrollmentStatus"])
	s.clock.Advance(time.Second)
	en = s.do("POST", "/sca/factors"+q, map[string]any{"type": "TOTP"})
	require.Equal(t, 200, s.do("POST", "/sca/factors/confirm"+q, map[string]any{"type": "TOTP", "secret": en.Body["secret"], "code": "123456"}).Status)
	assert.Equal(t, "COMPLETED", status()["enrollmentStatus"])

	// Five starts a day.
	for range 3 {
		require.Equal(t, 201, s.do("POST", "/sca/factors/reset"+q, map[string]any{"factor": "SMS_OTP"}).Status)
	}
	lim := s.do("POST", "/sca/factors/reset"+q, map[string]any{"factor": "SMS_OTP"})
	requireError(t, lim, 429, payments.CodeRateLimited)
	wait, err := strconv.Atoi(lim.Header.Get("Retry-After"))
	require.NoError(t, err)
	s.clock.Advance(time.Duration(wait) * time.Second)
	expired := s.do("GET", "/sca/factors/reset/"+rid+q, nil)
	assert.Equal(t, "COMPLETED", expired.Body["status"])
	require.Equal(t, 201, s.do("POST", "/sca/factors/reset"+q, map[string]any{"factor": "SMS_OTP"}).Status)
}
