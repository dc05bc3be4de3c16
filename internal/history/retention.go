package history

import (
	"context"
	"errors"
	"strings"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/ixkey"
)

// The event history's retention: an event leaves the history once
// Config.EventHistoryRetention has passed since its delivery ended. The
// history is indexed by that time (engine.IxFinished), so a pass reads the
// index's prefix up to now minus the retention, the events that are due to
// leave and nothing else, and removes them with their index entries, a few
// at a time.

const (
	// historyBatch bounds the events one transaction removes from the
	// history.
	historyBatch = 100
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
	n := 0
	for range historyBatches {
		removed := 0
		err := e.Update(ctx, func(t *engine.Txn) error {
			removed = 0
			var ids []string
			err := t.Tx.Scan(engine.IndexTable(engine.TableEventLog, engine.IxFinished), engine.ScanOptions{}, func(k string, _ []byte) (bool, error) {
				if len(k) < len(bound) || k[:len(bound)] > bound {
					return false, nil
				}
				ids = append(ids, k[strings.LastIndexByte(k, '|')+1:])
				return len(ids) < historyBatch, nil
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
			removed = len(ids)
			return nil
		})
		n += removed
		if err != nil || removed < historyBatch {
			return n, err
		}
	}
	return n, nil
}
