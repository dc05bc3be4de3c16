package memstore_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/storetest"
)

func harness() storetest.Harness {
	return storetest.Harness{New: func(testing.TB) payments.Store { return memstore.New() }}
}

func TestStore(t *testing.T) { storetest.Run(t, harness()) }

func BenchmarkStore(b *testing.B) { storetest.Benchmark(b, harness(), false) }

// TestQueuedAfterGoexit: Updates and Views queued behind a running Update
// are carried out by it; when a queued function ends the goroutine that
// carries it out (runtime.Goexit, as t.FailNow does), its own caller gets
// an error, the rest of the queue still runs and the store stays usable.
func TestQueuedAfterGoexit(t *testing.T) {
	s := memstore.New()
	ctx := context.Background()
	hold := make(chan struct{})
	running := make(chan struct{})
	go func() {
		_ = s.Update(ctx, func(tx payments.Tx) error {
			close(running)
			<-hold
			return tx.Put("t", "first", []byte("1"))
		})
	}()
	<-running
	results := make(chan error, 3)
	var seen []byte
	go func() { results <- s.Update(ctx, func(payments.Tx) error { runtime.Goexit(); return nil }) }()
	waitQueued(t, s, 1)
	go func() {
		results <- s.Update(ctx, func(tx payments.Tx) error { return tx.Put("t", "third", []byte("3")) })
	}()
	waitQueued(t, s, 2)
	go func() {
		results <- s.View(ctx, func(tx payments.Tx) (err error) {
			seen, err = tx.Get("t", "third")
			return err
		})
	}()
	waitQueued(t, s, 3)
	close(hold)
	var errs int
	for range 3 {
		if err := <-results; err != nil {
			errs++
			assert.ErrorContains(t, err, "exited")
		}
	}
	assert.Equal(t, 1, errs, "only the function that exited fails")
	assert.Equal(t, "3", string(seen), "the queued View ran after the queued Update")
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Put("t", "after", nil) }))
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		_, err := tx.Get("t", "first")
		return err
	}))
}

func waitQueued(t *testing.T, s *memstore.Store, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); memstore.Queued(s) < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d transactions queued, want %d", memstore.Queued(s), n)
		}
	}
}
