package payments

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
)

// txn wraps a store transaction with the engine's helpers: typed records,
// the outbox, and the operation's fixed clock reading and id sequence.
//
// A transaction function must be deterministic so that a store may run it
// more than once (retries, group commit): it reads the time from t.now and
// draws ids from t.newID, both fixed before the store transaction begins,
// and does no I/O. Events emitted in it are handed to the dispatcher after
// commit.
type txn struct {
	Tx
	e       *Engine
	now     time.Time // the operation's clock reading
	ids     idSeq     // the operation's ids
	emitted bool
	intents []string        // rail intents written, handed over after commit
	plat    *PlatformConfig // decoded once per transaction
	// statuses are the statuses quotes and transactions had when this
	// transaction read them, by id, so saving one checks its state machine.
	statuses map[string]string
	drafts   drafts
	// expiryDropped: the quote this operation creates left PENDING before
	// its expiry entry was written (dropExpiry).
	expiryDropped bool
}

// drafts are the quote and transaction a quote request creates, held back
// until the operation saves them (see createQuote): a quote executed by the
// request that creates it is stored once, in its final state, instead of
// being stored PENDING and then stored again.
type drafts struct {
	quote  *quoteRecord // as created, never changed; nil once stored
	quoteB []byte       // its encoding, or nil: encoded when stored as created
	tx     *Transaction // as created, never changed; nil once stored
	txB    []byte
}

// quoteCopy returns a copy of the draft quote to change: decoded from its
// encoding if made, else a clone (a quote is encoded when its clone would
// share a map). The draft transaction's clone shares nothing.
func (d *drafts) quoteCopy() (*quoteRecord, error) {
	if d.quoteB == nil {
		return d.quote.clone(), nil
	}
	q := new(quoteRecord)
	if err := json.Unmarshal(d.quoteB, q); err != nil {
		return nil, err
	}
	return q, nil
}

// store stores b (v encoded) at key of table: created when it is one of
// the operation's drafts (saved for the first time), else replaced.
func (d *drafts) store(t *txn, table, key string, v any, b []byte) error {
	switch {
	case table == tableQuotes && d.quote != nil && d.quote.ID == key:
		d.quote = nil
	case table == tableTransactions && d.tx != nil && d.tx.ID == key:
		d.tx = nil
	default:
		return putIndexed(t, table, key, v, b)
	}
	return insertIndexed(t, table, key, v, b)
}

// storeDrafts stores the drafts not saved yet, as they were created.
func (t *txn) storeDrafts() error {
	d := &t.drafts
	if q := d.quote; q != nil {
		d.quote = nil
		b := d.quoteB
		if b == nil {
			var err error
			if b, err = q.MarshalJSON(); err != nil {
				return err
			}
		}
		if err := insertIndexed(t, tableQuotes, q.ID, q, b); err != nil {
			return err
		}
		t.rememberQuote(q, b)
	}
	if tx := d.tx; tx != nil {
		d.tx = nil
		b := d.txB
		if b == nil {
			var err error
			if b, err = encodeRecord(tx); err != nil {
				return err
			}
		}
		if err := insertIndexed(t, tableTransactions, tx.ID, tx, b); err != nil {
			return err
		}
		t.rememberTx(tx, b)
	}
	return nil
}

// readStatus remembers the status record id had when it was read.
func (t *txn) readStatus(id, status string) {
	if t.statuses == nil {
		t.statuses = map[string]string{}
	}
	t.statuses[id] = status
}

// idSeq derives an operation's record ids from one time-ordered UUID drawn
// before its transaction: the n-th id adds n to the UUID's random tail, so a
// retried transaction function draws the same ids in the same order.
type idSeq struct {
	base uuid.UUID
	n    uint64
}

// newID returns "<prefix>:<uuid>", the next id of the operation.
func (t *txn) newID(prefix string) string {
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
func (e *Engine) begin() (time.Time, idSeq, error) {
	u, err := e.newUUID()
	if err != nil {
		return time.Time{}, idSeq{}, err
	}
	// Leave room for the ids one operation derives before the tail wraps.
	u[8] &^= 0x3f
	return e.Now(), idSeq{base: u}, nil
}

// update runs fn in a read-write store transaction (commit) and, once it
// committed, hands the payments it intended to the rail (dispatch).
func (e *Engine) update(ctx context.Context, fn func(t *txn) error) error {
	intents, err := e.commit(ctx, fn)
	if err == nil {
		e.dispatch(ctx, intents)
	}
	return err
}

// commit runs fn in a read-write store transaction, wakes the webhook
// worker when it committed events and returns the rail intents it wrote.
// fn may run more than once; each run starts from the same clock reading
// and id sequence.
func (e *Engine) commit(ctx context.Context, fn func(t *txn) error) ([]string, error) {
	now, ids, err := e.begin()
	if err != nil {
		return nil, err
	}
	var emitted bool
	var intents []string
	// A webhook pass's outcomes, waiting to be recorded, are recorded in
	// this transaction if it commits (outcomes.save).
	o := e.takeOutcomes()
	err = e.store.Update(ctx, func(tx Tx) error {
		t := &txn{Tx: tx, e: e, now: now, ids: ids}
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

// view runs fn in a read-only store transaction.
func (e *Engine) view(ctx context.Context, fn func(t *txn) error) error {
	now := e.Now()
	return e.store.View(ctx, func(tx Tx) error { return fn(&txn{Tx: tx, e: e, now: now}) })
}

// getJSON decodes the record at key into v.
func getJSON(tx Tx, table, key string, v any) error {
	b, err := tx.Get(table, key)
	if err != nil {
		return err
	}
	return decodeRecord(b, v)
}

// decodeRecord is json.Unmarshal(b, v) without the two passes
// encoding/json makes over b before it calls an UnmarshalJSON method
// (validating b, then finding the value's end), for record types whose
// UnmarshalJSON validates b itself: the result is the same.
func decodeRecord(b []byte, v any) error {
	if x, ok := v.(*Transaction); ok && x != nil {
		return x.UnmarshalJSON(b)
	}
	return json.Unmarshal(b, v)
}

// encodeRecord is json.Marshal(v) without the second pass encoding/json
// makes over the output of a MarshalJSON method (validating and compacting
// it) for record types whose MarshalJSON already returns json.Marshal's
// compact output: the bytes are the same.
func encodeRecord(v any) ([]byte, error) {
	switch x := v.(type) {
	case *Transaction:
		if x != nil {
			return x.MarshalJSON()
		}
	case Transaction:
		return x.MarshalJSON()
	case *quoteRecord:
		if x != nil {
			return x.MarshalJSON()
		}
	}
	return json.Marshal(v)
}

// putJSON encodes v and stores it at key.
func putJSON(t *txn, table, key string, v any) error {
	b, err := encodeRecord(v)
	if err != nil {
		return err
	}
	return putIndexed(t, table, key, v, b)
}

// insertJSON encodes v and creates it at key (ErrConflict when taken).
func insertJSON(t *txn, table, key string, v any) error {
	b, err := encodeRecord(v)
	if err != nil {
		return err
	}
	return insertIndexed(t, table, key, v, b)
}

// claim creates a unique-index entry; a taken one is reported as conflict.
func claim(tx Tx, table, key, owner string, conflict *Error) error {
	err := tx.Insert(table, key, []byte(owner))
	if errors.Is(err, ErrConflict) {
		return conflict
	}
	return err
}
