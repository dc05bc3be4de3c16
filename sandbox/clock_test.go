package sandbox_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
)

func TestClock_Frozen(t *testing.T) {
	c := sandbox.NewClock(time.Time{})
	assert.True(t, c.Frozen())
	assert.Equal(t, start, c.Now())
	time.Sleep(2 * time.Millisecond)
	assert.Equal(t, start, c.Now(), "a frozen clock stands still")
	assert.Equal(t, start.Add(time.Minute), c.Advance(time.Minute))
	assert.Equal(t, start.Add(time.Minute), c.AdvanceTo(start), "AdvanceTo never moves back")
	assert.Equal(t, start.Add(time.Hour), c.AdvanceTo(start.Add(time.Hour)))
	c.Set(start)
	assert.Equal(t, start, c.Now(), "Set may move back, for tests")
}

func TestClock_FollowsRealTime(t *testing.T) {
	c := sandbox.NewRealClock()
	assert.False(t, c.Frozen())
	assert.WithinDuration(t, time.Now(), c.Now(), time.Second)
	c.Advance(48 * time.Hour)
	assert.WithinDuration(t, time.Now().Add(48*time.Hour), c.Now(), time.Second, "an offset on real time")
	a := c.Now()
	time.Sleep(2 * time.Millisecond)
	assert.True(t, c.Now().After(a), "it keeps running")

	frozen := c.Freeze()
	assert.True(t, c.Frozen())
	time.Sleep(2 * time.Millisecond)
	assert.Equal(t, frozen, c.Now())
	time.Sleep(20 * time.Millisecond)
	assert.Equal(t, frozen, c.Resume(), "resuming does not jump")
	assert.WithinDuration(t, frozen, c.Now(), 10*time.Millisecond, "it runs on from the frozen reading")
	time.Sleep(2 * time.Millisecond)
	before := c.Now()
	assert.False(t, c.AdvanceTo(frozen).Before(before), "never back")
	target := time.Now().Add(72 * time.Hour)
	c.AdvanceTo(target)
	assert.WithinDuration(t, target, c.Now(), time.Second)
	assert.False(t, c.Now().Before(target))
}

// TestClock_RunsFarAhead: a running clock advanced centuries and millennia
// ahead of real time (past the 292 years a time.Duration holds) still
// follows real time from there.
func TestClock_RunsFarAhead(t *testing.T) {
	c := sandbox.NewRealClock()
	for _, to := range []time.Time{time.Date(2400, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(8999, 12, 31, 0, 0, 0, 0, time.UTC)} {
		assert.Equal(t, to, c.AdvanceTo(to))
		time.Sleep(2 * time.Millisecond)
		a := c.Now()
		assert.True(t, a.After(to), "it runs on from %s: %s", to, a)
		time.Sleep(2 * time.Millisecond)
		assert.True(t, c.Now().After(a), "and keeps running")
		assert.WithinDuration(t, to, a, time.Second)
	}
	c.Advance(200 * 365 * 24 * time.Hour)
	a := c.Now()
	time.Sleep(2 * time.Millisecond)
	assert.True(t, c.Now().After(a))
}
