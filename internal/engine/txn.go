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
// more than once (retries, group commit): it reads the time from t.Now and
// draws ids from t.NewID, both fixed before the store transaction begins,
// and does no I/O. Events it emits are delivered, and intents it writes
// handed over, only after commit.
//
// A Txn is valid only inside its function and is not safe for concurrent
// use. Tx is the store's transaction, for raw reads and writes that need
// no index upkeep; Handle is the engine the operation runs on, for the
// areas' state (Slot.Of) and configuration.
type Txn struct {
	Tx
	Handle  *Handle
	Now     time.Time // the operation's clock reading
	ids     idSeq     // the operation's ids
	emitted bool
	fate    eventFate // what becomes of its events (fateOf)
	intents []string  // intents written, handed over after commit
	atEnd   []func(*Txn) error
	// locals holds the areas' per-transaction state (Local) in place, so
	// a transaction allocates no slice for the two or three areas an
	// operation touches; more spill into extra.
	locals [4]localEntry
	extra  []localEntry
}

// AtEnd has f run in t once the operation's function has returned without
// error, before the commit: for what the operation sets in motion rather
// than does, which its answer (and the answer an idempotent retry replays)
// does not show, as if carried out right after commit; an instant rail's
// outcomes are applied this way. Functions run in the order registered,
// those they register after them; an error from one rolls t back. Only
// write transactions run them.
func (t *Txn) AtEnd(f func(*Txn) error) { t.atEnd = append(t.atEnd, f) }

// Local is the key of one area's per-transaction state (a quote request's
// drafts, the platform configuration decoded once): Of returns the state
// of the transaction, a zero T at its first use in a run of the
// transaction function. Every run starts afresh, since a store may run the
// function more than once. Keys are package-level variables of the areas.
type Local[T any] struct{ _ byte } // not zero-sized: each key has its own address

// localEntry is one Local's value in a transaction.
type localEntry struct{ key, val any }

// Of returns t's state for l, creating a zero T at its first use.
func (l *Local[T]) Of(t *Txn) *T {
	for i := range t.locals {
		switch t.locals[i].key {
		case l:
			return t.locals[i].val.(*T)
		case nil:
			v := new(T)
			t.locals[i] = localEntry{l, v}
			return v
		}
	}
	for _, x := range t.extra {
		if x.key == l {
			return x.val.(*T)
		}
	}
	v := new(T)
	t.extra = append(t.extra, localEntry{l, v})
	return v
}

// Value returns t's state for l when a SetValue stored it: for state that
// is one pointer (stored in place, without the allocation of Of's *T).
func (l *Local[T]) Value(t *Txn) (T, bool) {
	for _, x := range t.locals {
		if x.key == l {
			return x.val.(T), true
		}
	}
	for _, x := range t.extra {
		if x.key == l {
			return x.val.(T), true
		}
	}
	var zero T
	return zero, false
}

// SetValue stores v as t's state for l (see Value). A key is used either
// with Of or with Value and SetValue, never both.
func (l *Local[T]) SetValue(t *Txn, v T) {
	for i := range t.locals {
		if t.locals[i].key == l || t.locals[i].key == nil {
			t.locals[i] = localEntry{l, v}
			return
		}
	}
	for i := range t.extra {
		if t.extra[i].key == l {
			t.extra[i].val = v
			return
		}
	}
	t.extra = append(t.extra, localEntry{l, v})
}

// idSeq derives an operation's record ids from one time-ordered UUID drawn
// before its transaction: the n-th id adds n to the UUID's random tail, so a
// retried transaction function draws the same ids in the same order.
type idSeq struct {
	base uuid.UUID
	n    uint64
}

// NewID returns "<prefix>:<uuid>", the next id of the operation: the n-th
// call of every run of the transaction function returns the same id, so a
// retried function writes the same records. Ids of one operation sort in
// the order they were drawn.
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

// Update runs fn in a read-write store transaction (Commit) and, once it
// committed, hands the intents it wrote over (Dispatch): payments to the
// rail, codes to their sender. It returns fn's error, or the store's; a
// hand-over that fails is left to the intent worker and is not an error
// of the operation, which committed.
func (e *Handle) Update(ctx context.Context, fn func(t *Txn) error) error {
	intents, err := e.Commit(ctx, fn)
	if err == nil {
		e.Dispatch(ctx, intents)
	}
	return err
}

