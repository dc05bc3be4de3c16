// Package memstore is an in-memory payments.Store: the sandbox default and the
// store of most tests. Transactions are serializable (one writer at a time,
// readers share a lock), a failed or panicking Update is rolled back through
// an undo log. Records are never changed in place: Put keeps the caller's
// slice and Get and Scan return the stored one (the payments.Tx contract:
// values are read-only on both sides), so reads allocate nothing.
//
//	store := memstore.New()
//	eng, err := payments.New(payments.Config{Store: store})
package memstore

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/internal/keylist"
)

// Store is an in-memory payments.Store. The zero value is not usable; call New.
type Store struct {
	mu     sync.RWMutex
	tables map[string]*table
	closed bool
	// undo is the undo log's buffer, reused by every Update (one runs at a
	// time).
	undo []undo
}

var _ payments.Store = (*Store)(nil)

type table struct {
	rows map[string][]byte
	keys keylist.List
}

// maxUndoKept bounds the undo buffer kept between Updates: a bulk import's
// does not stay allocated.
const maxUndoKept = 1024

// New returns an empty store.
func New() *Store { return &Store{tables: map[string]*table{}} }

// Update runs fn in a serializable read-write transaction.
func (s *Store) Update(ctx context.Context, fn func(payments.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return payments.ErrClosed
	}
	tx := &tx{s: s, writable: true, log: s.undo[:0]}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("memstore: panic in transaction: %v", r)
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			tx.rollback()
		}
		tx.done = true
		if cap(tx.log) <= maxUndoKept {
			clear(tx.log) // drop the references to replaced values
			s.undo = tx.log[:0]
		}
	}()
	return fn(tx)
}

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(payments.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return payments.ErrClosed
	}
	tx := &tx{s: s}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("memstore: panic in transaction: %v", r)
		}
		tx.done = true
	}()
	return fn(tx)
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
		if v, ok := tb.rows[key]; ok {
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
	tb := t.table(name)
	if _, ok := tb.rows[key]; ok {
		return payments.ErrConflict
	}
	t.log = append(t.log, undo{table: name, key: key})
	tb.keys.Insert(key)
	tb.rows[key] = keep(value)
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
	prev, ok := tb.rows[key]
	if !ok {
		return payments.ErrNotFound
	}
	t.log = append(t.log, undo{name, key, prev, true})
	tb.remove(key)
	return nil
}

// table returns the table name, made on first use.
func (t *tx) table(name string) *table {
	tb := t.s.tables[name]
	if tb == nil {
		tb = &table{rows: map[string][]byte{}}
		t.s.tables[name] = tb
	}
	return tb
}

func (t *tx) set(name, key string, v []byte) {
	tb := t.table(name)
	prev, existed := tb.rows[key]
	t.log = append(t.log, undo{name, key, prev, existed})
	if !existed {
		tb.keys.Insert(key)
	}
	tb.rows[key] = v
}

func (tb *table) remove(key string) {
	delete(tb.rows, key)
	tb.keys.Remove(key)
}

// rollback replays the undo log backwards.
func (t *tx) rollback() {
	for i := len(t.log) - 1; i >= 0; i-- {
		u := t.log[i]
		tb := t.s.tables[u.table]
		if u.existed {
			if _, ok := tb.rows[u.key]; !ok {
				tb.keys.Insert(u.key)
			}
			tb.rows[u.key] = u.prev
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
	// fn may write to the table (a batch is a snapshot; later keys are read
	// as they are then) and stopping early costs O(log n + batch).
	var batch []string
	from, exclusive := max(opts.Prefix, opts.After), opts.After != "" && opts.After >= opts.Prefix
	before := opts.After
	if opts.Reverse && before == "" && opts.Prefix != "" {
		before = payments.PrefixEnd(opts.Prefix)
	}
	for {
		if opts.Reverse {
			batch = tb.keys.Descend(batch[:0], before, scanBatch)
		} else {
			batch = tb.keys.Ascend(batch[:0], from, exclusive, scanBatch)
		}
		if len(batch) == 0 {
			return nil
		}
		for _, k := range batch {
			if !strings.HasPrefix(k, opts.Prefix) {
				if opts.Reverse && k > opts.Prefix {
					continue
				}
				return nil
			}
			v, ok := tb.rows[k]
			if !ok {
				continue
			}
			more, err := fn(k, v)
			if err != nil || !more {
				return err
			}
		}
		last := batch[len(batch)-1]
		if len(batch) < scanBatch || (opts.Reverse && last == "") {
			return nil
		}
		from, exclusive, before = last, true, last
	}
}
