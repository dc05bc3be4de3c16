package customers

import (
	"crypto/hmac"
	"crypto/sha1" // #nosec G505 -- RFC 6238 TOTP is defined over HMAC-SHA-1, which authenticator apps use
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"time"
)

// Strong Customer Authentication factors (reference ScaFactor). The rules
// of this file are pure: no store, no clock but the one passed in.
const (
	FactorSMS     = "SMS_OTP"
	FactorTOTP    = "TOTP"
	FactorPasskey = "PASSKEY"
)

// Factors are the SCA factors the reference names, in its order.
var Factors = []string{FactorSMS, FactorTOTP, FactorPasskey}

// ChallengeFactors are the factors a per-transaction challenge may use:
// TOTP is refused there, as it cannot carry dynamic linking (a code tied
// to the payee and amount it approves).
var ChallengeFactors = []string{FactorSMS, FactorPasskey}

// ChallengeFactor picks the factor of a per-transaction challenge from the
// caller's preference: PASSKEY when preferred and the customer
// has one enrolled, SMS_OTP (the default, always available) otherwise. A
// preference is a wish, not a demand, so a customer without a passkey
// still gets a challenge they can answer.
func ChallengeFactor(preferred string, hasPasskey bool) string {
	if preferred == FactorPasskey && hasPasskey {
		return FactorPasskey
	}
	return FactorSMS
}

// LockSteps is the failed-login lockout (reference
// RecordSecurityEventRequest): the n-th cumulative failure locks the login
// for LockSteps[n]; SuspendAt or more suspend it until a password reset
// clears the counter. The steps grow so that guessing stays slow while a
// user who mistyped a few times is barely delayed.
var LockSteps = map[int]time.Duration{5: 15 * time.Minute, 6: 30 * time.Minute, 7: time.Hour, 8: 24 * time.Hour}

// SuspendAt is the failure count from which the login is suspended.
const SuspendAt = 9

// LoginSecurity is a customer's login-security state: the cumulative
// failed-login counter and the lockout it produced. The counter counts
// both failed SCA proofs and the client's FAILED_LOGIN_ATTEMPT events, and
// only a success or a password reset clears it.
type LoginSecurity struct {
	FailedAttempts int        `json:"failedAttempts"`
	LockedUntil    *time.Time `json:"lockedUntil,omitempty"`
	Suspended      bool       `json:"suspended"`
}

// Fail counts one failed attempt at now and escalates the lockout at each
// milestone. A failure while locked still counts.
func (s *LoginSecurity) Fail(now time.Time) {
	s.FailedAttempts++
	if s.FailedAttempts >= SuspendAt {
		s.Suspended, s.LockedUntil = true, nil
		return
	}
	if d, ok := LockSteps[s.FailedAttempts]; ok {
		until := now.Add(d)
		s.LockedUntil = &until
	}
}

// Locked reports whether the login is locked or suspended at now.
func (s LoginSecurity) Locked(now time.Time) bool {
	return s.Suspended || s.LockedUntil != nil && now.Before(*s.LockedUntil)
}

// Clear resets the counter and lifts any lockout (a password reset).
func (s *LoginSecurity) Clear() { *s = LoginSecurity{} }

// SendWait is how long a caller must wait before another one-time code may
// be sent, given the earlier sends (oldest first): at least interval after
// the last one and at most max sends within window. Zero means a send is
// allowed now. RateLimited turns a wait into the 429 with Retry-After.
func SendWait(sent []time.Time, now time.Time, interval time.Duration, max int, window time.Duration) time.Duration {
	var wait time.Duration
	if n := len(sent); n > 0 {
		if d := sent[n-1].Add(interval).Sub(now); d > 0 {
			wait = d
		}
	}
	var recent []time.Time
	for _, s := range sent {
		if now.Sub(s) < window {
			recent = append(recent, s)
		}
	}
	if len(recent) >= max {
		if d := recent[len(recent)-max].Add(window).Sub(now); d > wait {
			wait = d
		}
	}
	return wait
}

// TOTP parameters (RFC 6238 defaults, which every authenticator app uses).
const (
	TOTPStep   = 30 * time.Second
	TOTPDigits = 6
)

// TOTPCode is the RFC 6238 code of secret at instant at (HMAC-SHA-1, 30 s
// steps, 6 digits).
func TOTPCode(secret []byte, at time.Time) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(at.Unix()/int64(TOTPStep/time.Second)))
	mac := hmac.New(sha1.New, secret)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	v := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%06d", v%1_000_000)
}

// TOTPValid reports whether code is secret's code at now or one step either
// side (clock drift between the phone and the server). The three
// comparisons all run, in constant time, so timing does not tell which
// step matched. A code stays valid for its whole window: nothing here
// prevents its reuse within it.
func TOTPValid(secret []byte, code string, now time.Time) bool {
	ok := 0
	for _, d := range []time.Duration{-TOTPStep, 0, TOTPStep} {
		ok |= subtle.ConstantTimeCompare([]byte(TOTPCode(secret, now.Add(d))), []byte(code))
	}
	return ok == 1
}

// Base32 is the encoding authenticator apps read secrets in (no padding).
var Base32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// TOTPURI is the otpauth:// provisioning URI (the QR-code payload) of
// secret for account at issuer, with the RFC 6238 defaults left implicit.
func TOTPURI(secret []byte, issuer, account string) string {
	q := url.Values{"secret": {Base32.EncodeToString(secret)}, "issuer": {issuer}}
	return "otpauth://totp/" + url.PathEscape(issuer+":"+account) + "?" + q.Encode()
}

// Reset statuses (reference TwoFactorResetStatus).
const (
	ResetInitiated      = "INITIATED"
	ResetPendingReview  = "PENDING_REVIEW"
	ResetLivenessPassed = "LIVENESS_PASSED"
	ResetCompleted      = "COMPLETED"
	ResetExpired        = "EXPIRED"
)

// Reset timing: liveness is submitted ResetReviewAfter after the start and
// passes ResetLivenessAfter after it (the sandbox's liveness check, as for
// external-account LIVENESS challenges); the reset window is ResetWindow.
// At most ResetsPerDay resets may start per customer in 24 hours.
const (
	ResetReviewAfter   = 30 * time.Second
	ResetLivenessAfter = time.Minute
	ResetWindow        = 30 * time.Minute
	ResetsPerDay       = 5
)

// ResetStatus is the status at now of a reset started at started that
// completed (or not). Completion wins over expiry: a completed reset stays
// COMPLETED.
func ResetStatus(started time.Time, completed bool, now time.Time) string {
	switch age := now.Sub(started); {
	case completed:
		return ResetCompleted
	case age >= ResetWindow:
		return ResetExpired
	case age >= ResetLivenessAfter:
		return ResetLivenessPassed
	case age >= ResetReviewAfter:
		return ResetPendingReview
	}
	return ResetInitiated
}
