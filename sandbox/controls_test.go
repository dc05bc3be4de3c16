package sandbox_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestControls_RestoreResumesTheClock: every move of the controls is kept
// in the store, and controls over the same store (a restarted server)
// resume where the clock stood, frozen or running, never earlier; a reset
// keeps the reading.
func TestControls_RestoreResumesTheClock(t *testing.T) {
	store := memstore.New()
	open := func(clock *sandbox.Clock) (*payments.Engine, *sandbox.Controls) {
		t.Helper()
		eng, err := payments.New(payments.Config{Store: store, Now: clock.Now, Sandbox: true})
		require.NoError(t, err)
		t.Cleanup(func() { _ = eng.Close() })
		ctl := sandbox.NewControls(eng, clock)
		require.NoError(t, ctl.Restore(t.Context()))
		return eng, ctl
	}
	eng, ctl := open(sandbox.NewRealClock())
	assert.WithinDuration(t, time.Now(), ctl.Now(), time.Second, "nothing saved: real time")
	to := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, ctl.Advance(t.Context(), payments.ClockAdvance{To: to}))
	_, err := eng.Sandbox.Reset(t.Context(), false)
	require.NoError(t, err)
	require.NoError(t, eng.Close())

	// Running: a new real-time clock resumes ahead, and keeps running.
	eng, ctl = open(sandbox.NewRealClock())
	assert.False(t, ctl.Frozen())
	assert.False(t, ctl.Now().Before(to), "restarted at %s", ctl.Now())
	assert.WithinDuration(t, to, ctl.Now(), 5*time.Second)

	// Frozen: it stands where it was frozen.
	require.NoError(t, ctl.Advance(t.Context(), payments.ClockAdvance{Duration: 24 * time.Hour}))
	require.NoError(t, ctl.Freeze(t.Context()))
	frozen := ctl.Now()
	require.NoError(t, eng.Close())
	_, ctl = open(sandbox.NewRealClock())
	assert.True(t, ctl.Frozen())
	assert.Equal(t, frozen, ctl.Now())

	// Resumed, it runs again after a restart, from at least its reading.
	require.NoError(t, ctl.Resume(t.Context()))
	_, ctl = open(sandbox.NewRealClock())
	assert.False(t, ctl.Frozen())
	assert.False(t, ctl.Now().Before(frozen))

	// A clock already ahead of what was saved is never moved back.
	later := sandbox.NewClock(to.Add(100 * 24 * time.Hour))
	_, ctl = open(later)
	assert.Equal(t, to.Add(100*24*time.Hour), ctl.Now())
}

// TestServer_ClockLimit: an advance past payments.SandboxClockLimit is
// refused with a field error and moves nothing; at the limit itself every
// operation still works (its records and deadlines can be stored).
func TestServer_ClockLimit(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)
	assert.Equal(t, []string{"to"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"to": "9999-12-31T23:58:00Z"}))
	assert.Equal(t, []string{"to"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"to": "9000-01-01T00:00:00.001Z"}))
	assert.Equal(t, "2025-10-13T12:00:00Z", requireCall(t, s, "GET", "/sandbox/clock", nil)["now"], "refusals move nothing")
	requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"to": "8999-12-01T00:00:00Z"})
	assert.Equal(t, []string{"duration"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "8784h"}))

	limit := payments.SandboxClockLimit.Format(time.RFC3339)
	requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"to": payments.SandboxClockLimit.Add(-time.Hour)})
	customer, acct := funded(t, s, 50_000)
	tx := pay(t, s, customer, acct, "123456003", 10_000) // settles after six minutes
	assert.Equal(t, limit, requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"to": limit})["now"])
	assert.Equal(t, "COMPLETED", requireCall(t, s, "GET", "/transactions/"+tx, nil)["status"])
	assert.Equal(t, limit, requireCall(t, s, "GET", "/sandbox/clock", nil)["now"])
	pay(t, s, customer, acct, "223456003", 10_000) // its settlement would fall past the limit
	requireCall(t, s, "GET", "/sandbox/webhooks", nil)
	requireCall(t, s, "POST", "/sandbox/reset", nil)
	requireCall(t, s, "GET", "/config", nil)
}

