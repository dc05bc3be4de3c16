package quotes

import (
	"encoding/json"

	"github.com/paygrid/payments/internal/engine"
)

// quoteTxState is the quotes area's per-transaction state (quoteState).
type quoteTxState struct {
	drafts drafts
	// statuses are the statuses quotes and transactions had when this
	// transaction read them, by id, so saving one checks its state machine.
	statuses map[string]string
	// expiryDropped: the quote this operation creates left PENDING before
	// its expiry entry was written (dropExpiry).
	expiryDropped bool
}

// quoteState keys the quotes area's state in a transaction.
var quoteState engine.Local[quoteTxState]

// drafts are the quote and transaction a quote request creates, held back
// until the operation ends (see Create): a quote executed by the request
// that creates it, and settled at once by an instant rail, is stored once,
// in its final state, instead of being stored PENDING, then PROCESSING,
// then COMPLETED. Saving a draft (saveQuote, SaveTransaction) replaces it;
// reading it (Get, GetTransaction) returns a copy; storeDrafts stores what
// it holds last.
type drafts struct {
	// quote is the quote as created or last saved, nil once stored: a
	// copy, except for a quote created without executing by a run that
	// priced it itself (newDrafts), whose record is stored from quoteB.
	quote  *Record
	quoteB []byte // its encoding, or nil: encoded when stored as created
	// saved: quote is the copy saveQuote made, which clone copies whole
	// and nothing else holds.
	saved bool
	tx    *Transaction // as created or last saved (a copy); nil once stored
	txB   []byte
}

// quoteCopy returns a copy of the draft quote to change: a clone of one
// saved, else decoded from its encoding if made, else a clone (a quote is
// encoded when its clone would share a map). The draft transaction's clone
// shares nothing.
func (d *drafts) quoteCopy() (*Record, error) {
	if d.saved || d.quoteB == nil {
		return d.quote.Clone(), nil
	}
	q := new(Record)
	if err := json.Unmarshal(d.quoteB, q); err != nil {
		return nil, err
	}
	return q, nil
}

// store stores b (v encoded) at key of table: one of the operation's
// drafts is replaced by a copy of v, stored at the end (storeDrafts, which
// also remembers it), and store reports that it held it back; a draft
// quote whose clone would share a map is stored now, created; any other
// record is replaced.
func (d *drafts) store(t *engine.Txn, table, key string, v any, b []byte) (held bool, err error) {
	switch {
	case table == tableQuotes && d.quote != nil && d.quote.ID == key:
		if q := v.(*Record); q.Cloneable() {
			d.quote, d.quoteB, d.saved = q.Clone(), b, true
			return true, nil
		}
		d.quote = nil
	case table == tableTransactions && d.tx != nil && d.tx.ID == key:
		d.tx, d.txB = v.(*Transaction).Clone(), b
		return true, nil
	default:
		return false, engine.PutIndexed(t, table, key, v, b)
	}
	return false, engine.InsertIndexed(t, table, key, v, b)
}

// txStored reports whether transaction id is stored, or is this
// operation's draft: TRANSACTION_NOT_FOUND otherwise.
func txStored(t *engine.Txn, id string) error {
	if d := quoteState.Of(t).drafts.tx; d != nil && d.ID == id {
		return nil
	}
	if _, err := t.Get(tableTransactions, id); err != nil {
		return engine.NotFound(err, engine.CodeTransactionNotFound, "transaction", id)
	}
	return nil
}

// storeDrafts stores the drafts, as created or last saved. Create runs it
// at the end of its transaction (engine.Txn.AtEnd), after what execution
// set in motion there.
func storeDrafts(t *engine.Txn) error {
	d := &quoteState.Of(t).drafts
	if q := d.quote; q != nil {
		d.quote = nil
		b := d.quoteB
		if b == nil {
			var err error
			if b, err = q.MarshalJSON(); err != nil {
				return err
			}
		}
		if err := engine.InsertIndexed(t, tableQuotes, q.ID, q, b); err != nil {
			return err
		}
		rememberQuote(t, q, b, d.saved) // a saved draft is a copy no one else holds
	}
	if tx := d.tx; tx != nil {
		d.tx = nil
		b := d.txB
		if b == nil {
			var err error
			if b, err = engine.EncodeRecord(tx); err != nil {
				return err
			}
		}
		if err := engine.InsertIndexed(t, tableTransactions, tx.ID, tx, b); err != nil {
			return err
		}
		// Owned either way: a saved draft is the copy store made, and one
		// as created is newDrafts's, never changed (reruns and readers
		// take clones of it) nor handed out.
		rememberTx(t, tx, b, true)
	}
	return nil
}

// readStatus remembers the status record id had when it was read.
func readStatus(t *engine.Txn, id, status string) {
	s := quoteState.Of(t)
	if s.statuses == nil {
		s.statuses = map[string]string{}
	}
	s.statuses[id] = status
}
