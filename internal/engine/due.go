package engine

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/paygrid/payments/internal/eventrec"
)

// DueLayout formats due times so that keys sort in time order.
const DueLayout = "2006-01-02T15:04:05.000Z"

// DueKey is the key of work due at t for id in a "due" table: the due
// time first, so a scan in key order is a scan in time order and stops at
// the first item not yet due.
func DueKey(t time.Time, id string) string { return t.UTC().Format(DueLayout) + "|" + id }

// DueAt is the due time of a DueKey; the zero time for a key too short
// to hold one.
func DueAt(key string) time.Time {
	if len(key) < len(DueLayout) {
		return time.Time{}
	}
	t, _ := time.Parse(DueLayout, key[:len(DueLayout)])
	return t
}

// Due-work bookkeeping: retry state of items that failed to apply, and the
// dead letters of items that kept failing. Both are keyed
// "<table>\x00<key>" of the item; intents use them too, under
// TableIntents.
const (
	// TableDueRetry holds the DueRetry of every item backing off.
	TableDueRetry = "due_retry"
	// TableDueDead holds the DeadLetter of every item given up.
	TableDueDead = "due_dead"
)

// MaxDueAttempts is how many times an item is tried before it is parked in
// the dead letters.
const MaxDueAttempts = 6

// dueBatch bounds the items one pass reads from one table.
const dueBatch = 256

// DueWork is one table of work due on the engine clock, keyed by DueKey,
// and how one of its items applies.
type DueWork struct {
	// Table is the due table: the area writes an item there, in the
	// transaction that schedules it, at DueKey(when, id).
	Table string
	// Apply runs in the item's own transaction after the item was deleted;
	// it returns whether anything moved. An error rolls the deletion back
	// and schedules a retry (DueFailed). Apply judges deadlines by
	// DueAt(key), not by t.Now: the worker may run late.
	Apply func(t *Txn, key string, value []byte) (bool, error)
}

// ProcessDue applies every registered due table and pass, then hands over
// the intents waiting for it, and returns how many items moved. The root's
// Engine.ProcessDue is this; tests and the sandbox clock call it instead of
// waiting for the workers.
func (e *Handle) ProcessDue(ctx context.Context) (int, error) {
	n, err := e.processDue(ctx)
	if err != nil {
		return n, err
	}
	m, err := e.handOverPending(ctx)
	return n + m, err
}

