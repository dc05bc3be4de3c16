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
// until the operation saves them (see Create): a quote executed by the
// request that creates it is stored once, in its final state, instead of
// being stored PENDING and then stored again.
type drafts struct {
	// quote is the quote as created, nil once stored: a copy, except for
	// a quote created without executing by a run that priced it itself
	// (newDrafts), whose record is stored from quoteB.
	quote  *Record
	quoteB []byte       // its encoding, or nil: encoded when stored as created
	tx     *Transaction // as created; nil once stored
	txB    []byte
}

// quoteCopy returns a copy of the draft quote to change: decoded from its
// encoding if made, else a clone (a quote is encoded when its clone would
// share a map). The draft transaction's clone shares nothing.
func (d *drafts) quoteCopy() (*Record, error) {
	if d.quoteB == nil {
		return d.quote.clone(), nil
	}
	q := new(Record)
	if err := json.Unmarshal(d.quoteB, q); err != nil {
		return nil, err
	}
	return q, nil
}

// store stores b (v encoded) at key of table: created when it is one of
// the operation's drafts (saved for the first time), else replaced.
func (d *drafts) store(t *engine.Txn, table, key string, v any, b []byte) error {
	switch {
	case table == tableQuotes && d.quote != nil && d.quote.ID == key:
		d.quote = nil
	case table == TableTransactions && d.tx != nil && d.tx.ID == key:
		d.tx = nil
	default:
		return engine.PutIndexed(t, table, key, v, b)
	}
	return engine.InsertIndexed(t, table, key, v, b)
}

// storeDrafts stores the drafts not saved yet, as they were created. It
// runs last in Create's transaction, so a quote that Create also executed
// was already stored by saveQuote in its final state and is skipped here.
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
		rememberQuote(t, q, b)
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
		if err := engine.InsertIndexed(t, TableTransactions, tx.ID, tx, b); err != nil {
			return err
		}
		rememberTx(t, tx, b)
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
