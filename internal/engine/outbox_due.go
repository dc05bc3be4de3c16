package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/paygrid/payments/internal/eventrec"
	"github.com/paygrid/payments/internal/ixkey"
)

// What a webhook pass reads. The outbox is keyed by event id, and a
// payment writes its events there and nothing else: an index of next
// attempts written beside every event rode in every payment's commit
// (three times a payment's round trips on PostgreSQL). The pass keeps
// what it needs itself, in its own writes:
//
//   - Events never tried are due at once. Event ids are time-ordered
//     (Config.NewUUID's contract), so they are the outbox's tail: the pass
//     remembers how far it has read (passPlace.from) and reads the outbox
//     after that. It never moves past the ids of a write still running
//     (a transaction's ids are drawn as it begins, and its events may
//     commit after a pass read): this process's writes note when they
//     began (running), and on a store several processes share, where
//     theirs are unknown, it stays outboxGrace behind.
//   - An event that failed is waiting in backoff: when the pass records the
//     failure it also writes the event's entry in TableOutboxRetry, keyed
//     by its next attempt and id, and the pass reads that table only up to
//     now. Redeliver's requeue writes one too.
//
// So a pass reads what is due, not what waits. The first pass of a
// process reads the whole outbox once: it finds where the tail starts and
// writes the entries missing for events in backoff (written by a version
// before this one, or in a state import). An outbox whose keys are not
// time-ordered ids is always read whole, as before.
const (
	// TableOutboxRetry holds one empty entry per outbox event waiting in
	// backoff: "<ixkey.SortKey(next attempt)>|<event id>".
	TableOutboxRetry = "outbox_retry"
	// outboxGrace is how long before a pass began another process's event
	// id may have been drawn and its transaction still not be committed.
	outboxGrace = time.Minute
	// retryPoll bounds how long a process goes without reading the retry
	// entries when it knows of none due: another process's pass may have
	// written one.
	retryPoll = 5 * time.Second
	// passBatch is the most events one pass delivers.
	passBatch = 256
	// backfillBatch is how many missing retry entries one transaction
	// writes.
	backfillBatch = 1000
)

// outboxPrefix is what every key of an outbox of time-ordered ids starts
// with (Emit's ids).
const outboxPrefix = "Webhook:"

// passPlace is where this process's webhook pass reads (with flushMu
// held): the outbox after from, and the retry entries when one is due at
// nextRetry or retryPoll has passed since retryRead.
type passPlace struct {
	from       string
	nextRetry  time.Time
	retryRead  time.Time
	unordered  bool // ids not time-ordered were seen: read it whole
	idsChecked bool // the engine's own ids were checked for their version
	writes     running
}

// duePass is what one pass found due, and what it learned of the outbox.
type duePass struct {
	due []outboxRecord
	// from is where the outbox was read from ("": whole); last is the
	// last key read, complete whether the read reached its end.
	from, last string
	complete   bool
	ordered    bool // every key read was a time-ordered id
	// retries reports whether the retry entries were read; nextRetry is
	// the first next attempt after now among them (zero: none).
	retries   bool
	nextRetry time.Time
	// stale are retry entries of events no longer waiting; missing the
	// events in backoff that may have no entry.
	stale   []string
	missing []string
	// entry holds the due events read through their retry entry.
	entry map[string]bool
}

