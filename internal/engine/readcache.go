package engine

import (
	"bytes"
	"sync"
)

// Bounded is a map for caches: safe for concurrent use, holding at most
// readCacheSize entries, it starts over when full.
type Bounded[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

// readCacheSize bounds every Bounded map.
const readCacheSize = 4096

// Get returns the value at key, if any.
func (b *Bounded[V]) Get(key string) (V, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[key]
	return v, ok
}

// Put stores v at key, emptying the map first when it is full.
func (b *Bounded[V]) Put(key string, v V) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.m == nil:
		b.m = make(map[string]V, readCacheSize)
	case len(b.m) >= readCacheSize:
		clear(b.m) // keeps the table: a full cache need not grow again
	}
	b.m[key] = v
}

// ReadCache keeps recently decoded records of one table by key, reused
// while the stored bytes are unchanged, for the read-only checks of every
// money movement (the paying customer, the accounts whose balances change):
// a hit costs a comparison of bytes instead of decoding them. What Get
// returns is shared: callers read it and never modify it. Comparing the
// bytes read in the caller's transaction keeps the cache exact: a record
// changed by anyone (another process included) is decoded afresh.
type ReadCache[T any] struct{ Bounded[cachedRecord[T]] }

// cachedRecord is a decoded record and the bytes it was decoded from.
type cachedRecord[T any] struct {
	raw []byte
	rec *T
}

// Preparer is a record that derives what its readers ask for often once,
// when it is decoded into a ReadCache (before it is shared).
type Preparer interface{ Prepare() }

// Get returns the record at key of table as t reads it.
func (c *ReadCache[T]) Get(t *Txn, table, key string) (*T, error) {
	raw, err := t.Get(table, key)
	if err != nil {
		return nil, err
	}
	if hit, ok := c.Bounded.Get(key); ok && bytes.Equal(hit.raw, raw) {
		return hit.rec, nil
	}
	r := new(T)
	if err := decodeRecord(raw, r); err != nil {
		return nil, err
	}
	if p, ok := any(r).(Preparer); ok {
		p.Prepare()
	}
	c.Put(key, cachedRecord[T]{raw: raw, rec: r})
	return r, nil
}

// StoredCache remembers records this engine stored, by key, with their
// bytes: reading the same bytes again (a later operation on the record)
// gets a clone of the record instead of decoding them. Any other bytes are
// decoded as usual.
type StoredCache[T any] struct{ Bounded[cachedRecord[T]] }

// Remember notes that rec, which no one changes afterwards (a clone), was
// stored as raw at key.
func (c *StoredCache[T]) Remember(key string, raw []byte, rec *T) {
	c.Put(key, cachedRecord[T]{raw: raw, rec: rec})
}

// Load returns the record raw at key encodes: a clone of the remembered one
// when raw is what was stored, else decoded.
func (c *StoredCache[T]) Load(key string, raw []byte, clone func(*T) *T) (*T, error) {
	if hit, ok := c.Get(key); ok && bytes.Equal(hit.raw, raw) {
		return clone(hit.rec), nil
	}
	r := new(T)
	if err := decodeRecord(raw, r); err != nil {
		return nil, err
	}
	return r, nil
}

// ClonePtr returns a pointer to a copy of *p, or nil.
func ClonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
