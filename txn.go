package payments

import (
	"context"
	"encoding/json"
	"errors"
)

// txn wraps a store transaction with the engine's helpers: typed records and
// the outbox. Events emitted in it are handed to the dispatcher after commit.
type txn struct {
	Tx
	e       *Engine
	emitted bool
	plat    *PlatformConfig // decoded once per transaction
}

// update runs fn in a read-write store transaction and wakes the dispatcher
// when it committed events.
func (e *Engine) update(ctx context.Context, fn func(t *txn) error) error {
	var emitted bool
	err := e.store.Update(ctx, func(tx Tx) error {
		t := &txn{Tx: tx, e: e}
		err := fn(t)
		emitted = t.emitted
		return err
	})
	if err == nil && emitted {
		e.poke()
	}
	return err
}

// view runs fn in a read-only store transaction.
func (e *Engine) view(ctx context.Context, fn func(t *txn) error) error {
	return e.store.View(ctx, func(tx Tx) error { return fn(&txn{Tx: tx, e: e}) })
}

// getJSON decodes the record at key into v.
func getJSON(tx Tx, table, key string, v any) error {
	b, err := tx.Get(table, key)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// putJSON encodes v and stores it at key.
func putJSON(tx Tx, table, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return putIndexed(tx, table, key, v, b)
}

// insertJSON encodes v and creates it at key (ErrConflict when taken).
func insertJSON(tx Tx, table, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return insertIndexed(tx, table, key, v, b)
}

// claim creates a unique-index entry; a taken one is reported as conflict.
func claim(tx Tx, table, key, owner string, conflict *Error) error {
	err := tx.Insert(table, key, []byte(owner))
	if errors.Is(err, ErrConflict) {
		return conflict
	}
	return err
}