// Commit runs fn in a read-write store transaction, wakes the webhook
// worker when it committed events and returns the ids of the intents it
// wrote, for the caller to hand over (Dispatch). fn may run more than
// once; each run starts from the same clock reading and id sequence.
func (e *Handle) Commit(ctx context.Context, fn func(t *Txn) error) ([]string, error) {
	// Noted before its ids are drawn: a webhook pass reads the outbox from
	// the oldest write running (outbox_due.go).
	defer e.pass.writes.leave(e.pass.writes.enter())
	now, ids, err := e.begin()
	if err != nil {
		return nil, err
	}
	var sp *span
	if e.obs != nil {
		ctx, sp = e.startWork(ctx, Work{Kind: WorkTransaction, Name: "write"})
	}
	// What the last run of fn left (one variable: the closure moves it to
	// the heap).
	var last struct {
		emitted bool
		intents []string
		runs    int
		refused bool // fn (or recording the outcomes) returned an error
	}
	// A webhook pass's outcomes, waiting to be recorded, are recorded in
	// this transaction if it commits (outcomes.save).
	o := takeOutcomes(e)
	err = e.Store.Update(ctx, func(tx Tx) error {
		t := &Txn{Tx: tx, Handle: e, Now: now, ids: ids}
		if sp != nil {
			txnSpan.SetValue(t, sp)
		}
		err := fn(t)
		for i := 0; err == nil && i < len(t.atEnd); i++ {
			err = t.atEnd[i](t)
		}
		last.emitted, last.intents = t.emitted, t.intents
		last.runs++
		if err == nil && o != nil {
			err = o.record(t)
		}
		last.refused = err != nil
		return err
	})
	if o != nil {
		o.done <- err
	}
	if sp != nil {
		sp.w.Runs = last.runs
		sp.end(txnOutcome(err, last.refused), err)
	}
	if err != nil {
		return nil, err
	}
	if last.emitted {
		e.poke()
	}
	return last.intents, nil
}

// View runs fn in a read-only store transaction, at one clock reading
// (t.Now). Writes in it fail with ErrReadOnly; t.NewID is not seeded in a
// read (its ids would repeat), so a read never draws ids. Like an
// Update's, fn may run more than once (RetryableViewer): it must start
// afresh each time and act only through what it sets when it returns.
func (e *Handle) View(ctx context.Context, fn func(t *Txn) error) error {
	now := e.Now()
	if e.obs == nil {
		return viewRetryable(ctx, e.Store, func(tx Tx) error { return fn(&Txn{Tx: tx, Handle: e, Now: now}) })
	}
	ctx, sp := e.startWork(ctx, Work{Kind: WorkTransaction, Name: "read"})
	refused := false
	err := viewRetryable(ctx, e.Store, func(tx Tx) error {
		sp.w.Runs++
		t := &Txn{Tx: tx, Handle: e, Now: now}
		txnSpan.SetValue(t, sp)
		err := fn(t)
		refused = err != nil
		return err
	})
	sp.end(txnOutcome(err, refused), err)
	return err
}

// GetJSON decodes the record at key into v: ErrNotFound when there is
// none (see NotFound for the coded 404).
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
// as the engine's hand-written decoders do (the quotes area's
// FuzzDecodeTransaction): the result is then the same.
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
// (the quotes area's FuzzAppendTransaction): the bytes are then the same.
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

// PutJSON encodes v and stores it at key, creating or replacing it, with
// its index entries when the table is indexed (PutIndexed).
func PutJSON(t *Txn, table, key string, v any) error {
	b, err := EncodeRecord(v)
	if err != nil {
		return err
	}
	return PutIndexed(t, table, key, v, b)
}

// InsertJSON encodes v and creates it at key (ErrConflict when taken), with
// its index entries when the table is indexed (InsertIndexed).
func InsertJSON(t *Txn, table, key string, v any) error {
	b, err := EncodeRecord(v)
	if err != nil {
		return err
	}
	return InsertIndexed(t, table, key, v, b)
}

// Claim creates a unique-index entry owned by owner; a taken one is
// reported as conflict, the area's coded error (a duplicate UMA address,
// say), instead of the store's ErrConflict.
func Claim(tx Tx, table, key, owner string, conflict *Error) error {
	err := tx.Insert(table, key, []byte(owner))
	if errors.Is(err, ErrConflict) {
		return conflict
	}
	return err
}
