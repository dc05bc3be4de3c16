package quotes

import (
	"context"
	"errors"

	"github.com/paygrid/payments/internal/engine"
)

// creation is what a quote request gathers for its transaction (createOp):
// the quote priced for it and its drafts.
type creation struct {
	q *Record
	d drafts
	// kept: the quote was priced before the transaction, so reruns start
	// from the drafts' copies (reuse).
	kept bool
}

// fetchForQuote draws the secrets of an SCA challenge (used if the quote
// needs one) and, when pricing found a rate only the RateSource gives
// (rateNeeded), fetches it: outside every transaction, since the source
// may call the network.
func fetchForQuote(ctx context.Context, e *engine.Handle, req *Request, _ *creation, missed error) error {
	if missed == nil {
		req.sca = drawChallenge(e)
		return nil
	}
	var need *rateNeeded
	if !errors.As(missed, &need) {
		return missed
	}
	var err error
	if need.rate, _, err = Rate(e, ctx, need.from, need.to); err != nil {
		return err
	}
	req.fetched = need
	return nil
}

// price prices the quote of req in t and makes its drafts, for one run of
// the transaction that stores them (reuse keeps them for more).
func (c *creation) price(t *engine.Txn, req *Request, transfer bool) error {
	q, err := priceQuote(t.Handle, t, req)
	if err != nil {
		return err
	}
	d, err := newDrafts(q, req, transfer)
	c.q, c.d, c.kept = q, d, false
	return err
}

// reuse keeps the drafts of a quote priced before its transaction for
// every run of it: before run 1 the draft quote becomes a copy (execution
// and a run may change the quote), before later runs the quote is taken
// afresh from it.
func (c *creation) reuse(n int) error {
	if n == 1 {
		if c.d.quote == c.q {
			c.d.quote = c.q.Clone()
		}
		c.kept = true
		return nil
	}
	q, err := c.d.quoteCopy()
	c.q = q
	return err
}

// contended names the balances executing the quote draws on, when the
// request executes it at once (Record.contended).
func (c *creation) contended(req *Request) []engine.RecordKey {
	if !req.ImmediatelyExecute {
		return nil
	}
	return contended(c.q)
}

// store stores the priced quote and its PENDING transaction (as drafts,
// stored at the end of the transaction: storeDrafts), with the events of
// an SCA challenge, and executes it when req asks.
func (c *creation) store(t *engine.Txn, req *Request) error {
	q, d := c.q, c.d
	tx := d.tx
	if c.kept || req.ImmediatelyExecute {
		tx = tx.Clone() // execution changes it; the draft stays as created
	}
	quoteState.Of(t).drafts = d
	if q.Status == PendingAuthorization {
		if err := intendChallengeCode(t, q, req.sca.Code); err != nil {
			return err
		}
		if err := emitAuthorizationPending(t, q, tx); err != nil {
			return err
		}
	}
	if req.ImmediatelyExecute {
		if err := executeOrChallenge(t, q, req.sca, req.ScaFactor); err != nil {
			return err
		}
	}
	// The expiry entry of a quote still waiting. One executed above has
	// none to delete (dropExpiry), so its delivery reads no gap: on
	// PostgreSQL a delete that finds no record predicate-locks the last
	// page of this append-only table, where every concurrent quote inserts
	// (BenchmarkProcesses went from 0.08 to 0.8 retries per quote when
	// only the entry was skipped).
	if !quoteState.Of(t).expiryDropped {
		if err := t.Put(tableQuoteExpiry, engine.DueKey(q.ExpiresAt, q.ID), []byte(q.ID)); err != nil {
			return err
		}
	}
	t.AtEnd(storeDrafts)
	return nil
}

// remember keeps the balances a quote created without executing draws on
// (Record.contended), so that executing it later names them to the store.
func (c *creation) remember(e *engine.Handle, req *Request, err error) {
	if err != nil || req.ImmediatelyExecute || c.q == nil {
		return
	}
	if keys := contended(c.q); len(keys) > 0 {
		quotesSlot.Of(e).contended.Put(c.q.ID, keys)
	}
}
