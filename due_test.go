package payments_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_ProcessDue_PoisonItem: an item that cannot apply is retried
// with backoff, then parked in the dead letters with its reason; it never
// fails the pass or holds up the items behind it.
func TestEngine_ProcessDue_PoisonItem(t *testing.T) {
	e := newEnv(t)
	now := e.eng.Now()
	poison := payments.DueKey(now.Add(-time.Second), "Transaction:poison") + "|a"
	require.NoError(t, e.eng.SeedDue(ctx, payments.TableSettlementsDue, poison, []byte("not json")))
	require.NoError(t, e.eng.SeedDue(ctx, payments.TableLivenessDue, payments.DueKey(now, "ExternalAccount:gone"), []byte("ExternalAccount:gone")))

	for i := 1; i <= payments.MaxDueAttempts; i++ {
		_, err := e.eng.ProcessDue(ctx)
		require.NoError(t, err, "a failing item never fails the pass")
		dead, err := e.eng.DeadLetters(ctx)
		require.NoError(t, err)
		if i < payments.MaxDueAttempts {
			assert.Empty(t, dead, "attempt %d: retried before it is parked", i)
			// Within the backoff nothing is tried again.
			_, err = e.eng.ProcessDue(ctx)
			require.NoError(t, err)
			e.clock.Advance(time.Hour)
			continue
		}
		require.Len(t, dead, 1)
		assert.Equal(t, payments.TableSettlementsDue, dead[0].Table)
		assert.Equal(t, poison, dead[0].Key)
		assert.Equal(t, payments.MaxDueAttempts, dead[0].Attempts)
		assert.Contains(t, dead[0].Reason, "invalid character")
	}
	require.NoError(t, e.store.View(ctx, func(tx payments.Tx) error {
		for _, tbl := range []string{payments.TableSettlementsDue, payments.TableLivenessDue} {
			n := 0
			require.NoError(t, tx.Scan(tbl, payments.ScanOptions{}, func(string, []byte) (bool, error) { n++; return true, nil }))
			assert.Zero(t, n, "%s is drained", tbl)
		}
		return nil
	}))
}
