package engine

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"time"

	"github.com/google/uuid"
)

// Txn wraps a store transaction with the engine's helpers: typed records,
// the outbox, and the operation's fixed clock reading and id sequence.
//
// A transaction function must be deterministic so that a store may run it
// more than once (retries, group commit): it reads the time from t.now and
// draws ids from t.newID, both fixed before the store transaction begins,
// and does no I/O. Events emitted in it are handed to the dispatcher after
// commit.
type Txn struct {
	Tx
	Handle  *Handle
	Now     time.Time // the operation's clock reading
	ids     idSeq     // the operation's ids
	emitted bool
	intents []string // intents written, handed over after commit
	locals  []localEntry
}

// Local is the key of one area's per-transaction state (a quote request's
// drafts, the platform configuration decoded once): of returns the state
// of the transaction, a zero T at its first use in a run of the
// transaction function. Every run starts afresh, since a store may run the
// function more than once. Keys are package-level variables of the areas.
type Local[T any] struct{ _ byte } // not zero-sized: each key has its own address

type localEntry struct{ key, val any }

// Of returns t's state for l.
func (l *Local[T]) Of(t *Txn) *T {
	for i := range t.locals {
		if t.locals[i].key == l {
			return t.locals[i].val.(*T)
		}
	}
	v := new(T)
	t.locals = append(t.locals, localEntry{l, v})
	return v
}

// idSeq derives an operation's record ids from one time-ordered UUID drawn
// before its transaction: the n-th id adds n to the UUID's random tail, so a
// retried transaction function draws the same ids in the same order.
type idSeq struct {
	base uuid.UUID
	n    uint64
}

// NewID returns "<prefix>:<uuid>", the next id of the operation.
func (t *Txn) NewID(prefix string) string {
	u := t.ids.base
	tail := binary.BigEndian.Uint64(u[8:]) + t.ids.n
	t.ids.n++
	// Keep the RFC 9562 variant bits of byte 8.
	binary.BigEndian.PutUint64(u[8:], tail)
	u[8] = u[8]&0x3f | 0x80
	return recordID(prefix, u)
}

// begin fixes what an operation's transaction function may read of the
// world: the clock and the base of its ids.
func (e *Handle) begin() (time.Time, idSeq, error) {
	u, err := e.newUUID()
	if err != nil {
		return time.Time{}, idSeq{}, err
	}
	// Leave room for the ids one operation derives before the tail wraps.
	u[8] &^= 0x3f
	return e.Now(), idSeq{base: u}, nil
}

// Update runs fn in a read-write store transaction (commit) and, once it
// committed, hands the payments it intended to the rail (dispatch).
func (e *Handle) Update(ctx context.Context, fn func(t *Txn) error) error {
	intents, err := e.Commit(ctx, fn)
	if err == nil {
		e.Dispatch(ctx, intents)
	}
	return err
}

// Commit runs fn in a read-write store transaction, wakes the webhook
// worker when it committed events and returns the rail intents it wrote.
// fn may run more than once; each run starts from the same clock reading
// and id sequence.
func (e *Handle) Commit(ctx context.Context, fn func(t *Txn) error) ([]string, error) {
	now, ids, err := e.begin()
	if err != nil {
		return nil, err
	}
	var emitted bool
	var intents []string
	// A webhook pass's outcomes, waiting to be recorded, are recorded in
	// this transaction if it commits (outcomes.save).
	o := e.takeOutcomes()
	err = e.Store.Update(ctx, func(tx Tx) error {
		t := &Txn{Tx: tx, Handle: e, Now: now, ids: ids}
		err := fn(t)
		emitted, intents = t.emitted, t.intents
		if err == nil && o != nil {
			err = o.record(t)
		}
		return err
	})
	if o != nil {
		o.done <- err
	}
	if err != nil {
		return nil, err
	}
	if emitted {
		e.poke()
	}
	return intents, nil
}

// View runs fn in a read-only store transaction. Like an Update's, fn may
// run more than once (WithRetryableView): it must start afresh each time
// and act only through what it sets when it returns.
func (e *Handle) View(ctx context.Context, fn func(t *Txn) error) error {
	now := e.Now()
	return e.Store.View(WithRetryableView(ctx), func(tx Tx) error { return fn(&Txn{Tx: tx, Handle: e, Now: now}) })
}

// GetJSON decodes the record at key into v.
func GetJSON(tx Tx, table, key string, v any) error {
	b, err := tx.Get(table, key)
	if err != nil {
		return err
	}
	return decodeRecord(b, v)
}

// decodeRecord is json.Unmarshal(b, v) without the two passes
// encoding/json makes over b before it calls an UnmarshalJSON method
// (validating b, then finding the value's end). A record type that
// implements json.Unmarshaler must therefore validate its input itself,
// as the engine's hand-written decoders do (FuzzDecodeTransaction): the
// result is then the same.
func decodeRecord(b []byte, v any) error {
	if u, ok := v.(json.Unmarshaler); ok && !isNilPointer(v) {
		return u.UnmarshalJSON(b)
	}
	return json.Unmarshal(b, v)
}

// EncodeRecord is json.Marshal(v) without the second pass encoding/json
// makes over the output of a MarshalJSON method (validating and compacting
// it). A record type that implements json.Marshaler must therefore return
// json.Marshal's compact output, as the engine's hand-written encoders do
// (FuzzAppendTransaction): the bytes are then the same.
func EncodeRecord(v any) ([]byte, error) {
	if m, ok := v.(json.Marshaler); ok && !isNilPointer(v) {
		return m.MarshalJSON()
	}
	return json.Marshal(v)
}

// isNilPointer reports whether v holds a nil pointer (json.Marshal encodes
// it as null; its methods may not be called).
func isNilPointer(v any) bool {
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// PutJSON encodes v and stores it at key.
func PutJSON(t *Txn, table, key string, v any) error {
	b, err := EncodeRecord(v)
	if err != nil {
		return err
	}
	return PutIndexed(t, table, key, v, b)
}

// InsertJSON encodes v and creates it at key (ErrConflict when taken).
func InsertJSON(t *Txn, table, key string, v any) error {
	b, err := EncodeRecord(v)
	if err != nil {
		return err
	}
	return InsertIndexed(t, table, key, v, b)
}

// Claim creates a unique-index entry; a taken one is reported as conflict.
func Claim(tx Tx, table, key, owner string, conflict *Error) error {
	err := tx.Insert(table, key, []byte(owner))
	if errors.Is(err, ErrConflict) {
		return conflict
	}
	return err
}
