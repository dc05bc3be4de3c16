package engine_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_ProcessDue_PoisonItem: an item that cannot apply is retried
// with backoff, then parked in the dead letters with its reason; it never
// fails the pass or holds up the items behind it.
func TestEngine_ProcessDue_PoisonItem(t *testing.T) {
	e := enginetest.NewEnv(t)
	now := e.Eng.Now()
	poison := engine.DueKey(now.Add(-time.Second), "Transaction:poison") + "|a"
	require.NoError(t, enginetest.SeedDue(ctx, e.Eng, "settlements_due", poison, []byte("not json")))
	require.NoError(t, enginetest.SeedDue(ctx, e.Eng, "liveness_due", engine.DueKey(now, "ExternalAccount:gone"), []byte("ExternalAccount:gone")))

	for i := 1; i <= engine.MaxDueAttempts; i++ {
		_, err := e.Eng.ProcessDue(ctx)
		require.NoError(t, err, "a failing item never fails the pass")
		dead, err := e.Eng.DeadLetters(ctx)
		require.NoError(t, err)
		if i < engine.MaxDueAttempts {
			assert.Empty(t, dead, "attempt %d: retried before it is parked", i)
			// Within the backoff nothing is tried again.
			_, err = e.Eng.ProcessDue(ctx)
			require.NoError(t, err)
			e.Clock.Advance(time.Hour)
			continue
		}
		require.Len(t, dead, 1)
		assert.Equal(t, "settlements_due", dead[0].Table)
		assert.Equal(t, poison, dead[0].Key)
		assert.Equal(t, engine.MaxDueAttempts, dead[0].Attempts)
		assert.Contains(t, dead[0].Reason, "invalid character")
	}
	require.NoError(t, e.Store.View(ctx, func(tx payments.Tx) error {
		for _, tbl := range []string{"settlements_due", "liveness_due"} {
			n := 0
			require.NoError(t, tx.Scan(tbl, payments.ScanOptions{}, func(string, []byte) (bool, error) { n++; return true, nil }))
			assert.Zero(t, n, "%s is drained", tbl)
		}
		return nil
	}))
}
