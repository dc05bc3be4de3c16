package pgstore

import (
	"context"
	"errors"
	"hash/fnv"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/paygrid/payments"
)

// Contention is scheduled with per-record advisory locks, so that
// transactions on one hot record queue for it while the others run on.
//
// When a transaction fails serialization, the records it read and then
// rewrote (a balance, a status: the ones concurrent transactions fight
// over) are the ones it waits for: before running again it takes a session
// advisory lock per such record and keeps them until its commit is
// durable, so its snapshot is taken after the previous holder committed:
// it reads the latest version and commits. Locks are taken in ascending
// order after giving up the ones held, so lockers never deadlock. A first
// attempt that touches a hot record while it holds no lock stops at once
// (errHotKey), before it has done most of its work, and runs again under
// the record's lock: first attempts do not storm the hot record either.
// The locks only order transactions; correctness remains SERIALIZABLE's. A
// process that dies loses its locks with its connections.
//
// A transaction that failed twice (a conflict on records it did not
// rewrite: SSI's page-level predicate locks) also takes the lock gateLock,
// with which at most one such straggler runs at a time.
//
// A record's heat is the rate at which transactions that wanted its lock
// after failing or stopping found it held by another transaction (a moving
// average over the last few); the record is hot from hotRate. So the
// records that concurrent transactions really queue for turn hot, not
// those of a transaction that failed on a false conflict. While a record is
// hot, one in probeEvery first attempts still runs unlocked, so that its
// heat follows the load: a record nobody fights over any more cools down.
// Records not found busy for forgetAfter are forgotten.
const (
	hotRate     = 0.3
	weight      = 0.2
	probeEvery  = 8
	forgetAfter = 10 * time.Second
)

// maxHot bounds the records with a heat; old ones are dropped beyond it.
const maxHot = 4096

// gateLock is the lock of transactions that failed repeatedly.
const gateLock int32 = 0

// errHotKey stops an attempt that touched a hot record it did not lock.
var errHotKey = errors.New("pgstore: hot record not locked")

// hotSet is a process's heat of records, by lock key.
type hotSet struct {
	mu   sync.Mutex
	keys map[int32]*heat
}

// heat is a record's conflict rate.
type heat struct {
	rate   float64
	last   time.Time // the last conflict
	probes int
}

// observe records whether keys' locks were found busy (conflicted) or not.
// Records never found busy are not tracked.
func (h *hotSet) observe(keys []int32, conflicted bool) {
	if len(keys) == 0 {
		return
	}
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.keys == nil {
		h.keys = map[int32]*heat{}
	}
	if conflicted && len(h.keys) > maxHot {
		for k, x := range h.keys {
			if now.Sub(x.last) > forgetAfter {
				delete(h.keys, k)
			}
		}
	}
	x := 0.0
	if conflicted {
		x = 1
	}
	for _, k := range keys {
		r := h.keys[k]
		if r == nil {
			if !conflicted {
				continue
			}
			r = &heat{}
			h.keys[k] = r
		}
		r.rate = (1-weight)*r.rate + weight*x
		if conflicted {
			r.last = now
		}
	}
}

// stop reports whether a first attempt touching k should stop and wait for
// k's lock: k is hot, and this is not a probe.
func (h *hotSet) stop(k int32) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.keys[k]
	if r == nil || r.rate < hotRate {
		return false
	}
	r.probes++
	return r.probes%probeEvery != 0
}

// hotOf returns the lock keys of the hot records among keys. Unlike stop
// it does not probe: a record locked in advance has its heat measured by
// that lock (found busy or not).
func (h *hotSet) hotOf(keys []payments.RecordKey) []int32 {
	if len(keys) == 0 {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []int32
	for _, k := range keys {
		lk := lockOf(tkey{k.Table, k.Key})
		if r := h.keys[lk]; r != nil && r.rate >= hotRate {
			out = append(out, lk)
		}
	}
	return out
}

// lockOf is the advisory lock key of a record (collisions only make
// unrelated transactions wait for each other).
func lockOf(k tkey) int32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(k.table))
	_, _ = h.Write([]byte{0})
	_, _ = h.Write([]byte(k.key))
	v := int32(h.Sum32())
	if v == gateLock {
		v++
	}
	return v
}

// locks is the set of advisory locks one Update holds on its connection.
type locks struct {
	space int32 // the store's first lock key half: one lock space per schema
	held  map[int32]bool
}

// acquire gives up the held locks and takes those and want, and returns
// the ones another transaction held. It tries them all without waiting
// first; when some were busy it gives everything up again and waits for
// them all in ascending order, in one round trip (so lockers never
// deadlock).
func (l *locks) acquire(ctx context.Context, c *pgx.Conn, want []int32) (busy []int32, err error) {
	keys := want
	for k := range l.held {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if err := l.release(ctx, c); err != nil {
		return nil, err
	}
	// Counted as held before they are asked for, so that a statement
	// that failed halfway is released all the same.
	l.held = make(map[int32]bool, len(keys))
	for _, k := range keys {
		l.held[k] = true
	}
	rows, err := c.Query(ctx, "SELECT k FROM unnest($2::int[]) AS k WHERE NOT pg_try_advisory_lock($1::int, k)", l.space, keys)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var k int32
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return nil, err
		}
		busy = append(busy, k)
	}
	if err := rows.Err(); err != nil || len(busy) == 0 {
		return busy, err
	}
	b := &pgx.Batch{}
	b.Queue("SELECT pg_advisory_unlock_all()")
	for _, k := range keys {
		b.Queue("SELECT pg_advisory_lock($1::int, $2::int)", l.space, k)
	}
	return busy, c.SendBatch(ctx, b).Close()
}

// release gives up every lock held.
func (l *locks) release(ctx context.Context, c *pgx.Conn) error {
	if len(l.held) == 0 {
		return nil
	}
	l.held = nil
	_, err := c.Exec(ctx, "SELECT pg_advisory_unlock_all()")
	return err
}
