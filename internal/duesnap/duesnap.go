// Package duesnap tells an advance of a sandbox clock where to stop: a
// Snapshot of the work due at or before the advance's target when it
// starts (due items and undelivered events), read through the kernel's
// exported API, and the instants at which what is left of it applies.
package duesnap

import (
	"context"
	"errors"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/eventrec"
)

// Snapshot is the work an advance of a sandbox clock follows: the due
// items and undelivered events due at or before its target when it
// started (Take). The advance stops at the instants this work
// applies or is delivered, following its retries; work scheduled while it
// runs, by requests or by the work it applies, applies at those stops and
// at the target but makes no stop of its own. So an advance's cost follows
// the work due when it started, never what a steady writer keeps adding.
type Snapshot struct {
	e      *engine.Handle
	due    []engine.RecordKey // due-table items (table, due key)
	events []string           // outbox event ids
}

// Take returns the due items and undelivered events of e due at or before
// until.
func Take(ctx context.Context, e *engine.Handle, until time.Time) (*Snapshot, error) {
	s := &Snapshot{e: e}
	bound := engine.DueKey(until, "~")
	err := e.Store.View(ctx, func(tx engine.Tx) error {
		s.due, s.events = s.due[:0], s.events[:0]
		for _, w := range e.Registry.Due {
			err := tx.Scan(w.Table, engine.ScanOptions{}, func(k string, _ []byte) (bool, error) {
				if k > bound {
					return false, nil
				}
				s.due = append(s.due, engine.RecordKey{Table: w.Table, Key: k})
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		return tx.Scan(engine.TableOutbox, engine.ScanOptions{}, func(_ string, v []byte) (bool, error) {
			r, err := eventrec.Decode(v)
			if err != nil {
				return false, err
			}
			if !r.NextAttemptAt.After(until) {
				s.events = append(s.events, r.Event.ID)
			}
			return true, nil
		})
	})
	return s, err
}

// Next returns the earliest instant after after at which work of s that
// still waits applies or is delivered (a failed item at its retry), and
// false when none waits after after. Work that no longer waits (applied,
// delivered or given up) leaves s, so each call costs what is left of it.
func (s *Snapshot) Next(ctx context.Context, after time.Time) (time.Time, bool, error) {
	var next time.Time
	consider := func(t time.Time) {
		if t.After(after) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	err := s.e.Store.View(ctx, func(tx engine.Tx) error {
		due := make([]engine.RecordKey, 0, len(s.due))
		for _, d := range s.due {
			if _, err := tx.Get(d.Table, d.Key); errors.Is(err, engine.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			due = append(due, d)
			at := engine.DueAt(d.Key)
			var r engine.DueRetry
			if err := engine.GetJSON(tx, engine.TableDueRetry, d.Table+"\x00"+d.Key, &r); err == nil && r.NextAttemptAt.After(at) {
				at = r.NextAttemptAt
			}
			consider(at)
		}
		events := make([]string, 0, len(s.events))
		for _, id := range s.events {
			r, err := engine.GetOutbox(tx, id)
			if errors.Is(err, engine.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			events = append(events, id)
			consider(r.NextAttemptAt)
		}
		s.due, s.events = due, events
		return nil
	})
	return next, !next.IsZero(), err
}
