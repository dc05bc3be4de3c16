package history_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
)

// historyIDs lists the ids of every event in e's history, in emission
// order.
func historyIDs(t *testing.T, e *enginetest.Env) []string {
	t.Helper()
	var ids []string
	for d, err := range e.Eng.Webhooks.ListDeliveriesAll(ctx, payments.DeliveryFilter{}, payments.ListParams{Limit: 100}) {
		require.NoError(t, err)
		ids = append(ids, d.Event.ID)
	}
	return ids
}

// countRecords counts the records of a store table.
func countRecords(t *testing.T, s payments.Store, table string) int {
	t.Helper()
	n := 0
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		return tx.Scan(table, payments.ScanOptions{}, func(string, []byte) (bool, error) { n++; return true, nil })
	}))
	return n
}

// TestEventHistory_Retention: events whose delivery ended longer ago than
// Config.EventHistoryRetention leave the history at the next due-work
// pass, with every index entry of theirs; younger ones stay, on every
// store.
func TestEventHistory_Retention(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store, func(c *payments.Config) {
				c.EventHistory, c.EventHistoryRetention = true, 24*time.Hour
			})
			a := e.USDAccount(t, "Ann Able")
			_, err := e.Eng.Sandbox.Fund(ctx, a, 500)
			require.NoError(t, err)
			_, err = e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			old := historyIDs(t, e)
			require.NotEmpty(t, old)

			e.Clock.Advance(12 * time.Hour)
			_, err = e.Eng.Sandbox.Fund(ctx, a, 700)
			require.NoError(t, err)
			_, err = e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			_, err = e.Eng.ProcessDue(ctx)
			require.NoError(t, err)
			both := historyIDs(t, e)
			require.Greater(t, len(both), len(old), "nothing is 24 hours old yet")
			young := both[len(old):]

			e.Clock.Advance(12*time.Hour + time.Millisecond) // the first events ended 24 hours ago
			_, err = e.Eng.ProcessDue(ctx)
			require.NoError(t, err)
			assert.Equal(t, young, historyIDs(t, e), "the older events left, the younger stay")
			_, err = e.Eng.Webhooks.Delivery(ctx, old[0])
			enginetest.RequireCode(t, err, payments.CodeNotFound)
			mine, err := e.Eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Resource: a}, payments.ListParams{})
			require.NoError(t, err)
			require.Len(t, mine.Data, 1, "by resource too")
			assert.Contains(t, string(mine.Data[0].Event.Data), `"amount":1200`)
			for _, table := range []string{"event_log", "event_log_ix_all"} {
				assert.Equal(t, len(young), countRecords(t, e.Eng.Store(), table), table)
			}
			assert.Zero(t, countRecords(t, e.Eng.Store(), "event_log_ix_finished"), "no index by end of delivery is written")
			assert.Equal(t, len(young), countRecords(t, e.Eng.Store(), "event_log_ix_resource"), "every young event describes a record")

			e.Clock.Advance(12 * time.Hour)
			_, err = e.Eng.ProcessDue(ctx)
			require.NoError(t, err)
			assert.Empty(t, historyIDs(t, e))
			assert.Zero(t, countRecords(t, e.Eng.Store(), "event_log_ix_finished"))
		})
	}
}

// fundedHistory returns an engine keeping its event history for
// retention, with the events of one funding delivered, and their ids.
func fundedHistory(t *testing.T, retention time.Duration) (*enginetest.Env, []string) {
	t.Helper()
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.EventHistory, c.EventHistoryRetention = true, retention })
	_, err := e.Eng.Sandbox.Fund(ctx, e.USDAccount(t, "Ann Able"), 500)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	ids := historyIDs(t, e)
	require.NotEmpty(t, ids)
	return e, ids
}