// scanDue reads the due events of the outbox into p: the retry entries due
// at now when retries is set (always on a whole read), then the outbox
// after from, up to passBatch events in all.
func scanDue(tx Tx, now time.Time, from string, retries bool) (*duePass, error) {
	p := &duePass{from: from, retries: retries || from == "", ordered: true}
	p.entry = map[string]bool{} // due events taken from the retry entries
	entry := map[string]bool{}  // events with an entry (a whole read)
	if p.retries {
		upTo := ixkey.SortKey(now)
		err := tx.Scan(TableOutboxRetry, ScanOptions{}, func(k string, _ []byte) (bool, error) {
			at, id, ok := ixkey.SplitTimeKey(k)
			if !ok {
				p.stale = append(p.stale, k)
				return true, nil
			}
			if at > upTo {
				if p.nextRetry.IsZero() {
					p.nextRetry = ixkey.ParseSortKey(at)
				}
				if from != "" {
					return false, nil
				}
				entry[id] = true
				return true, nil
			}
			if len(p.due) == passBatch {
				p.nextRetry = ixkey.ParseSortKey(at) // more are due: the next pass reads them
				return from == "", nil               // a whole read goes on for the entries
			}
			r, err := GetOutbox(tx, id)
			if errors.Is(err, ErrNotFound) {
				p.stale = append(p.stale, k)
				return true, nil
			} else if err != nil {
				return false, err
			}
			if ixkey.SortKey(r.NextAttemptAt) != at {
				p.stale = append(p.stale, k) // rescheduled under another entry
				return true, nil
			}
			entry[id], p.entry[id] = true, true
			p.due = append(p.due, r)
			return true, nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(p.due) == passBatch {
		return p, nil
	}
	p.last, p.complete = from, true
	err := tx.Scan(TableOutbox, ScanOptions{After: from}, func(k string, v []byte) (bool, error) {
		if p.entry[k] {
			p.last = k
			return true, nil
		}
		r, err := eventrec.Decode(v)
		if err != nil {
			return false, err
		}
		if !ixkey.OrderedID(outboxPrefix, k) {
			p.ordered = false
		}
		if r.NextAttemptAt.After(now) { // waiting in backoff
			// An event never tried that is not due yet (written so, or
			// emitted at a clock later than this pass's) has no entry; a
			// whole read also finds those an earlier version left.
			if r.Attempts == 0 || from == "" && !entry[k] {
				p.missing = append(p.missing, k)
			}
			p.last = k
			return true, nil
		}
		if len(p.due) == passBatch {
			p.complete = false
			return false, nil
		}
		p.due = append(p.due, r)
		p.last = k
		return true, nil
	})
	return p, err
}

// advance moves the pass's place in the outbox once p's events are
// recorded (every due one tried): to where the read stopped, or, past its
// end, to the ids of the oldest write still running when the pass began
// (floor); never back.
func (pl *passPlace) advance(p *duePass, floor time.Time, newUUID func() (uuid.UUID, error)) {
	if !p.ordered || pl.unorderedIDs(newUUID) {
		pl.unordered, pl.from = true, ""
		return
	}
	if p.retries {
		pl.nextRetry, pl.retryRead = p.nextRetry, time.Now()
	}
	to := ixkey.IDFloor(outboxPrefix, floor)
	if !p.complete && p.last < to {
		to = p.last
	}
	if to > pl.from {
		pl.from = to
	}
}

// unorderedIDs reports whether the outbox may hold ids that are not
// time-ordered: one was read, or this engine's own are not version 7 (a
// Config.NewUUID that breaks its contract). Every pass then reads it whole.
func (pl *passPlace) unorderedIDs(newUUID func() (uuid.UUID, error)) bool {
	if !pl.unordered && !pl.idsChecked {
		u, err := newUUID()
		pl.unordered, pl.idsChecked = err != nil || u.Version() != 7, true
	}
	return pl.unordered
}

// outboxFloor is, as a pass begins, the time before which no event id
// that is not yet committed was made: the start of this process's oldest
// write still running (its ids are drawn as it begins), and on a store
// several processes share, outboxGrace earlier, for theirs.
func (pl *passPlace) floor(s Store) time.Time {
	floor := time.Now()
	if _, shared := s.(Claimer); shared {
		floor = floor.Add(-outboxGrace)
	}
	if t, ok := pl.writes.oldest(); ok && t.Before(floor) {
		floor = t
	}
	return floor
}

// running is the start of every write of this process still running
// (Commit), so that a pass knows the oldest.
type running struct {
	mu   sync.Mutex
	next uint64
	at   map[uint64]time.Time
}

// enter notes a write starting now and returns its token for leave.
func (r *running) enter() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at == nil {
		r.at = map[uint64]time.Time{}
	}
	r.next++
	r.at[r.next] = time.Now()
	return r.next
}

// leave notes the end of the write of token n.
func (r *running) leave(n uint64) {
	r.mu.Lock()
	delete(r.at, n)
	r.mu.Unlock()
}

// oldest returns the start of the oldest write running, if any.
func (r *running) oldest() (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var t time.Time
	for _, at := range r.at {
		if t.IsZero() || at.Before(t) {
			t = at
		}
	}
	return t, !t.IsZero()
}

// readRetries reports whether this pass reads the retry entries: always on
// an explicit Flush, else when one it knows of is due, or retryPoll has
// passed since it last looked.
func (pl *passPlace) readRetries(now time.Time, explicit bool) bool {
	return explicit || pl.from == "" || (!pl.nextRetry.IsZero() && !now.Before(pl.nextRetry)) || time.Since(pl.retryRead) >= retryPoll
}

// backfill writes the retry entries missing for events in backoff, found
// by a whole read, in transactions of backfillBatch; an event that left
// backoff meanwhile gets none.
func backfill(ctx context.Context, s Store, ids []string) error {
	for len(ids) > 0 {
		n := min(len(ids), backfillBatch)
		batch := ids[:n]
		err := s.Update(ctx, func(tx Tx) error {
			for _, id := range batch {
				r, err := GetOutbox(tx, id)
				if errors.Is(err, ErrNotFound) {
					continue
				} else if err != nil {
					return err
				}
				if err := tx.Put(TableOutboxRetry, ixkey.TimeKey(r.NextAttemptAt, id), []byte{}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// dropRetry deletes the retry entry of r, which r has when it was tried
// before or requeued; none is no error.
func dropRetry(tx Tx, r *outboxRecord) error {
	if err := tx.Delete(TableOutboxRetry, ixkey.TimeKey(r.NextAttemptAt, r.Event.ID)); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// dropStale deletes the retry entries keys; one already gone is no error.
func dropStale(tx Tx, keys []string) error {
	for _, k := range keys {
		if err := tx.Delete(TableOutboxRetry, k); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return nil
}
