package sandbox

import (
	"sync"
	"time"
)

// Clock is a controllable clock for tests and the sandbox. It either stands
// frozen at a reading (NewClock: tests) or follows real time with an offset
// (NewRealClock: the sandbox server); Freeze and Resume switch between the
// two without a jump. Pass its Now method as payments.Config.Now.
//
// A running clock never reads earlier than a reading it already gave, even
// if the machine's wall clock steps back. It keeps the instant it was set
// to and the real time it was set at, and adds the real time elapsed since,
// so it runs at any lead over real time up to the latest instant a
// time.Time holds (a lead kept as a time.Duration would stop at about 292
// years).
type Clock struct {
	mu      sync.Mutex
	t       time.Time // the reading while frozen; the last reading while running
	base    time.Time // while running: the reading at since
	since   time.Time // while running: the real time (wall clock) it read base at
	running bool
	wall    func() time.Time // real time (time.Now)
}

// timeZero asks NewClock for its default start.
var timeZero time.Time

// NewClock returns a frozen clock reading start (the zero time means
// 2025-10-13T12:00:00Z). It moves only when told to.
func NewClock(start time.Time) *Clock {
	if start.IsZero() {
		start = time.Date(2025, 10, 13, 12, 0, 0, 0, time.UTC)
	}
	return &Clock{t: start, wall: time.Now}
}

// NewRealClock returns a clock that follows real time, with no offset until
// it is advanced.
func NewRealClock() *Clock {
	now := time.Now().Round(0)
	return &Clock{t: now, base: now, since: now, running: true, wall: time.Now}
}

// Now returns the clock's reading.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.read()
}

// read is Now with c.mu held.
func (c *Clock) read() time.Time {
	now, _ := c.readWall()
	return now
}

// readWall returns the clock's reading and the real time it was taken at
// (the zero time while frozen), with c.mu held.
func (c *Clock) readWall() (time.Time, time.Time) {
	if !c.running {
		return c.t, time.Time{}
	}
	w := c.wall().Round(0)
	if t := c.base.Add(w.Sub(c.since)); t.After(c.t) {
		c.t = t
	}
	return c.t, w
}

// Advance moves the clock forward by d and returns the new reading.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.set(c.read().Add(d))
}

// AdvanceTo moves the clock forward to t and returns the new reading; a t
// at or before the current reading leaves the clock where it is.
func (c *Clock) AdvanceTo(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := c.read(); !t.After(now) {
		return now
	}
	return c.set(t)
}

// Set moves the clock to t, backwards too (tests that need it; the sandbox's
// own controls only ever move forward).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(t)
}

// set makes the clock read t from now on, with c.mu held.
func (c *Clock) set(t time.Time) time.Time {
	c.t = t
	if c.running {
		c.base, c.since = t, c.wall().Round(0)
	}
	return t
}

// Freeze stops the clock at its current reading and returns it.
func (c *Clock) Freeze() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.read()
	c.running = false
	return now
}

// Resume lets a frozen clock follow real time again from its current
// reading (no jump) and returns that reading.
func (c *Clock) Resume() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.read()
	if !c.running {
		c.running = true
		c.set(now)
	}
	return now
}

// Frozen reports whether the clock stands still.
func (c *Clock) Frozen() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.running
}

// state returns the clock's reading, whether it runs, and the real time
// a running clock took the reading at (zero when frozen).
func (c *Clock) state() (now time.Time, running bool, realTime time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now, realTime = c.readWall()
	return now, c.running, realTime
}

// restore sets the clock from a saved state without ever moving it back:
// frozen, it stands at the later of its reading and now; running, it
// reads now plus the real time elapsed since realTime (or, when realTime
// is zero, lead ahead of real time), but never earlier than now or its
// reading.
func (c *Clock) restore(now time.Time, frozen bool, realTime time.Time, lead time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cur := c.read()
	c.running = !frozen
	if frozen {
		c.t = latest(cur, now)
		return
	}
	wall := c.wall().Round(0)
	resumed := wall.Add(lead)
	if !realTime.IsZero() {
		resumed = now.Add(wall.Sub(realTime))
	}
	c.set(latest(cur, now, resumed))
}

// latest returns the latest of ts.
func latest(ts ...time.Time) time.Time {
	out := ts[0]
	for _, t := range ts[1:] {
		if t.After(out) {
			out = t
		}
	}
	return out
}
