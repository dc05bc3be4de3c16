// Package memstore is an in-memory payments.Store: the sandbox default and the
// store of most tests. Transactions are serializable: one writer at a time,
// readers share a lock, and a failed or panicking Update is rolled back
// through an undo log. Transactions that arrive while an Update runs are
// queued and carried out by the goroutine already writing, so a transaction
// function may run on another goroutine than its caller's; it must return
// rather than end its goroutine. Records are never changed in place: Put
// keeps the caller's slice and Get and Scan return the stored one (the
// payments.Tx contract: values are read-only on both sides), so reads
// allocate nothing.
//
//	store := memstore.New()
//	eng, err := payments.New(payments.Config{Store: store})
package memstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/internal/keylist"
)

// Store is an in-memory payments.Store. The zero value is not usable; call New.
type Store struct {
	mu sync.RWMutex
	// qmu guards queue, the Updates waiting for the running one, and
	// writing, whether one runs.
	qmu     sync.Mutex
	queue   []*waiting
	writing bool
	tables  map[string]*table
	closed  bool
	// undo is the undo log's buffer, reused by every Update (one runs at a
	// time).
	undo []undo
}

var _ payments.Store = (*Store)(nil)

// table is one table's records: its keys in order, with their values.
// Keys alone (keys) are kept while every value written to the table is
// empty, as in the engine's index tables: their keys say what is there.
// Records (rows) are kept in order with their values, without a hash map
// beside them: new records arrive in key order (ids made in time order) and
// are appended after one comparison, where a map of a large table spent as
// long growing and probing as the rest of a payment's writes.
type table struct {
	valued bool // rows, not keys, holds the table
	keys   keylist.List
	rows   keylist.Sorted[[]byte]
	// writes counts the changes to the table, so that a scan notices when
	// the values it read ahead may have changed; removals counts the keys
	// removed and removed is the last, so that it notices when keys it read
	// ahead may be gone.
	writes   int
	removals int
	removed  string
}

// empty is the value of every key of a table without rows.
var empty = []byte{}

func (tb *table) get(key string) ([]byte, bool) {
	if !tb.valued {
		return empty, tb.keys.Has(key)
	}
	return tb.rows.Get(key)
}

// put stores v at key and returns the value it replaced.
func (tb *table) put(key string, v []byte) (prev []byte, existed bool) {
	tb.writes++
	if !tb.valued {
		if len(v) == 0 {
			return empty, !tb.keys.Add(key)
		}
		for _, k := range tb.keys.Ascend(nil, "", false, tb.keys.Len()) {
			tb.rows.Add(k, empty)
		}
		tb.keys, tb.valued = keylist.List{}, true
	}
	return tb.rows.Set(key, v)
}

// insert stores v at key unless the key is taken, and reports whether it
// did.
func (tb *table) insert(key string, v []byte) bool {
	if !tb.valued {
		if len(v) == 0 {
			tb.writes++
			return tb.keys.Add(key)
		}
		if tb.keys.Has(key) {
			return false
		}
		tb.put(key, v)
		return true
	}
	tb.writes++
	return tb.rows.Add(key, v)
}

// remove deletes key and returns its value, if it had one.
func (tb *table) remove(key string) (prev []byte, existed bool) {
	if !tb.valued {
		prev, existed = empty, tb.keys.Remove(key)
	} else {
		prev, existed = tb.rows.Remove(key)
	}
	if existed {
		tb.writes++
		tb.removals++
		tb.removed = key
	}
	return prev, existed
}

// maxUndoKept bounds the undo buffer kept between Updates: a bulk import's
// does not stay allocated.
const maxUndoKept = 1024

// New returns an empty store.
func New() *Store { return &Store{tables: map[string]*table{}} }

// Update runs fn in a serializable read-write transaction.
func (s *Store) Update(ctx context.Context, fn func(payments.Tx) error) error {
	return s.serialize(&waiting{ctx: ctx, fn: fn, writable: true})
}

var _ payments.UpdateReader = (*Store)(nil)

// ReadsInUpdate reports that the engine's operations read inside their
// Updates (payments.UpdateReader): while Updates run, a View queues with
// them and runs in its turn like one, so reading in the Update saves the
// View's turn.
func (s *Store) ReadsInUpdate() bool { return true }

