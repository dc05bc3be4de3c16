// Package backlog counts the work waiting in an engine (events to deliver,
// due items, intents, dead letters) for operators' gauges read when a
// monitor asks (telemetry/prommetrics, through the root's Engine.Backlog).
// It reads the kernel's tables through its exported API, in one read
// transaction, and changes nothing.
package backlog

import (
	"context"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/eventrec"
)

// Backlog is the work waiting in the engine at one clock reading, for
// operators' gauges: each count reads at most the limit Count was
// given, and Capped reports that some count reached it (so it is "at
// least").
type Backlog struct {
	// At is the engine clock's reading the counts were taken at.
	At time.Time
	// Webhooks is how many events wait for delivery (due now or backing
	// off); OldestWebhook when the oldest of them was emitted (zero when
	// none waits), so At minus it is how long it has waited.
	Webhooks      int
	OldestWebhook time.Time
	// DeadWebhooks is how many events were given up (the outbox's dead
	// letters).
	DeadWebhooks int
	// Due is how many items of each registered due table are due at or
	// before At and not applied yet (items backing off after a failure
	// included), by table; items scheduled later are not counted.
	Due map[string]int
	// DeadDue is how many due items and intents kept failing and were
	// parked in the dead letters (DeadLetters).
	DeadDue int
	// Intents is how many intents wait for their hand-over, by kind
	// ("send" and "pull": payments for the rail; "code": one-time codes):
	// written by a committed operation, not yet carried out.
	Intents map[string]int
	// Capped reports that some count stopped at the limit.
	Capped bool
}

// Count counts the work waiting in e, in one read transaction that reads
// at most limit entries of each table it counts (1000 when limit <= 0). It
// is meant for gauges read when a monitor asks, not for a hot path.
func Count(ctx context.Context, e *engine.Handle, limit int) (Backlog, error) {
	if limit <= 0 {
		limit = 1000
	}
	kinds := e.Registry.IntentKinds()
	b := Backlog{At: e.Now(), Due: make(map[string]int, len(e.Registry.Due)), Intents: make(map[string]int, len(kinds))}
	err := e.Store.View(ctx, func(tx engine.Tx) error {
		b.Capped = false
		// count counts the keys of table up to bound ("" for none), at
		// most limit; first receives the first key's value, each every
		// key.
		count := func(table, bound string, first func([]byte) error, each func(string)) (int, error) {
			n := 0
			err := tx.Scan(table, engine.ScanOptions{}, func(k string, v []byte) (bool, error) {
				if bound != "" && k > bound {
					return false, nil
				}
				if n == 0 && first != nil {
					if err := first(v); err != nil {
						return false, err
					}
				}
				if each != nil {
					each(k)
				}
				n++
				if n >= limit {
					b.Capped = true
					return false, nil
				}
				return true, nil
			})
			return n, err
		}
		var err error
		b.OldestWebhook = time.Time{}
		if b.Webhooks, err = count(engine.TableOutbox, "", func(v []byte) error {
			r, err := eventrec.Decode(v)
			b.OldestWebhook = r.Event.Timestamp
			return err
		}, nil); err != nil {
			return err
		}
		if b.DeadWebhooks, err = count(engine.TableOutboxDead, "", nil, nil); err != nil {
			return err
		}
		bound := engine.DueKey(b.At, "~")
		for _, w := range e.Registry.Due {
			if b.Due[w.Table], err = count(w.Table, bound, nil, nil); err != nil {
				return err
			}
		}
		if b.DeadDue, err = count(engine.TableDueDead, "", nil, nil); err != nil {
			return err
		}
		clear(b.Intents)
		for _, kind := range kinds {
			b.Intents[kind] = 0
		}
		_, err = count(engine.TableIntents, "", nil, func(id string) {
			kind, _, _ := strings.Cut(id, ":")
			b.Intents[kind]++
		})
		return err
	})
	return b, err
}
