package engine_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
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

// TestWebhookPass_ReadsOnlyDue: with 100,000 events waiting in backoff
// (due in an hour), a delivery pass reads the few events due now, not the
// waiting ones: the first pass of the engine reads the outbox whole once
// (and writes the waiting events' retry entries, which a payment does not
// write), every later pass reads in the tens of records; the waiting
// events are neither delivered early nor lost.
func TestWebhookPass_ReadsOnlyDue(t *testing.T) {
	counter := &readCounter{}
	e := enginetest.NewEnv(t, func(c *payments.Config) { counter.Store = c.Store; c.Store = counter })
	h := engine.HandleOf(e.Eng.Webhooks)
	const waiting = 100_000
	require.NoError(t, engine.SeedOutbox(ctx, h, waiting, 5000, "TEST.WAITING", e.Clock.Now().Add(time.Hour)))
	_, err := e.Eng.Webhooks.Flush(ctx) // the whole read, as the worker's first pass would
	require.NoError(t, err)
	require.Empty(t, e.Rec.Events(), "nothing is due")

	require.NoError(t, engine.SeedOutbox(ctx, h, 3, 3, "TEST.DUE", e.Clock.Now()))
	counter.reads.Store(0)
	_, err = e.Eng.Webhooks.Flush(ctx) // after the worker's pass, if it ran
	require.NoError(t, err)
	reads := counter.reads.Load()
	t.Logf("a pass delivering 3 events among %d waiting read %d records", waiting, reads)
	assert.Equal(t, []string{"TEST.DUE", "TEST.DUE", "TEST.DUE"}, e.Rec.Types())
	assert.Less(t, reads, int64(50), "the pass reads O(due) records, not the outbox")

	counter.reads.Store(0)
	n, err := e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Less(t, counter.reads.Load(), int64(10), "a pass with nothing due reads next to nothing")

	// Once due, the waiting events are delivered, a pass's batch at a
	// time, every one of them.
	e.Clock.Advance(time.Hour)
	for {
		n, err := e.Eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		require.LessOrEqual(t, n, 256)
		if n == 0 {
			break
		}
	}
	left, err := e.Eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	assert.Empty(t, left)
	assert.Len(t, e.Rec.Events(), waiting+3)
	assert.Empty(t, retryEntries(t, counter.Store), "no entry left behind")
}

// retryEntries returns the keys of the webhook pass's retry entries.
func retryEntries(t *testing.T, s payments.Store) []string {
	var keys []string
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		keys = keys[:0]
		return tx.Scan("outbox_retry", payments.ScanOptions{}, func(k string, _ []byte) (bool, error) {
			keys = append(keys, k)
			return true, nil
		})
	}))
	return keys
}

// TestWebhookPass_RetriesThroughEntries: on every store, an event whose
// delivery failed waits in backoff under one retry entry, is not tried
// again before its next attempt (the passes meanwhile do not find it),
// is delivered once due, and leaves no entry behind; a second failure
// moves its entry to the later attempt.
func TestWebhookPass_RetriesThroughEntries(t *testing.T) {
	for name, mutate := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			var store payments.Store // the engine's, which mutate chose
			e := enginetest.NewEnv(t, mutate, func(c *payments.Config) { store = c.Store })
			h := engine.HandleOf(e.Eng.Webhooks)
			_, err := e.Eng.Webhooks.Flush(ctx) // the engine's first, whole read
			require.NoError(t, err)
			e.Rec.FailWith(errors.New("receiver down"))
			require.NoError(t, engine.SeedOutbox(ctx, h, 1, 1, "TEST.RETRIED", e.Clock.Now()))
			_, err = e.Eng.Webhooks.Flush(ctx) // the worker may have tried it first
			require.NoError(t, err)
			require.Len(t, retryEntries(t, store), 1, "the failure leaves one retry entry")

			e.Clock.Advance(time.Hour) // past the first backoff, not the age limit
			n, err := e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			assert.Zero(t, n, "still failing")
			entries := retryEntries(t, store)
			require.Len(t, entries, 1, "the second failure moves the entry, it does not add one")

			e.Rec.FailWith(nil)
			calls := len(e.Rec.Events())
			n, err = e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			assert.Zero(t, n, "not due before its next attempt")
			assert.Len(t, e.Rec.Events(), calls)

			e.Clock.Advance(2 * time.Hour)
			_, err = e.Eng.Webhooks.Flush(ctx) // or the worker's pass, first
			require.NoError(t, err)
			assert.Len(t, e.Rec.Events(), calls+1, "delivered once")
			assert.Equal(t, "TEST.RETRIED", e.Rec.Types()[len(e.Rec.Types())-1])
			assert.Empty(t, retryEntries(t, store), "delivered: no entry left")
			left, err := e.Eng.Webhooks.Pending(ctx)
			require.NoError(t, err)
			assert.Empty(t, left)
		})
	}
}

// TestWebhookPass_EventCommittedAfterAPass: an event whose id was drawn
// before a pass read the outbox, but whose transaction committed after
// it, is delivered by a later pass: the pass does not move past the ids
// of a write still running.
func TestWebhookPass_EventCommittedAfterAPass(t *testing.T) {
	for name, mutate := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.NewEnv(t, mutate)
			h := engine.HandleOf(e.Eng.Webhooks)
			_, err := e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			emitted, release := make(chan struct{}), make(chan struct{})
			wrote := make(chan error, 1)
			go func() {
				wrote <- h.Update(ctx, func(tx *engine.Txn) error {
					if err := tx.Emit("TEST.LATE", map[string]string{}); err != nil {
						return err
					}
					select {
					case <-emitted:
					default:
						close(emitted)
					}
					<-release
					return nil
				})
			}()
			<-emitted
			time.Sleep(5 * time.Millisecond) // the pass begins a few ms after the id
			require.NoError(t, engine.SeedOutbox(ctx, h, 0, 1, "TEST.NONE", e.Clock.Now()))
			passed := make(chan struct{})
			go func() {
				defer close(passed)
				_, _ = e.Eng.Webhooks.Flush(ctx) // may wait for the write on some stores
			}()
			select {
			case <-passed:
			case <-time.After(200 * time.Millisecond):
			}
			close(release)
			require.NoError(t, <-wrote)
			<-passed
			_, err = e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			assert.Contains(t, e.Rec.Types(), "TEST.LATE")
			left, err := e.Eng.Webhooks.Pending(ctx)
			require.NoError(t, err)
			assert.Empty(t, left)
		})
	}
}

// TestWebhookPass_UnorderedIDs: with ids that are not time-ordered (a
// Config.NewUUID that breaks its contract), every pass reads the outbox
// whole and every event is delivered.
func TestWebhookPass_UnorderedIDs(t *testing.T) {
	e := enginetest.NewEnv(t, func(c *payments.Config) { c.NewUUID = uuid.NewRandom })
	h := engine.HandleOf(e.Eng.Webhooks)
	for round := range 5 {
		require.NoError(t, engine.SeedOutbox(ctx, h, 20, 20, "TEST.RANDOM", e.Clock.Now()))
		_, err := e.Eng.Webhooks.Flush(ctx) // after the worker's, if it ran
		require.NoError(t, err)
		assert.Len(t, e.Rec.Events(), 20*(round+1), "round %d", round)
	}
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
