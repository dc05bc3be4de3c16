package pgstore

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// The objects a column's value names (engine.Column's Object: a currency's
// name, symbol and decimals, by its code) are kept once per record table,
// column and value in payments_doc_objects (migration 9), and a record's
// doc leaves such an object out where its bytes are the kept ones
// (doc.go). The first time a process's writes see a value whose object it
// does not know, the row keeps the object in doc, and after the commit,
// on the Update's connection (never in a commit's round trip), the object
// is inserted with ON CONFLICT DO NOTHING and read back, so that processes
// racing to keep one all keep the one that won; it never changes once
// written, so a process learns it once and keeps it. The rows read the
// kept object by a subquery of their own select (stripSelect: an index
// probe of a small table, about 1.4 us a row and object in PostgreSQL,
// where spelling a transaction back from a doc that leaves members out
// takes 3 us less in Go than from one with 0s): a row whose doc leaves it
// out reads it back exactly, even if the engine has come to spell that
// object otherwise since (its new rows then keep theirs in doc).

// objectKey names a kept object: the record table (its SQL name), the
// column and the column's value.
type objectKey struct{ tbl, col, val string }

// maxSeen bounds the objects a process notes to keep before its next
// commit keeps them.
const maxSeen = 64

// keptObjects are the objects this process knows kept, and those its
// writes saw that it has not kept yet.
type keptObjects struct {
	mu    sync.RWMutex
	known map[objectKey]string
	seen  map[objectKey]string
	// ready: seen holds an object.
	ready atomic.Bool
}

// get returns the kept object of key, and whether this process knows it.
func (k *keptObjects) get(key objectKey) (string, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	obj, ok := k.known[key]
	return obj, ok
}

// see notes obj, the object of key a write saw, to be kept after the
// commit (the first seen of a key; a few at most).
func (k *keptObjects) see(key objectKey, obj []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.seen[key]; ok || len(k.seen) >= maxSeen {
		return
	}
	if _, ok := k.known[key]; ok {
		return
	}
	if k.seen == nil {
		k.seen = map[objectKey]string{}
	}
	k.seen[key] = string(obj)
	k.ready.Store(true)
}

// keep inserts the objects seen, on conn outside any transaction, each
// unless another process kept its key first, and learns the ones kept. A
// failure leaves them seen, to try again after a later commit.
func (k *keptObjects) keep(ctx context.Context, s *Store, conn *pgx.Conn) error {
	if !k.ready.Swap(false) {
		return nil
	}
	k.mu.RLock()
	type kept struct {
		key      objectKey
		obj, won string
	}
	todo := make([]*kept, 0, len(k.seen))
	for key, obj := range k.seen {
		todo = append(todo, &kept{key: key, obj: obj})
	}
	k.mu.RUnlock()
	b := &batch{}
	for _, m := range todo {
		b.exec("INSERT INTO payments_doc_objects (tbl, col, val, obj) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
			m.key.tbl, m.key.col, m.key.val, m.obj)
		b.query("SELECT obj FROM payments_doc_objects WHERE tbl = $1 AND col = $2 AND val = $3", func(rows pgx.Rows) error {
			for rows.Next() {
				if err := rows.Scan(&m.won); err != nil {
					return err
				}
			}
			return nil
		}, m.key.tbl, m.key.col, m.key.val)
	}
	if _, err := b.send(ctx, s, conn); err != nil {
		k.ready.Store(true)
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.known == nil {
		k.known = map[objectKey]string{}
	}
	for _, m := range todo {
		k.known[m.key] = m.won
		delete(k.seen, m.key)
	}
	return nil
}
