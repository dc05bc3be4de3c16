// Package memstore is an in-memory payments.Store: the sandbox default and the
// store of most tests. Transactions are serializable (one writer at a time,
// readers share a lock), a failed or panicking Update is rolled back through
// an undo log, and records go in and out as copies, so aliasing bugs show up
// here as they would on disk.
//
//	store := memstore.New()
//	eng, err := payments.New(payments.Config{Store: store})
package memstore

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/paygrid/payments"
)

// Store is an in-memory payments.Store. The zero value is not usable; call New.
type Store struct {
	mu     sync.RWMutex
	tables map[string]*table
	closed bool
}

var _ payments.Store = (*Store)(nil)

type table struct {
	rows map[string][]byte
	keys []string // sorted
}

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
	tx := &tx{s: s, writable: true}
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

func clone(b []byte) []byte { return append([]byte{}, b...) }

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
			return clone(v), nil
		}
	}
	return nil, payments.ErrNotFound
}

func (t *tx) Put(name, key string, value []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	t.set(name, key, clone(value))
	return nil
}

func (t *tx) Insert(name, key string, value []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	if tb := t.s.tables[name]; tb != nil {
		if _, ok := tb.rows[key]; ok {
			return payments.ErrConflict
		}
	}
	t.set(name, key, clone(value))
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

func (t *tx) set(name, key string, v []byte) {
	tb := t.s.tables[name]
	if tb == nil {
		tb = &table{rows: map[string][]byte{}}
		t.s.tables[name] = tb
	}
	prev, existed := tb.rows[key]
	t.log = append(t.log, undo{name, key, prev, existed})
	if !existed {
		i := sort.SearchStrings(tb.keys, key)
		tb.keys = append(tb.keys, "")
		copy(tb.keys[i+1:], tb.keys[i:])
		tb.keys[i] = key
	}
	tb.rows[key] = v
}

func (tb *table) remove(key string) {
	delete(tb.rows, key)
	i := sort.SearchStrings(tb.keys, key)
	if i < len(tb.keys) && tb.keys[i] == key {
		tb.keys = append(tb.keys[:i], tb.keys[i+1:]...)
	}
}

// rollback replays the undo log backwards.
func (t *tx) rollback() {
	for i := len(t.log) - 1; i >= 0; i-- {
		u := t.log[i]
		tb := t.s.tables[u.table]
		if u.existed {
			if _, ok := tb.rows[u.key]; !ok {
				j := sort.SearchStrings(tb.keys, u.key)
				tb.keys = append(tb.keys, "")
				copy(tb.keys[j+1:], tb.keys[j:])
				tb.keys[j] = u.key
			}
			tb.rows[u.key] = u.prev
		} else {
			tb.remove(u.key)
		}
	}
	t.log = nil
}

func (t *tx) Scan(name string, opts payments.ScanOptions, fn func(key string, value []byte) (bool, error)) error {
	if err := t.check(false); err != nil {
		return err
	}
	tb := t.s.tables[name]
	if tb == nil {
		return nil
	}
	// Iterate over a snapshot of the keys so fn may write to the table.
	keys := tb.keys
	var lo, hi int
	if opts.Reverse {
		lo = sort.SearchStrings(keys, opts.Prefix)
		hi = len(keys)
		if opts.After != "" {
			hi = sort.SearchStrings(keys, opts.After)
		}
	} else {
		lo = sort.SearchStrings(keys, max(opts.Prefix, opts.After))
		if opts.After != "" && lo < len(keys) && keys[lo] == opts.After {
			lo++
		}
		hi = len(keys)
	}
	snapshot := append([]string(nil), keys[lo:hi]...)
	for i := range snapshot {
		k := snapshot[i]
		if opts.Reverse {
			k = snapshot[len(snapshot)-1-i]
		}
		if !strings.HasPrefix(k, opts.Prefix) {
			if opts.Reverse {
				continue
			}
			break
		}
		v, ok := tb.rows[k]
		if !ok {
			continue
		}
		more, err := fn(k, clone(v))
		if err != nil || !more {
			return err
		}
	}
	return nil
}
