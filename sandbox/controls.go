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
//
// Every move (an advance, freezing, resuming) is saved in the engine's
// store before the clock takes it (payments.Sandbox.SaveClock), and
// Restore sets the clock from what was saved: a server that restores its
// controls at start resumes where its clock stood, and its clock never
// goes back, so work scheduled at an advanced time still falls due.
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

// Freeze stops the clock at its reading.
func (c *Controls) Freeze(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	wasFrozen := c.Clock.Frozen()
	now := c.Clock.Freeze() // the reading it stands at, kept as it is
	if err := c.Engine.Sandbox.SaveClock(ctx, payments.SandboxClock{Now: now, Frozen: true}); err != nil {
		if !wasFrozen {
			c.Clock.Resume() // from that reading: no jump
		}
		return err
	}
	return nil
}

// Resume lets the clock follow real time from its reading.
func (c *Controls) Resume(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Clock.Resume()
	now, _, realTime := c.Clock.state()
	return c.Engine.Sandbox.SaveClock(ctx, payments.SandboxClock{Now: now, RealTime: realTime})
}

// Restore sets the clock from the state saved in the engine's store, if
// any: a frozen clock stands at its saved reading, a running one reads its
// saved reading plus the real time elapsed since it was saved; neither
// ever reads earlier than the saved reading or its own. Call it once at start, before serving.
func (c *Controls) Restore(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	saved, ok, err := c.Engine.Sandbox.SavedClock(ctx)
	if err != nil || !ok {
		return err
	}
	c.Clock.restore(saved.Now, saved.Frozen, saved.RealTime, saved.Lead)
	return nil
}

// Advance moves the clock forward as a asks and returns once everything
// due up to the new reading applied and its webhooks were delivered. A
// request to move backwards, or past payments.SandboxClockLimit, is
// INVALID_INPUT and moves nothing. Each instant the clock stops at is
// saved before the clock moves there; when saving fails the advance stops
// and returns that error.
func (c *Controls) Advance(ctx context.Context, a payments.ClockAdvance) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var saveErr error
	_, err := c.Engine.Sandbox.Advance(ctx, a, func(t time.Time) {
		if saveErr != nil {
			return
		}
		// Saved as the reading t at the real time now: a running clock
		// resumes from there plus the real time elapsed.
		now, running, realTime := c.Clock.state()
		now = latest(now, t)
		if saveErr = c.Engine.Sandbox.SaveClock(ctx, payments.SandboxClock{Now: now, Frozen: !running, RealTime: realTime}); saveErr != nil {
			stop() // the advance ends at its next store operation
			return
		}
		c.Clock.AdvanceTo(t)
	})
	if saveErr != nil {
		return saveErr
	}
	return err
}

// AdvanceBy moves the clock forward by d, as Advance does.
func (c *Controls) AdvanceBy(ctx context.Context, d time.Duration) error {
	return c.Advance(ctx, payments.ClockAdvance{Duration: d})
}