// View runs fn in a read-only transaction. Views share the store with
// each other; one that arrives while Updates run is queued with them.
func (s *Store) View(ctx context.Context, fn func(payments.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.qmu.Lock()
	busy := s.writing
	s.qmu.Unlock()
	if busy {
		return s.serialize(&waiting{ctx: ctx, fn: fn})
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.apply(&waiting{ctx: ctx, fn: fn})
}

// serialize runs w alone. Transactions that arrive while one runs are
// queued, and the running one carries out the queue before it returns (at
// most maxCarried of them, then it hands the rest on to the first
// waiting): the writer's core goes from one transaction to the next
// without waiting for a parked goroutine to be scheduled, which on a busy
// machine left the lock idle half the time it was wanted.
func (s *Store) serialize(w *waiting) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	s.qmu.Lock()
	if s.writing {
		w.done = make(chan struct{})
		s.queue = append(s.queue, w)
		s.qmu.Unlock()
		<-w.done
		if !w.lead {
			return w.err
		}
	} else {
		s.writing = true
		s.qmu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var carrying *waiting
	finished := false
	defer func() {
		if finished {
			return
		}
		// A function ended this goroutine (runtime.Goexit, as t.FailNow
		// does): the others must not wait for it forever.
		if carrying != nil {
			carrying.err = errors.New("memstore: the goroutine running the transaction exited")
			close(carrying.done)
		}
		s.handOver()
	}()
	err := s.apply(w)
	for carried := 0; ; carried++ {
		s.qmu.Lock()
		if len(s.queue) == 0 || carried == maxCarried {
			s.qmu.Unlock()
			finished = true
			s.handOver()
			return err
		}
		carrying = s.pop()
		s.qmu.Unlock()
		carrying.err = s.apply(carrying)
		close(carrying.done)
		carrying = nil
	}
}

// handOver ends a writer's turn: the first waiting goes on as the writer,
// or the store has none.
func (s *Store) handOver() {
	s.qmu.Lock()
	defer s.qmu.Unlock()
	if len(s.queue) == 0 {
		s.writing = false
		return
	}
	next := s.pop()
	next.lead = true
	close(next.done)
}

// pop takes the first waiting off the queue; the caller holds qmu.
func (s *Store) pop() *waiting {
	w := s.queue[0]
	s.queue[0] = nil
	s.queue = s.queue[1:]
	return w
}

// maxCarried bounds the queued transactions one carries out.
const maxCarried = 16

// waiting is a transaction to run, queued when another runs.
type waiting struct {
	ctx      context.Context
	fn       func(payments.Tx) error
	writable bool
	err      error
	lead     bool // run it, then carry on with the queue
	done     chan struct{}
}

// apply runs w's function; the caller holds mu (for writing when w is
// writable).
func (s *Store) apply(w *waiting) (err error) {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if s.closed {
		return payments.ErrClosed
	}
	tx := &tx{s: s, writable: w.writable}
	if w.writable {
		tx.log = s.undo[:0]
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("memstore: panic in transaction: %v", r)
		}
		tx.done = true
		if !w.writable {
			return
		}
		if err == nil {
			err = w.ctx.Err()
		}
		if err != nil {
			tx.rollback()
		}
		if cap(tx.log) <= maxUndoKept {
			clear(tx.log) // drop the references to replaced values
			s.undo = tx.log[:0]
		}
	}()
	return w.fn(tx)
}

// Close discards the data; later calls return payments.ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.tables = nil
	return nil
}

// undo restores one record to its state before a write.
type undo struct {
	table, key string
	prev       []byte
	existed    bool
}

type tx struct {
	s        *Store
	writable bool
	done     bool
	log      []undo
}

// keep returns value as the store keeps it: its capacity clipped, so that
// an append by any holder copies instead of writing past its end.
func keep(value []byte) []byte { return value[:len(value):len(value)] }

// scanBatch is how many keys a Scan reads before seeking again.
const scanBatch = 64

func (t *tx) check(write bool) error {
	if t.done {
		return fmt.Errorf("memstore: transaction used after it ended")
	}
	if write && !t.writable {
		return payments.ErrReadOnly
	}
	return nil
}

