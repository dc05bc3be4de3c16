package pgstore

import (
	"context"
	"errors"
	"hash/fnv"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Contention is scheduled with per-record advisory locks, so that runs
// that read one hot record queue for it while the others run on.
//
// A run reads without locks and commits only if what it read did not
// change (commit.go). When a record changed under many runs (a conflict on
// it: a stale read, a balance check that failed) it turns hot, and a run
// that reads a hot record first takes the record's session advisory lock,
// in the round trip of the read, and keeps it until its commit is durable:
// the lock is given up in the commit's own round trip, right after COMMIT.
// So the runs that look at one hot balance queue for it at that read (late
// in the operation: the balance an account's webhook announces) instead of
// reading it stale and running again, while the balance's row lock is held
// only by the commit, and runs on other records do not wait. A run that
// failed on a deadlock between such locks runs again after taking the locks
// it held in ascending order first. A run that already holds locks does not
// wait for another at a read: when it is busy the run stops (errLockOrder)
// and the next takes all of them in ascending order before it starts, so
// lockers never wait for each other in a cycle. The locks only order runs;
// correctness remains SERIALIZABLE's. A process that dies loses its locks
// with its connections.
//
// A run that failed repeatedly (false conflicts of SSI's page-level
// predicate locks) also takes the lock gateLock, with which at most one
// such straggler runs at a time.
//
// A record's heat is the rate at which runs that read it conflicted on it
// or found its lock held by another (a moving average over the last few):
// the record is hot from hotRate. A record nobody fights over any more
// cools down as its lock is found free. Records not found busy for
// forgetAfter are forgotten.
const (
	hotRate     = 0.3
	weight      = 0.2
	forgetAfter = 10 * time.Second
)

// maxHot bounds the records with a heat; old ones are dropped beyond it.
const maxHot = 4096

// gateLock is the lock of transactions that failed repeatedly.
const gateLock int32 = 0

// errLockOrder stops a run that holds locks at a read whose lock was busy.
var errLockOrder = errors.New("pgstore: a lock was busy while others were held")

// hotSet is a process's heat of records, by lock key.
type hotSet struct {
	mu   sync.Mutex
	keys map[int32]*heat
	// together are, by lock key, the records the last Update that held
	// it read under locks with it: a run that must lock one hot record
	// takes those too, in order, at once (a payment's balance, its hold,
	// its payee's).
	together map[int32][]tkey
}

// heldTogether records that an Update read keys under locks together.
func (h *hotSet) heldTogether(keys map[tkey]underRead) {
	if len(keys) < 2 {
		return
	}
	set := make([]tkey, 0, len(keys))
	for k := range keys {
		set = append(set, k)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.together == nil || len(h.together) > maxHot {
		h.together = map[int32][]tkey{}
	}
	for _, k := range set {
		h.together[lockOf(k)] = set
	}
}

// with returns the hot records read under locks with the record of lock
// key k last time.
func (h *hotSet) with(k int32) []tkey {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []tkey
	for _, o := range h.together[k] {
		if r := h.keys[lockOf(o)]; r != nil && r.rate >= hotRate {
			out = append(out, o)
		}
	}
	return out
}

// heat is a record's conflict rate.
type heat struct {
	rate float64
	last time.Time // the last conflict
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

// isHot reports whether a run should lock k before reading it.
func (h *hotSet) isHot(k int32) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.keys[k]
	return r != nil && r.rate >= hotRate
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

// queue queues, in b, the statement that takes the locks keys, in this
// order, waiting for the busy ones when wait is set and leaving them
// otherwise. Read its result with readBusy.
func (l *locks) queue(b *pgx.Batch, keys []int32, wait bool) {
	if l.held == nil {
		l.held = map[int32]bool{}
	}
	for _, k := range keys {
		// Counted as held before they are asked for, so that a statement
		// that failed halfway is released all the same.
		l.held[k] = true
	}
	b.Queue("SELECT payments_lock($1, $2::int[], $3)", l.space, keys, wait)
}

// readBusy reads the result of queue, records the heat of the locks and
// returns those that were busy (not held when queue did not wait).
func (l *locks) readBusy(br pgx.BatchResults, s *Store, keys []int32, wait bool) ([]int32, error) {
	var busy []int32
	if err := br.QueryRow().Scan(&busy); err != nil {
		return nil, err
	}
	s.hot.observe(busy, true)
	s.hot.observe(slices.DeleteFunc(slices.Clone(keys), func(k int32) bool { return slices.Contains(busy, k) }), false)
	if !wait {
		for _, k := range busy {
			delete(l.held, k)
		}
	}
	return busy, nil
}

// queueRelease queues, in a commit batch, giving up every lock.
func (l *locks) queueRelease(b *batch) { b.exec("SELECT pg_advisory_unlock_all()") }

// release gives up every lock held.
func (l *locks) release(ctx context.Context, s *Store, c *pgx.Conn) error {
	if len(l.held) == 0 {
		return nil
	}
	l.held = nil
	s.stat(1, 1)
	_, err := c.Exec(ctx, "SELECT pg_advisory_unlock_all()")
	return err
}
