package engine_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
)

// readCounter is a Store that counts the records its reads return: every
// Get and every record a Scan visits, in Views and Updates alike.
type readCounter struct {
	payments.Store
	reads atomic.Int64
}

func (s *readCounter) Update(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.Update(ctx, func(tx payments.Tx) error { return fn(countingTx{tx, s}) })
}

func (s *readCounter) View(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.View(ctx, func(tx payments.Tx) error { return fn(countingTx{tx, s}) })
}

type countingTx struct {
	payments.Tx
	s *readCounter
}

func (t countingTx) Get(table, key string) ([]byte, error) {
	t.s.reads.Add(1)
	return t.Tx.Get(table, key)
}

func (t countingTx) Scan(table string, opts payments.ScanOptions, fn func(string, []byte) (bool, error)) error {
	return t.Tx.Scan(table, opts, func(k string, v []byte) (bool, error) {
		t.s.reads.Add(1)
		return fn(k, v)
	})
}

// TestWebhookPass_OutboxWithoutIndex: outbox records of a store written
// before the index of next attempts existed (no entries, the index version
// before it) are delivered by an engine started on it, in emission order:
// the index is built at start, on every store.
func TestWebhookPass_OutboxWithoutIndex(t *testing.T) {
	for name, mutate := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			cfg := payments.Config{}
			cfg.Store = memstore.New()
			mutate(&cfg)
			t.Cleanup(func() { _ = cfg.Store.Close() })
			var ids []string
			require.NoError(t, cfg.Store.Update(ctx, func(tx payments.Tx) error {
				ids = ids[:0]
				for i := range 3 {
					id := fmt.Sprintf("Webhook:0199f000-0000-7000-8000-00000000000%d", i)
					ids = append(ids, id)
					rec := fmt.Sprintf(`{"event":{"id":%q,"type":"OLD.EVENT","timestamp":"2026-01-01T00:00:00Z","data":{}},"attempts":%d,"nextAttemptAt":"2026-01-01T00:00:0%dZ"}`, id, i, 2-i)
					if err := tx.Put("outbox", id, []byte(rec)); err != nil {
						return err
					}
				}
				return tx.Put("index_meta", "version", []byte("5")) // written before the index existed
			}))
			rec := &enginetest.Recorder{}
			clock := sandbox.NewClock(at.Add(time.Minute))
			cfg.Now, cfg.NewUUID, cfg.Notifier, cfg.Sandbox = clock.Now, sandbox.NewUUID, rec, true
			eng, err := payments.New(cfg)
			require.NoError(t, err)
			defer func() { _ = eng.Close() }()
			_, err = eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			var got []string
			for _, ev := range rec.Events() {
				got = append(got, ev.ID)
			}
			assert.Equal(t, ids, got, "delivered, in emission order")
			left, err := eng.Webhooks.Pending(ctx)
			require.NoError(t, err)
			assert.Empty(t, left)
		})
	}
}

// BenchmarkWebhookPass measures a delivery pass that delivers 10 due
// events, beside no waiting events and beside 100,000 in backoff: with the
// index of next attempts the two cost the same (reads/op counts the
// records the pass's reads return).
func BenchmarkWebhookPass(b *testing.B) {
	for _, waiting := range []int{0, 100_000} {
		b.Run(fmt.Sprintf("waiting=%d", waiting), func(b *testing.B) {
			counter := &readCounter{}
			e := enginetest.NewEnv(b, func(c *payments.Config) { counter.Store = c.Store; c.Store = counter })
			h := engine.HandleOf(e.Eng.Webhooks)
			require.NoError(b, engine.SeedOutbox(ctx, h, waiting, 5000, "TEST.WAITING", e.Clock.Now().Add(time.Hour)))
			_, err := e.Eng.Webhooks.Flush(ctx)
			require.NoError(b, err)
			var reads int64
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				require.NoError(b, engine.SeedOutbox(ctx, h, 10, 10, "TEST.DUE", e.Clock.Now()))
				counter.reads.Store(0)
				b.StartTimer()
				n, err := e.Eng.Webhooks.Flush(ctx)
				if err != nil || n != 10 {
					b.Fatalf("delivered %d, %v", n, err)
				}
				reads += counter.reads.Load()
			}
			b.ReportMetric(float64(reads)/float64(b.N), "reads/op")
		})
	}
}
