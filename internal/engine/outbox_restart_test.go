package engine_test

import (
	"errors"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_OutboxSurvivesRestart: events whose delivery failed stay in the
// durable outbox across a restart on boltstore and are delivered by the next
// engine with their original ids, after the backoff has passed.
func TestEngine_OutboxSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "outbox.db")
	clock := sandbox.NewClock(timeZero())
	open := func(rec *enginetest.Recorder) (*payments.Engine, payments.Store) {
		s, err := boltstore.Open(path, nil)
		require.NoError(t, err)
		eng, err := payments.New(payments.Config{Store: s, Now: clock.Now, Notifier: rec, Sandbox: true,
			KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{}})
		require.NoError(t, err)
		return eng, s
	}

	down := &enginetest.Recorder{}
	down.FailWith(errors.New("receiver down"))
	eng, store := open(down)
	e := &enginetest.Env{Eng: eng, Clock: clock, Rec: down, Store: store}
	from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
	_, err := eng.Sandbox.Fund(ctx, from, 1_000)
	require.NoError(t, err)
	_, err = eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 400, true))
	require.NoError(t, err)
	_, err = eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	waiting, err := eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, waiting)
	assert.Contains(t, eventTypes(waiting), "OUTGOING_PAYMENT.COMPLETED")
	require.NoError(t, eng.Close())
	require.NoError(t, store.Close())

	up := &enginetest.Recorder{}
	eng, store = open(up)
	defer func() { _ = eng.Close(); _ = store.Close() }()
	_, err = eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	assert.Empty(t, up.Types(), "nothing is due before the backoff")

	clock.Advance(time.Minute)
	_, err = eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	got := up.Events()
	assert.Equal(t, eventIDs(waiting), eventIDs(got), "the same events, with the same ids")
	left, err := eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	assert.Empty(t, left)
	require.NoError(t, payments.CheckLedger(ctx, store))
}

func eventTypes(evs []payments.Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, string(ev.Type))
	}
	return out
}

func eventIDs(evs []payments.Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.ID)
	}
	sort.Strings(out)
	return out
}