// processDue is ProcessDue without the rail hand-overs.
func (e *Handle) processDue(ctx context.Context) (int, error) {
	n := 0
	for _, w := range e.Registry.Due {
		m, err := e.runDue(ctx, w)
		n += m
		if err != nil {
			return n, err
		}
	}
	for _, pass := range e.Registry.passes {
		m, err := pass(ctx)
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// runDue applies the items of w due now, each in its own transaction, at
// most dueBatch per call; an item backing off is skipped until its
// NextAttemptAt.
func (e *Handle) runDue(ctx context.Context, w DueWork) (int, error) {
	now := e.Now()
	var keys []string
	err := e.View(ctx, func(t *Txn) error {
		bound := DueKey(now, "~")
		return t.Scan(w.Table, ScanOptions{}, func(k string, _ []byte) (bool, error) {
			if k > bound {
				return false, nil
			}
			var r DueRetry
			if err := GetJSON(t, TableDueRetry, w.Table+"\x00"+k, &r); err == nil && r.NextAttemptAt.After(now) {
				return true, nil // backing off
			}
			keys = append(keys, k)
			return len(keys) < dueBatch, nil
		})
	})
	if err != nil {
		return 0, err
	}
	// With several processes on one store, apply only the items this one
	// claimed (claims.go); the item's transaction decides anyway, the claim
	// spares the others the duplicate work.
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = "due/" + w.Table + "/" + k
	}
	mine, err := ClaimWork(e, ctx, names)
	if err != nil {
		return 0, err
	}
	defer ReleaseWork(e, mine)
	n := 0
	for i, k := range keys {
		if mine != nil && !mine[names[i]] {
			continue
		}
		moved, err := e.applyDue(ctx, w, k)
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		if err == nil && moved {
			n++
		}
	}
	return n, nil
}

// applyDue applies the item k of w in its own transaction, and records a
// failure (DueFailed); with an Observer the item is a span (WorkDue).
func (e *Handle) applyDue(ctx context.Context, w DueWork, k string) (moved bool, err error) {
	var sp *span
	if e.obs != nil {
		ctx, sp = e.startWork(ctx, Work{Kind: WorkDue, Name: w.Table, ID: k})
	}
	err = e.Update(ctx, func(t *Txn) error {
		moved = false
		v, err := t.Get(w.Table, k)
		if errors.Is(err, ErrNotFound) {
			return nil // applied by a concurrent pass or an operation
		}
		if err != nil {
			return err
		}
		if err := t.Delete(w.Table, k); err != nil {
			return err
		}
		if err := t.Delete(TableDueRetry, w.Table+"\x00"+k); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		moved, err = w.Apply(t, k, v)
		return err
	})
	if err != nil && ctx.Err() == nil {
		e.DueFailed(ctx, w.Table, k, err)
	}
	if sp != nil {
		outcome := "applied"
		switch {
		case err != nil:
			outcome = "failed"
		case !moved:
			outcome = "skipped"
		}
		sp.end(outcome, err)
	}
	return moved, err
}

// DueRetry is the retry state of a due item (or an intent) that failed to
// apply: the attempts so far, when the next one may run, and why the last
// one failed.
type DueRetry struct {
	Attempts      int       `json:"attempts"`
	NextAttemptAt time.Time `json:"nextAttemptAt"`
	LastError     string    `json:"lastError"`
}

// DeadLetter is a due item that kept failing and was set aside: its table,
// key and stored value, how often it was tried and the last reason.
type DeadLetter struct {
	Table    string    `json:"table"`
	Key      string    `json:"key"`
	Value    []byte    `json:"value"`
	Attempts int       `json:"attempts"`
	Reason   string    `json:"reason"`
	ParkedAt time.Time `json:"parkedAt"`
}

// DueFailed records a failed attempt at an item: it is retried after a
// backoff (the RetryPolicy of Config.Retry), and parked in the dead letters
// after MaxDueAttempts, taken out of its table in the same transaction. A
// failure to record it is logged, not returned: the item stays due and is
// simply tried again.
func (e *Handle) DueFailed(ctx context.Context, table, key string, cause error) {
	e.Log.WarnContext(ctx, "due work failed", "table", table, "key", key, "err", cause)
	rk := table + "\x00" + key
	err := e.Update(ctx, func(t *Txn) error {
		var r DueRetry
		if err := GetJSON(t, TableDueRetry, rk, &r); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		r.Attempts++
		r.LastError = cause.Error()
		r.NextAttemptAt = t.Now.Add(e.Config.Retry.Backoff(r.Attempts))
		if r.Attempts < MaxDueAttempts {
			return PutJSON(t, TableDueRetry, rk, r)
		}
		v, err := t.Get(table, key)
		if err != nil {
			return err
		}
		for _, d := range [][2]string{{table, key}, {TableDueRetry, rk}} {
			if err := t.Delete(d[0], d[1]); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
		return PutJSON(t, TableDueDead, rk, DeadLetter{Table: table, Key: key, Value: v, Attempts: r.Attempts, Reason: r.LastError, ParkedAt: t.Now})
	})
	if err != nil && ctx.Err() == nil {
		e.Log.ErrorContext(ctx, "recording a due-work failure failed", "table", table, "key", key, "err", err)
	}
}

// DeadLetters lists the due items and intents that kept failing, in key
// order (table, then due key), at most 1000; the root's
// Engine.DeadLetters is this.
func (e *Handle) DeadLetters(ctx context.Context) ([]DeadLetter, error) {
	var out []DeadLetter
	err := e.View(ctx, func(t *Txn) error {
		return t.Scan(TableDueDead, ScanOptions{}, func(_ string, v []byte) (bool, error) {
			var d DeadLetter
			if err := json.Unmarshal(v, &d); err != nil {
				return false, err
			}
			out = append(out, d)
			return len(out) < 1000, nil
		})
	})
	return out, err
}

// dueKeys lists, in time order, up to limit keys of a due table whose time
// is at or before now (a DueKey bound); limit 0 means no bound.
func (t *Txn) dueKeys(table, now string, limit int) ([]string, error) {
	var keys []string
	err := t.Scan(table, ScanOptions{}, func(k string, _ []byte) (bool, error) {
		if k > now {
			return false, nil
		}
		keys = append(keys, k)
		return limit == 0 || len(keys) < limit, nil
	})
	return keys, err
}

// NextDueAfter returns the earliest instant after after at which some due
// work applies or an outbox event is to be delivered, and false when none
// waits. It reads every due table and the outbox: for a sandbox clock
// deciding where to stop, not for a hot path.
func (e *Handle) NextDueAfter(ctx context.Context, after time.Time) (time.Time, bool, error) {
	var next time.Time
	consider := func(t time.Time) {
		if t.After(after) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	err := e.Store.View(ctx, func(tx Tx) error {
		for _, w := range e.Registry.Due {
			err := tx.Scan(w.Table, ScanOptions{}, func(k string, _ []byte) (bool, error) {
				at := DueAt(k)
				if !next.IsZero() && !at.Before(next) {
					return false, nil
				}
				var r DueRetry
				if err := GetJSON(tx, TableDueRetry, w.Table+"\x00"+k, &r); err == nil && r.NextAttemptAt.After(at) {
					at = r.NextAttemptAt
				}
				consider(at)
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		return tx.Scan(TableOutbox, ScanOptions{}, func(_ string, v []byte) (bool, error) {
			r, err := eventrec.Decode(v)
			if err != nil {
				return false, err
			}
			consider(r.NextAttemptAt)
			return true, nil
		})
	})
	return next, !next.IsZero(), err
}