// TestEventHistory_RetentionDropsFinishedIndex: the entries of the index
// by end of delivery that a store written by an earlier version holds
// leave with the next due-work pass, more than one transaction's worth
// too; the history itself stays.
func TestEventHistory_RetentionDropsFinishedIndex(t *testing.T) {
	e, kept := fundedHistory(t, time.Hour)
	require.NoError(t, e.Eng.Store().Update(ctx, func(tx payments.Tx) error {
		for i := range 1500 {
			if err := tx.Put("event_log_ix_finished", fmt.Sprintf("%016x||%016x|Webhook:%d", i, i, i), []byte{}); err != nil {
				return err
			}
		}
		return nil
	}))
	for range 2 {
		_, err := e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
	}
	assert.Zero(t, countRecords(t, e.Eng.Store(), "event_log_ix_finished"))
	assert.Equal(t, kept, historyIDs(t, e))
}

// TestEventHistory_RetentionDefault: a zero EventHistoryRetention keeps
// an event 7 days (DefaultEventHistoryRetention); a negative one keeps it
// forever.
func TestEventHistory_RetentionDefault(t *testing.T) {
	for _, tc := range []struct {
		retention time.Duration
		keptAfter time.Duration // the longest the history still has it
		goneAfter time.Duration // 0: never
	}{{0, 7*24*time.Hour - time.Minute, 7 * 24 * time.Hour}, {-1, 10 * 365 * 24 * time.Hour, 0}} {
		e, ids := fundedHistory(t, tc.retention)
		e.Clock.Advance(tc.keptAfter)
		_, err := e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
		assert.Equal(t, ids, historyIDs(t, e), "retention %v: kept after %v", tc.retention, tc.keptAfter)
		if tc.goneAfter > 0 {
			e.Clock.Advance(tc.goneAfter - tc.keptAfter)
			_, err = e.Eng.ProcessDue(ctx)
			require.NoError(t, err)
			assert.Empty(t, historyIDs(t, e), "retention %v: gone after %v", tc.retention, tc.goneAfter)
		}
	}
}

// TestEventHistory_RetentionBatches: a pass removes a bounded number of
// events, a bounded number per transaction; the next passes go on until
// none is due.
func TestEventHistory_RetentionBatches(t *testing.T) {
	fg := &foreground{}
	e := enginetest.NewEnv(t, func(c *payments.Config) {
		c.EventHistory, c.EventHistoryRetention = true, time.Hour
		fg.Store = c.Store
		c.Store = fg
	})
	mine := context.WithValue(ctx, foregroundKey{}, true)
	for i := range 1050 { // each a TEST event to the new endpoint, delivered to the Notifier
		endpoint := fmt.Sprintf("https://example.com/hooks/%d", i)
		_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &endpoint})
		require.NoError(t, err)
	}
	for {
		n, err := e.Eng.Webhooks.Flush(mine)
		require.NoError(t, err)
		if n == 0 {
			break
		}
	}
	require.Len(t, historyIDs(t, e), 1050)
	e.Clock.Advance(time.Hour)
	before := fg.updates.Load()
	n, err := e.Eng.ProcessDue(mine)
	require.NoError(t, err)
	assert.Equal(t, 1000, n, "a pass removes at most 1,000 events")
	assert.Equal(t, int64(10), fg.updates.Load()-before, "100 per transaction")
	assert.Len(t, historyIDs(t, e), 50)
	n, err = e.Eng.ProcessDue(mine)
	require.NoError(t, err)
	assert.Equal(t, 50, n)
	assert.Empty(t, historyIDs(t, e))
}

// foreground is a store that lets only the test's own calls (their
// context carries foregroundKey) carry out background work: as a store
// shared by processes (payments.Claimer), it refuses every claim of the
// engine's background workers, which tick every second on the real clock
// and would otherwise prune the history beside the test's ProcessDue. It
// counts the test's Updates.
type foreground struct {
	payments.Store
	updates atomic.Int64
}

// foregroundKey marks the context of the test's own calls.
type foregroundKey struct{}

func (f *foreground) Update(ctx context.Context, fn func(payments.Tx) error) error {
	if ctx.Value(foregroundKey{}) != nil {
		f.updates.Add(1)
	}
	return f.Store.Update(ctx, fn)
}

func (f *foreground) Claim(ctx context.Context, _ string, _ time.Duration, names []string) ([]string, error) {
	if ctx.Value(foregroundKey{}) == nil {
		return nil, nil
	}
	return names, nil
}

func (f *foreground) Release(context.Context, string, []string) error { return nil }

var ctx = context.Background()
