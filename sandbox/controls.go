package sandbox

import (
	"context"
	"sync"
	"time"

	"github.com/paygrid/payments"
)

// Controls drive a sandbox engine's test clock: Advance moves the Clock
// forward applying, in order, every piece of due work and every webhook
// delivery that falls due on the way (payments.Sandbox.Advance).
// It implements httpapi.TestClock; its Now and AdvanceBy methods are the
// plain functions a dashboard or a test needs. Advances are serialized.
type Controls struct {
	Engine *payments.Engine
	Clock  *Clock

	mu sync.Mutex
}

// NewControls returns the controls of eng running on clock (the clock eng's
// Config.Now reads).
func NewControls(eng *payments.Engine, clock *Clock) *Controls {
	return &Controls{Engine: eng, Clock: clock}
}

// Now returns the engine's clock reading.
func (c *Controls) Now() time.Time { return c.Engine.Now() }

// Frozen reports whether the clock stands still.
func (c *Controls) Frozen() bool { return c.Clock.Frozen() }

// Freeze stops the clock.
func (c *Controls) Freeze() { c.Clock.Freeze() }

// Resume lets the clock follow real time from its reading.
func (c *Controls) Resume() { c.Clock.Resume() }

// Advance moves the clock forward as a asks and returns once everything
// due up to the new reading applied and its webhooks were delivered. A
// request to move backwards is INVALID_INPUT and moves nothing.
func (c *Controls) Advance(ctx context.Context, a payments.ClockAdvance) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.Engine.Sandbox.Advance(ctx, a, func(t time.Time) { c.Clock.AdvanceTo(t) })
	return err
}

// AdvanceBy moves the clock forward by d, as Advance does.
func (c *Controls) AdvanceBy(ctx context.Context, d time.Duration) error {
	return c.Advance(ctx, payments.ClockAdvance{Duration: d})
}
