package history

import (
	"cmp"
	"context"
	"errors"
	"strings"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/ixkey"
)

// The event history's retention: an event leaves the history once
// Config.EventHistoryRetention has passed since its delivery ended. A
// pass reads the history's index of every event (by when each was
// emitted) up to now minus the retention: an event emitted later ended
// its delivery later too, so none of those is due to leave. Each record
// read says when its delivery ended; those due leave with their index
// entries, a few at a time. An event emitted before the bound but
// delivered after it (retried for longer than the retention) is read by
// each pass until it is due, and a pass reads at most
// historyReads*historyBatches entries, so such events delay the removal
// of later ones; none leaves early. (An index by the end of delivery cost
// every delivered event one more write; the entries a store still holds
// of it are removed by the passes.)
const (
	// historyBatch bounds the events one transaction removes from the
	// history, historyReads the entries of the index it reads.
	historyBatch = 100
	historyReads = 1000
	// historyBatches bounds the transactions of one pass: a pass removes
	// at most historyBatch*historyBatches events, and the next pass (a
	// second later) goes on.
	historyBatches = 10
)

// historyClaim is the name a pruning pass claims (engine.ClaimWork): with
// several processes on one store, one of them prunes at a time.
const historyClaim = "event_history"

// Area declares the history's retention to the kernel: a pass of the
// due-work worker (Prune). The root registers it before every area, where
// the kernel's own pass was.
func Area(e *engine.Handle) engine.AreaDef {
	return engine.AreaDef{Passes: []func(context.Context) (int, error){
		func(ctx context.Context) (int, error) { return Prune(ctx, e) },
	}}
}

// Prune removes from the event history of e, in transactions of at most
// historyBatch events, the events whose delivery ended
// Config.EventHistoryRetention ago or longer, and returns how many it
// removed. Without the history, or with a retention of zero or less (kept
// forever), it does nothing.
func Prune(ctx context.Context, e *engine.Handle) (int, error) {
	keep := e.Config.EventHistoryRetention
	if !e.Config.EventHistory || keep <= 0 {
		return 0, nil
	}
	var bk [16]byte
	bound := string(ixkey.AppendSortKey(bk[:0], e.Now().Add(-keep)))
	mine, err := engine.ClaimWork(e, ctx, []string{historyClaim})
	if err != nil {
		return 0, err
	}
	defer engine.ReleaseWork(e, mine)
	if mine != nil && !mine[historyClaim] {
		return 0, nil // another process prunes
	}
	if err := dropFinishedIndex(ctx, e); err != nil {
		return 0, err
	}
	cutoff := e.Now().Add(-keep)
	all := engine.IndexTable(engine.TableEventLog, engine.IxAll)
	n, after := 0, ""
	for range historyBatches {
		removed, done, next := 0, false, after
		err := e.Update(ctx, func(t *engine.Txn) error {
			removed, done = 0, true
			var ids []string
			last, reads := after, 0
			err := t.Tx.Scan(all, engine.ScanOptions{Prefix: "|", After: after}, func(k string, _ []byte) (bool, error) {
				if len(k) < 1+len(bound) || k[1:1+len(bound)] > bound {
					return false, nil // emitted after the bound: none is due
				}
				id := k[strings.LastIndexByte(k, '|')+1:]
				var d engine.WebhookDelivery
				if err := engine.GetJSON(t.Tx, engine.TableEventLog, id, &d); err != nil && !errors.Is(err, engine.ErrNotFound) {
					return false, err
				}
				if !cmp.Or(d.FinishedAt, d.Event.Timestamp).After(cutoff) {
					ids = append(ids, id)
				}
				last, reads = k, reads+1
				if len(ids) == historyBatch || reads == historyReads {
					done = false
					return false, nil
				}
				return true, nil
			})
			if err != nil {
				return err
			}
			for _, id := range ids {
				// Txn.Delete removes the record's entries in every index
				// of the history with it.
				if err := t.Delete(engine.TableEventLog, id); err != nil && !errors.Is(err, engine.ErrNotFound) {
					return err
				}
			}
			removed, next = len(ids), last
			return nil
		})
		n, after = n+removed, next
		if err != nil || done {
			return n, err
		}
	}
	return n, nil
}

// dropFinishedIndex removes, historyReads at a time, the entries of the
// index by end of delivery (engine.IxFinished) that a store written by an
// earlier version holds: nothing reads or keeps it any more.
func dropFinishedIndex(ctx context.Context, e *engine.Handle) error {
	old := engine.IndexTable(engine.TableEventLog, engine.IxFinished)
	var keys []string
	read := func(tx engine.Tx) error {
		keys = keys[:0]
		return tx.Scan(old, engine.ScanOptions{}, func(k string, _ []byte) (bool, error) {
			keys = append(keys, k)
			return len(keys) < historyReads, nil
		})
	}
	if err := e.Store.View(ctx, read); err != nil || len(keys) == 0 {
		return err
	}
	return e.Update(ctx, func(t *engine.Txn) error {
		err := read(t.Tx)
		for _, k := range keys {
			if err == nil {
				err = t.Tx.Delete(old, k)
			}
		}
		return err
	})
}
