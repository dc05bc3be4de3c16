package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/validate"
)

// TestClock is the sandbox's test clock, which the routes under
// /sandbox/clock drive (ours, not in the reference). sandbox.Controls
// implements it over a sandbox.Clock and the engine.
type TestClock interface {
	// Frozen reports whether the clock stands still.
	Frozen() bool
	// Advance moves the clock forward as a asks, applying everything due
	// on the way (payments.Sandbox.Advance), or returns its
	// INVALID_INPUT.
	Advance(ctx context.Context, a payments.ClockAdvance) error
	// Freeze stops the clock at its reading, or returns why the move
	// could not be kept (the sandbox's controls save every move in the
	// store, so that a restart resumes where the clock stood).
	Freeze(ctx context.Context) error
	// Resume lets the clock follow real time again from its reading
	// (never going back), or returns why the move could not be kept.
	Resume(ctx context.Context) error
}

// sandboxRoutes are ours: the test clock, the control of the sandbox
// state (sandbox_state.go) and events on demand (sandbox_trigger.go),
// served under /sandbox/ in sandbox mode only.
// Reading the clock takes any token; moving it, resetting, exporting and
// importing take MANAGE (an export holds every record of the platform).
// The clock only moves forward: quote expiries, settlement steps and
// webhook retries fall due on the way, in order, as they would in real
// time, so a test of a 24-hour window takes one request instead of a day.
func sandboxRoutes() []route {
	return []route{
		{method: "GET", path: "/sandbox/clock", fn: getClock},
		{method: "POST", path: "/sandbox/clock/advance", perm: manage, fn: advanceClock},
		{method: "POST", path: "/sandbox/clock/freeze", perm: manage, fn: freezeClock},
		{method: "POST", path: "/sandbox/clock/resume", perm: manage, fn: resumeClock},
		{method: "POST", path: "/sandbox/reset", perm: manage, fn: resetSandbox},
		{method: "GET", path: "/sandbox/state", perm: manage, fn: exportSandbox},
		{method: "POST", path: "/sandbox/state", perm: manage, upload: true, fn: importSandbox},
		{method: "GET", path: "/sandbox/trigger", fn: listTriggers},
		{method: "POST", path: "/sandbox/trigger", perm: manage, fn: trigger},
	}
}

// clockView is the answer of every clock route.
type clockView struct {
	Now    time.Time `json:"now"`
	Frozen bool      `json:"frozen"`
}

// testClock returns the server's test clock: FORBIDDEN outside sandbox
// mode, NOT_IMPLEMENTED when the server was built without one.
func testClock(r *request) (TestClock, error) {
	if !r.eng.Sandbox.Enabled() {
		return nil, payments.Errorf(payments.CodeForbidden, "sandbox operations are not available on this platform")
	}
	if r.h.cfg.TestClock == nil {
		return nil, payments.Errorf(payments.CodeNotImplemented, "this server runs on real time: it has no test clock")
	}
	return r.h.cfg.TestClock, nil
}

// clockAnswer is the clock's reading after a clock route.
func clockAnswer(r *request, c TestClock) (int, any, error) {
	return ok(http.StatusOK, clockView{Now: r.eng.Now(), Frozen: c.Frozen()})
}

// getClock is GET /sandbox/clock: the engine clock's reading and whether it
// is frozen.
func getClock(r *request) (int, any, error) {
	c, err := testClock(r)
	if err != nil {
		return fail(err)
	}
	return clockAnswer(r, c)
}

// advanceRequest is the body of POST /sandbox/clock/advance: a Go duration
// ("6m", "48h") or an RFC 3339 instant.
type advanceRequest struct {
	Duration string    `json:"duration"`
	To       time.Time `json:"to"`
}

// advanceClock is POST /sandbox/clock/advance with {"duration"} or {"to"}:
// the clock moves forward, everything due on the way applies and its
// webhooks are delivered before the answer, 200 with the new reading.
// Backwards, both members, or past payments.SandboxClockLimit is
// INVALID_INPUT, and nothing moves.
func advanceClock(r *request) (int, any, error) {
	c, err := testClock(r)
	if err != nil {
		return fail(err)
	}
	var in advanceRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a := payments.ClockAdvance{To: in.To}
	if in.Duration != "" {
		if a.Duration, err = time.ParseDuration(in.Duration); err != nil {
			return fail(payments.Invalid(validate.Errors{{Field: "duration", Message: `duration must be a duration such as "90s", "6m" or "48h", of at most 2562047h (about 292 years: give to for an instant further ahead)`}}))
		}
	}
	if err := c.Advance(r.ctx(), a); err != nil {
		return fail(err)
	}
	return clockAnswer(r, c)
}

// freezeClock is POST /sandbox/clock/freeze: the clock stands still until
// resumed or advanced, 200 with its reading.
func freezeClock(r *request) (int, any, error) {
	c, err := testClock(r)
	if err != nil {
		return fail(err)
	}
	if err := c.Freeze(r.ctx()); err != nil {
		return fail(err)
	}
	return clockAnswer(r, c)
}

// resumeClock is POST /sandbox/clock/resume: the clock follows real time
// again from its reading, 200.
func resumeClock(r *request) (int, any, error) {
	c, err := testClock(r)
	if err != nil {
		return fail(err)
	}
	if err := c.Resume(r.ctx()); err != nil {
		return fail(err)
	}
	return clockAnswer(r, c)
}