func (t *tx) Get(name, key string) ([]byte, error) {
	if err := t.check(false); err != nil {
		return nil, err
	}
	if tb := t.s.tables[name]; tb != nil {
		if v, ok := tb.get(key); ok {
			return v, nil
		}
	}
	return nil, payments.ErrNotFound
}

func (t *tx) Put(name, key string, value []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	t.set(name, key, keep(value))
	return nil
}

func (t *tx) Insert(name, key string, value []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	if !t.table(name).insert(key, keep(value)) {
		return payments.ErrConflict
	}
	t.log = append(t.log, undo{table: name, key: key})
	return nil
}

func (t *tx) Delete(name, key string) error {
	if err := t.check(true); err != nil {
		return err
	}
	tb := t.s.tables[name]
	if tb == nil {
		return payments.ErrNotFound
	}
	prev, ok := tb.remove(key)
	if !ok {
		return payments.ErrNotFound
	}
	t.log = append(t.log, undo{name, key, prev, true})
	return nil
}

// table returns the table name, made on first use.
func (t *tx) table(name string) *table {
	tb := t.s.tables[name]
	if tb == nil {
		tb = &table{}
		t.s.tables[name] = tb
	}
	return tb
}

func (t *tx) set(name, key string, v []byte) {
	prev, existed := t.table(name).put(key, v)
	t.log = append(t.log, undo{name, key, prev, existed})
}

// rollback replays the undo log backwards.
func (t *tx) rollback() {
	for i := len(t.log) - 1; i >= 0; i-- {
		u := t.log[i]
		tb := t.s.tables[u.table]
		if u.existed {
			tb.put(u.key, u.prev)
		} else {
			tb.remove(u.key)
		}
	}
}

func (t *tx) Scan(name string, opts payments.ScanOptions, fn func(key string, value []byte) (bool, error)) error {
	if err := t.check(false); err != nil {
		return err
	}
	tb := t.s.tables[name]
	if tb == nil {
		return nil
	}
	// Keys are read in batches and the scan seeks again after each batch, so
	// stopping early costs O(log n + batch). fn may write to the table:
	// values are read as they are when fn is called (again, when the table
	// changed since the batch was read), and the rest of a batch is read
	// again after fn removed a key other than its own.
	var keys []string
	var rows []keylist.Entry[[]byte]
	from, exclusive := max(opts.Prefix, opts.After), opts.After != "" && opts.After >= opts.Prefix
	before := opts.After
	if opts.Reverse && before == "" && opts.Prefix != "" {
		before = payments.PrefixEnd(opts.Prefix)
	}
batches:
	for {
		valued, writes := tb.valued, tb.writes
		switch {
		case valued && opts.Reverse:
			rows = tb.rows.Descend(rows[:0], before, scanBatch)
		case valued:
			rows = tb.rows.Ascend(rows[:0], from, exclusive, scanBatch)
		case opts.Reverse:
			keys = tb.keys.Descend(keys[:0], before, scanBatch)
		default:
			keys = tb.keys.Ascend(keys[:0], from, exclusive, scanBatch)
		}
		n := len(keys)
		if valued {
			n = len(rows)
		}
		if n == 0 {
			return nil
		}
		var last string
		for i := range n {
			k, v := "", empty
			if valued {
				k, v = rows[i].Key, rows[i].Val
			} else {
				k = keys[i]
			}
			last = k
			if !strings.HasPrefix(k, opts.Prefix) {
				if opts.Reverse && k > opts.Prefix {
					continue
				}
				return nil
			}
			if tb.writes != writes {
				if x, ok := tb.get(k); ok {
					v = x
				}
			}
			removals := tb.removals
			more, err := fn(k, v)
			if err != nil || !more {
				return err
			}
			if tb.removals != removals && (tb.removals != removals+1 || tb.removed != k) {
				if opts.Reverse && k == "" {
					return nil
				}
				from, exclusive, before = k, true, k
				continue batches
			}
		}
		if n < scanBatch || (opts.Reverse && last == "") {
			return nil
		}
		from, exclusive, before = last, true, last
	}
}
