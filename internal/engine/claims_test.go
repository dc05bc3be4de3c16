package engine_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_SharedStoreDeliversEachEventOnce: two engines on one Postgres
// store (two processes) flushing the outbox at the same time deliver each
// event once between them, because each claims the events it delivers.
func TestEngine_SharedStoreDeliversEachEventOnce(t *testing.T) {
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	var mu sync.Mutex
	seen := map[string]int{}
	var blocked atomic.Bool
	blocked.Store(true)
	notifier := payments.NotifierFunc(func(_ context.Context, ev payments.Event) error {
		if blocked.Load() {
			return context.DeadlineExceeded // keep events in the outbox during setup
		}
		mu.Lock()
		seen[ev.ID]++
		mu.Unlock()
		time.Sleep(time.Millisecond) // a delivery takes time: the passes overlap
		return nil
	})
	var engines []*payments.Engine
	for range 2 {
		s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		eng, err := payments.New(payments.Config{Store: s, Notifier: notifier, Sandbox: true,
			Retry: payments.RetryPolicy{Initial: time.Millisecond, Max: time.Millisecond}})
		require.NoError(t, err)
		t.Cleanup(func() { _ = eng.Close() })
		engines = append(engines, eng)
	}
	e := &enginetest.Env{Eng: engines[0]}
	acct := e.USDAccount(t, "Ann Event")
	for range 10 {
		_, err := engines[0].Sandbox.Fund(ctx, acct, 100)
		require.NoError(t, err)
	}
	pending, err := engines[1].Webhooks.Pending(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, pending)
	time.Sleep(5 * time.Millisecond) // past the setup failures' backoff
	blocked.Store(false)
	var wg sync.WaitGroup
	for _, eng := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				_, err := eng.Webhooks.Flush(ctx)
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for _, ev := range pending {
		assert.Equal(t, 1, seen[ev.ID], "event %s (%s) delivered %d times", ev.ID, ev.Type, seen[ev.ID])
	}
}
