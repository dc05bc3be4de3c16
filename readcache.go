package payments

import (
	"bytes"
	"context"
	"sync"
)

// readCache keeps recently decoded records of one table by key, reused
// while the stored bytes are unchanged, for the read-only checks of every
// money movement (the paying customer, the accounts whose balances change):
// a hit costs a comparison of bytes instead of decoding them. What get
// returns is shared: callers read it and never modify it. A cache holds at
// most readCacheSize records; it starts over when full.
type readCache[T any] struct {
	mu sync.Mutex
	m  map[string]cachedRecord[T]
}

type cachedRecord[T any] struct {
	raw []byte
	rec *T
}

const readCacheSize = 4096

// preparer is a record that derives what its readers ask for often once,
// when it is decoded into a readCache (before it is shared).
type preparer interface{ prepare() }

// get returns the record at key of table as t reads it.
func (c *readCache[T]) get(t *txn, table, key string) (*T, error) {
	raw, err := t.Get(table, key)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	hit, ok := c.m[key]
	c.mu.Unlock()
	if ok && bytes.Equal(hit.raw, raw) {
		return hit.rec, nil
	}
	r := new(T)
	if err := decodeRecord(raw, r); err != nil {
		return nil, err
	}
	if p, ok := any(r).(preparer); ok {
		p.prepare()
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= readCacheSize {
		c.m = map[string]cachedRecord[T]{}
	}
	c.m[key] = cachedRecord[T]{raw: raw, rec: r}
	c.mu.Unlock()
	return r, nil
}

// contendedCache remembers the balances the quotes this process created
// draw on (quoteRecord.contended), so that executing one later names them
// to the store (WithContended) without reading the quote first. A quote
// created by another process, or forgotten when the cache started over,
// executes without the hint. It holds at most readCacheSize quotes.
type contendedCache struct {
	mu sync.Mutex
	m  map[string][]RecordKey
}

func (c *contendedCache) put(quoteID string, keys []RecordKey) {
	if len(keys) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= readCacheSize {
		c.m = map[string][]RecordKey{}
	}
	c.m[quoteID] = keys
}

// with returns ctx naming the balances quote quoteID draws on, if known.
func (c *contendedCache) with(ctx context.Context, quoteID string) context.Context {
	c.mu.Lock()
	keys := c.m[quoteID]
	c.mu.Unlock()
	if len(keys) == 0 {
		return ctx
	}
	return WithContended(ctx, keys...)
}
