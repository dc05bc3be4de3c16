package engine_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_DeliveryOutcomesRideAlong: the webhook worker records what its
// deliveries came to in the next operation's commit, so a client doing one
// operation after another on boltstore pays one commit per operation, not
// two. Every event is still delivered once, explicit Flush calls in between
// included, and the last outcomes, with no operation after them, are
// recorded on their own.
func TestEngine_DeliveryOutcomesRideAlong(t *testing.T) {
	bolt, err := boltstore.Open(filepath.Join(t.TempDir(), "ride.db"), nil)
	require.NoError(t, err)
	store := &enginetest.Probe{Store: bolt}
	rec := &enginetest.Recorder{}
	eng, err := payments.New(payments.Config{Store: store, Notifier: rec, Sandbox: true,
		KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close(); _ = bolt.Close() })
	e := &enginetest.Env{Eng: eng, Rec: rec, Store: store}
	from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
	_, err = eng.Sandbox.Fund(ctx, from, 1_000_000)
	require.NoError(t, err)
	_, err = eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	const ops = 60
	before := store.Updates.Load()
	for i := range ops {
		_, err := eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, true))
		require.NoError(t, err)
		if i%10 == 4 {
			// An explicit Flush records outcomes that wait for a ride
			// before it reads the outbox.
			_, err := eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
		}
	}
	commits := store.Updates.Load() - before
	// Each operation commits once; the explicit Flush calls may commit too,
	// and so may a pass whose ride wait (20 ms) ran out on a loaded machine.
	// Outcomes committed alone would be about one commit more per operation.
	assert.LessOrEqual(t, commits, int64(ops+ops/2), "commits for %d operations", ops)

	require.Eventually(t, func() bool {
		left, err := eng.Webhooks.Pending(ctx)
		return err == nil && len(left) == 0
	}, 5*time.Second, time.Millisecond, "the last outcomes are recorded without another operation")
	events := rec.Events()
	seen := map[string]int{}
	for _, ev := range events {
		seen[ev.ID]++
	}
	assert.Len(t, seen, len(events), "no event delivered twice")
	assert.GreaterOrEqual(t, len(seen), 3*ops, "every operation's events delivered")
}
