package customers_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments/customers"
	"github.com/stretchr/testify/assert"
)

func TestChallengeFactor(t *testing.T) {
	assert.Equal(t, customers.FactorSMS, customers.ChallengeFactor("", true))
	assert.Equal(t, customers.FactorSMS, customers.ChallengeFactor(customers.FactorPasskey, false))
	assert.Equal(t, customers.FactorPasskey, customers.ChallengeFactor(customers.FactorPasskey, true))
	assert.Equal(t, customers.FactorSMS, customers.ChallengeFactor(customers.FactorSMS, true))
}

// TestLoginSecurity_Escalates follows the reference's milestones: 5 failures
// lock 15 minutes, 6 30 minutes, 7 an hour, 8 a day, 9 suspend.
func TestLoginSecurity_Escalates(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var s customers.LoginSecurity
	for i := 1; i <= 4; i++ {
		s.Fail(now)
		assert.False(t, s.Locked(now), "after %d", i)
	}
	for _, want := range []time.Duration{15 * time.Minute, 30 * time.Minute, time.Hour, 24 * time.Hour} {
		s.Fail(now)
		assert.True(t, s.Locked(now))
		assert.Equal(t, now.Add(want), *s.LockedUntil)
		assert.True(t, s.Locked(now.Add(want-time.Second)))
		assert.False(t, s.Locked(now.Add(want)))
	}
	s.Fail(now)
	assert.True(t, s.Suspended)
	assert.Nil(t, s.LockedUntil)
	assert.True(t, s.Locked(now.Add(1000*time.Hour)))
	assert.Equal(t, 9, s.FailedAttempts)
	s.Clear()
	assert.False(t, s.Locked(now))
	assert.Zero(t, s.FailedAttempts)
}

func TestSendWait(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	assert.Zero(t, customers.SendWait(nil, now, 30*time.Second, 3, time.Hour))
	sent := []time.Time{now.Add(-10 * time.Second)}
	assert.Equal(t, 20*time.Second, customers.SendWait(sent, now, 30*time.Second, 3, time.Hour))
	sent = []time.Time{now.Add(-50 * time.Minute), now.Add(-40 * time.Minute), now.Add(-30 * time.Minute)}
	assert.Equal(t, 10*time.Minute, customers.SendWait(sent, now, 30*time.Second, 3, time.Hour))
	sent[0] = now.Add(-2 * time.Hour) // out of the window: two recent sends of three allowed
	assert.Zero(t, customers.SendWait(sent, now, 30*time.Second, 3, time.Hour))
}

// TestTOTP checks the RFC 6238 appendix B vector (SHA-1, T=59 s) and the
// one-step drift window.
func TestTOTP(t *testing.T) {
	secret := []byte("12345678901234567890")
	at := time.Unix(59, 0)
	assert.Equal(t, "287082", customers.TOTPCode(secret, at))
	assert.Equal(t, "081804", customers.TOTPCode(secret, time.Unix(1111111109, 0)))
	assert.True(t, customers.TOTPValid(secret, "287082", at.Add(30*time.Second)))
	assert.False(t, customers.TOTPValid(secret, "287082", at.Add(90*time.Second)))
	assert.False(t, customers.TOTPValid(secret, "", at))
	assert.Equal(t, "otpauth://totp/Service:ann@example.com?issuer=Service&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
		customers.TOTPURI(secret, "Service", "ann@example.com"))
}

func TestResetStatus(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		after     time.Duration
		completed bool
		want      string
	}{
		{0, false, customers.ResetInitiated},
		{30 * time.Second, false, customers.ResetPendingReview},
		{time.Minute, false, customers.ResetLivenessPassed},
		{30 * time.Minute, false, customers.ResetExpired},
		{time.Hour, true, customers.ResetCompleted},
	} {
		assert.Equal(t, tc.want, customers.ResetStatus(t0, tc.completed, t0.Add(tc.after)), "%+v", tc)
	}
}