// TestControls_AdvanceFollowsTheWorkDueAtStart: a month's advance with a
// failing webhook endpoint and a steady writer finishes, because only the
// work due when it started makes it stop: the writer's events, failing
// too, would otherwise put a stop a second ahead at every stop.
func TestControls_AdvanceFollowsTheWorkDueAtStart(t *testing.T) {
	var tries atomic.Int64
	eng, clock, err := sandbox.New(func(c *payments.Config) {
		c.Notifier = payments.NotifierFunc(func(context.Context, payments.Event) error {
			tries.Add(1)
			return errors.New("endpoint answered 503")
		})
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close() })
	ctl := sandbox.NewControls(eng, clock)
	acct := fundedAccount(t, eng)
	_, err = eng.Webhooks.Flush(t.Context())
	require.NoError(t, err)
	waiting, err := eng.Webhooks.PendingDeliveries(t.Context(), "", 0)
	require.NoError(t, err)
	require.NotEmpty(t, waiting, "failing deliveries wait for their retries")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			if _, err := eng.Sandbox.Fund(context.Background(), acct, 1); err != nil {
				t.Error(err)
				return
			}
		}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	began := clock.Now()
	err = ctl.AdvanceBy(ctx, 720*time.Hour)
	close(stop)
	wg.Wait()
	require.NoError(t, err, "the advance finished")
	assert.Equal(t, began.Add(720*time.Hour), clock.Now())
	assert.Positive(t, tries.Load())

	// The events waiting at the start were tried until given up after
	// RetryPolicy.MaxAge (7 days), as at their own pace.
	for _, w := range waiting {
		_, err := eng.Webhooks.Delivery(t.Context(), w.Event.ID)
		require.NoError(t, err)
	}
	dead, err := eng.Webhooks.DeadEvents(t.Context(), 1000)
	require.NoError(t, err)
	for _, w := range waiting {
		assert.True(t, containsEvent(dead, w.Event.ID), "%s given up", w.Event.ID)
	}
}

// fundedAccount returns the platform's first internal account, funded
// through eng.
func fundedAccount(t *testing.T, eng *payments.Engine) string {
	t.Helper()
	accts, err := eng.Accounts.ListInternal(t.Context(), payments.InternalAccountFilter{}, payments.PlatformScope, payments.ListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, accts.Data)
	_, err = eng.Sandbox.Fund(t.Context(), accts.Data[0].ID, 1_000)
	require.NoError(t, err)
	return accts.Data[0].ID
}

func containsEvent(ds []payments.WebhookDelivery, id string) bool {
	for _, d := range ds {
		if d.Event.ID == id {
			return true
		}
	}
	return false
}

// TestServer_ClockFarAhead: a running clock advanced 374 years (past the
// 292 years a time.Duration holds), over HTTP and through the engine's
// controls, still runs, says so, stamps payments with the time they were
// made, and resumes from there after a restart.
func TestServer_ClockFarAhead(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)
	requireCall(t, s, "POST", "/sandbox/clock/resume", nil)
	assert.Equal(t, []string{"duration"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "3000000h"}),
		"a duration holds about 292 years: further is a field error")
	to := time.Date(2400, 1, 1, 0, 0, 0, 0, time.UTC)
	moved := requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"to": to})
	assert.Equal(t, false, moved["frozen"])
	read := func() time.Time {
		t.Helper()
		at, err := time.Parse(time.RFC3339Nano, requireCall(t, s, "GET", "/sandbox/clock", nil)["now"].(string))
		require.NoError(t, err)
		return at
	}
	first := read()
	assert.False(t, first.Before(to))
	require.Eventually(t, func() bool { return read().After(first) }, 5*time.Second, 2*time.Millisecond,
		"the clock runs on from %s", to)
	a := requireCall(t, s, "POST", "/customers", customerBody("Ann Future"))
	time.Sleep(2 * time.Millisecond)
	b := requireCall(t, s, "POST", "/customers", customerBody("Bob Future"))
	assert.NotEqual(t, a["createdAt"], b["createdAt"], "records carry the time they were made")
	// As times: RFC 3339 with its trailing zeros trimmed does not sort as
	// text (".015Z" < ".01Z").
	at := func(v any) time.Time {
		t.Helper()
		tm, err := time.Parse(time.RFC3339Nano, v.(string))
		require.NoError(t, err)
		return tm
	}
	assert.True(t, at(b["createdAt"]).After(at(a["createdAt"])), "%s after %s", b["createdAt"], a["createdAt"])

	// Through the engine: another advance, by a duration, from there.
	require.NoError(t, s.Controls.AdvanceBy(t.Context(), 24*time.Hour))
	after := s.Engine.Now()
	assert.True(t, after.After(first.Add(24*time.Hour)), "%s", after)
	require.Eventually(t, func() bool { return s.Engine.Now().After(after) }, 5*time.Second, time.Millisecond)

	// A restart on the same store resumes, running, from the saved reading.
	clock := sandbox.NewRealClock()
	eng, err := payments.New(payments.Config{Store: s.Engine.Store(), Now: clock.Now, Sandbox: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close() })
	ctl := sandbox.NewControls(eng, clock)
	require.NoError(t, ctl.Restore(t.Context()))
	assert.False(t, ctl.Frozen())
	restarted := clock.Now()
	assert.False(t, restarted.Before(after), "restarted at %s", restarted)
	assert.WithinDuration(t, after, restarted, 5*time.Second)
	require.Eventually(t, func() bool { return clock.Now().After(restarted) }, 5*time.Second, time.Millisecond)
}
