package sandbox

import (
	"sync"
	"time"
)

// Clock is a controllable clock for tests and the sandbox: it stands still
// until told to move. Pass its Now method as payments.Config.Now.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// timeZero asks NewClock for its default start.
var timeZero time.Time

// NewClock returns a clock reading start (the zero time means
// 2025-10-13T12:00:00Z).
func NewClock(start time.Time) *Clock {
	if start.IsZero() {
		start = time.Date(2025, 10, 13, 12, 0, 0, 0, time.UTC)
	}
	return &Clock{t: start}
}

// Now returns the clock's reading.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d and returns the new reading.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
