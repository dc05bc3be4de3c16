package pgstore

import "sync"

// cache keeps the records this process read or wrote lately, with the
// version (xmin) they had, so that an Update reads the records an operation
// reads again and again (the platform's configuration, the paying customer,
// its accounts and balances) without a round trip. A cached record may be
// stale (another process changed it): every record an Update read is
// checked at its commit, in the same SERIALIZABLE transaction that writes,
// and a transaction that read a stale one runs again on fresh reads. So
// the cache only ever costs a rerun, never a wrong answer.
//
// Views do not use it: they read in a snapshot.
type cache struct {
	mu sync.Mutex
	m  map[tkey]cached
}

// cached is what the cache knows of a record: its value and version, or
// that it did not exist. Balances keep their value in n.
type cached struct {
	v      []byte
	n      int64
	ver    int64
	exists bool
}

// cacheSize bounds the records kept; beyond it some are dropped at random.
const cacheSize = 1 << 16

// maxCachedValue is the largest value kept.
const maxCachedValue = 16 << 10

func (c *cache) get(k tkey) (cached, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return e, ok
}

func (c *cache) put(k tkey, e cached) {
	if len(e.v) > maxCachedValue {
		c.drop(k)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[tkey]cached, 1024)
	} else if _, ok := c.m[k]; !ok && len(c.m) >= cacheSize {
		// Full: an eighth of the records go, whichever the map's order
		// picks (random).
		n := cacheSize / 8
		for old := range c.m {
			delete(c.m, old)
			if n--; n == 0 {
				break
			}
		}
	}
	c.m[k] = e
}

// clear forgets every record.
func (c *cache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}

func (c *cache) drop(k tkey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}
