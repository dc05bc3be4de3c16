package payments

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/paygrid/payments/validate"
)

// Side effects as intents. A transaction that executes a payment, or
// issues a one-time code, writes an intent (tableIntents) instead of
// calling the rail or the code sender; after commit the engine hands it
// over (dispatch), and a worker hands over whatever is left after an error
// or a crash, at least once.
//
// The rail boundary, engine side:
// Outcomes come back through Rails.Report, each applied once (tableRailReports)
// in its own transaction; one that takes effect later waits as due work in
// tableSettlementsDue.
const (
	tableIntents     = "intents"      // intent id -> intent
	tableRailReports = "rail_reports" // payment id \x00 reference -> time applied
)

// Kinds of intent, the prefix of an intent id ("send:<transaction id>").
const (
	intentSend = "send" // a payout, to Rail.Send
	intentPull = "pull" // a collection, to Puller.Pull
	intentCode = "code" // a one-time code, to CodeSender.SendCode
)

// railDispatchTimeout bounds one hand-over of a payment to the rail made
// right after commit; a rail slower than that is left to the worker.
const railDispatchTimeout = 10 * time.Second

// intent is a side effect waiting to be handed over.
type intent struct {
	Send *OutgoingPayment `json:"send,omitempty"`
	Pull *PullRequest     `json:"pull,omitempty"`
	// Code holds the plain one-time code until it is delivered; the
	// record it authorizes keeps only its hash.
	Code *CodeMessage `json:"code,omitempty"`
}

func paymentID(kind, txID string) string { return kind + ":" + txID }

// splitPaymentID returns the kind and transaction id of a payment id.
func splitPaymentID(id string) (kind, txID string) {
	kind, txID, _ = strings.Cut(id, ":")
	return kind, txID
}

// intendSend records that p is to be handed to the rail after commit.
func (t *txn) intendSend(p OutgoingPayment) error {
	p.ID, p.SubmittedAt = paymentID(intentSend, p.TransactionID), t.now
	return t.intend(p.ID, intent{Send: &p})
}

// intendPull records that p is to be collected through the rail after commit.
func (t *txn) intendPull(p PullRequest) error {
	p.ID, p.SubmittedAt = paymentID(intentPull, p.TransactionID), t.now
	return t.intend(p.ID, intent{Pull: &p})
}

func (t *txn) intend(id string, in intent) error {
	b, err := in.encode()
	if err != nil {
		return err
	}
	if err := t.Put(tableIntents, id, b); err != nil {
		return err
	}
	// Remembered, so the hand-over right after commit does not decode it.
	t.e.intents.remember(id, b, &in)
	t.intents = append(t.intents, id)
	return nil
}

// clone returns a copy of in that shares nothing a rail could change
// through (TestIntentCloneSharesNothing).
func (in *intent) clone() *intent {
	c := *in
	if in.Send != nil {
		s := *in.Send
		s.Destination = s.Destination.clone()
		c.Send = &s
	}
	if in.Pull != nil {
		p := *in.Pull
		p.From = p.From.clone()
		c.Pull = &p
	}
	c.Code = clonePtr(in.Code)
	return &c
}

// withdrawIntent removes a payment not yet handed to the rail, and reports
// whether there was one.
func (t *txn) withdrawIntent(id string) (bool, error) {
	err := t.Delete(tableIntents, id)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Rails is the engine's side of the rail boundary (eng.Rails).
type Rails struct{ e *Engine }

var _ Reporter = Rails{}

// Report applies one outcome a rail reports for a payment it was given
// (see Reporter): the entry point of production rails, called from their
// network's webhooks or pollers. Payments the outcome sets in motion (a
// collected pull starts its payout) are handed to the rail before Report
// returns. A report without PaymentID or with an unknown Outcome is
// INVALID_INPUT.
func (r Rails) Report(ctx context.Context, rep RailReport) error {
	intents, err := r.e.report(ctx, rep, nil)
	if err == nil {
		r.e.dispatch(ctx, intents)
	}
	return err
}

// Pending returns the payments not yet handed to the rail (waiting for
// their first hand-over or backing off after an error), up to limit.
func (r Rails) Pending(ctx context.Context, limit int) ([]string, error) {
	var ids []string
	err := r.e.view(ctx, func(t *txn) error {
		for _, kind := range []string{intentPull, intentSend} {
			err := t.Scan(tableIntents, ScanOptions{Prefix: kind + ":"}, func(k string, _ []byte) (bool, error) {
				ids = append(ids, k)
				return len(ids) < limit, nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return ids, err
}

// report applies rep in its own transaction and returns the intents it wrote.
// With a hand-over in progress (h), a report for its payment also removes
// the payment's intent in that transaction: the rail has taken the payment,
// so handOver need not commit again.
func (e *Engine) report(ctx context.Context, rep RailReport, h *handing) ([]string, error) {
	var fe validate.Errors
	fe.Required("paymentId", rep.PaymentID)
	switch rep.Outcome {
	case RailAccepted, RailCompleted, RailFailed, RailReturned:
	default:
		fe.Add("outcome", nil, "outcome must be ACCEPTED, COMPLETED, FAILED or RETURNED")
	}
	if err := Invalid(fe.Err()); err != nil {
		return nil, err
	}
	if rep.Reference == "" {
		rep.Reference = string(rep.Outcome)
	}
	take := h != nil && rep.PaymentID == h.id
	intents, err := e.commit(ctx, func(t *txn) error {
		if take {
			if err := t.takeIntent(rep.PaymentID); err != nil {
				return err
			}
		}
		return t.applyReport(rep)
	})
	if err == nil && take {
		h.taken = true
	}
	return intents, err
}

// applyReport applies rep once: at once, or as due work when it takes
// effect later.
func (t *txn) applyReport(rep RailReport) error {
	kind, txID := splitPaymentID(rep.PaymentID)
	if kind != intentSend && kind != intentPull {
		return Errorf(CodeTransactionNotFound, "no payment %s", rep.PaymentID)
	}
	if _, err := t.Get(tableTransactions, txID); err != nil {
		return notFound(err, CodeTransactionNotFound, "transaction", txID)
	}
	seen := rep.PaymentID + "\x00" + rep.Reference
	if _, err := t.Get(tableRailReports, seen); err == nil {
		return nil // applied before
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if err := t.Put(tableRailReports, seen, []byte(t.now.Format(dueLayout))); err != nil {
		return err
	}
	if rep.Outcome == RailAccepted {
		return nil
	}
	if rep.At.After(t.now) {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		k := dueKey(rep.At, txID) + "|" + rep.PaymentID + "|" + rep.Reference
		if err := t.Put(tableSettlementsDue, k, b); err != nil {
			return err
		}
		return t.Put(tableSettlementsByTx, txID+"|"+k, nil)
	}
	return t.settle(rep)
}

// settle applies an outcome that has taken effect to its payment.
func (t *txn) settle(rep RailReport) error {
	kind, txID := splitPaymentID(rep.PaymentID)
	tx, err := t.transaction(txID)
	if err != nil {
		return err
	}
	if kind == intentPull && tx.Type == "INCOMING" {
		return t.settleTransferIn(tx, rep)
	}
	q, err := t.quote(tx.QuoteID)
	if err != nil {
		return err
	}
	if kind == intentPull {
		err = t.settlePull(q, tx, rep)
	} else {
		err = t.applyStep(q, tx, rep)
	}
	if err != nil {
		return err
	}
	return t.saveQuote(q)
}

// reporter is the Reporter handed to a rail during a hand-over: reports
// apply at once, and the intents they write join the dispatch's queue.
type reporter struct {
	e      *Engine
	follow *[]string
	h      *handing
}

// handing is one payment being handed to the rail: its intent's id, and
// whether a report of the rail removed the intent already.
type handing struct {
	id    string
	taken bool
}

func (r reporter) Report(ctx context.Context, rep RailReport) error {
	intents, err := r.e.report(ctx, rep, r.h)
	*r.follow = append(*r.follow, intents...)
	return err
}

// maxDispatch bounds the payments one dispatch hands over (a payment's
// outcomes may start others, such as a collected pull its payout).
const maxDispatch = 64

// dispatch hands the payments of ids to the rail, and those their outcomes
// set in motion. A payment the rail does not take is retried by the worker
// with backoff, then parked in the dead letters.
func (e *Engine) dispatch(ctx context.Context, ids []string) {
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, railDispatchTimeout)
	defer cancel()
	for n := 0; len(ids) > 0 && n < maxDispatch && ctx.Err() == nil; n++ {
		id := ids[0]
		ids = ids[1:]
		if err := e.handOver(ctx, id, &ids); err != nil {
			e.dueFailed(context.WithoutCancel(ctx), tableIntents, id, err)
		}
	}
}

// handOver gives one waiting payment to the rail and, once the rail took
// it, removes the intent. A payment already handed over or withdrawn is
// skipped.
func (e *Engine) handOver(ctx context.Context, id string, follow *[]string) error {
	var in *intent
	err := e.view(ctx, func(t *txn) error {
		b, err := t.Get(tableIntents, id)
		if err != nil {
			return err
		}
		in, err = e.intents.load(id, b, (*intent).clone)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	h := &handing{id: id}
	r := reporter{e: e, follow: follow, h: h}
	switch {
	case in.Send != nil:
		err = e.rail.Send(ctx, *in.Send, r)
	case in.Pull != nil:
		if p, ok := e.rail.(Puller); ok {
			err = p.Pull(ctx, *in.Pull, r)
		} else {
			err = r.Report(ctx, RailReport{PaymentID: id, Outcome: RailCompleted})
		}
	case in.Code != nil && e.cfg.Codes != nil:
		err = e.cfg.Codes.SendCode(ctx, *in.Code)
	}
	if h.taken {
		// The rail reported on the payment, so it took it (Rail.Send),
		// whatever it answered after.
		if err != nil {
			e.log.Info("rail failed after it reported on the payment", "payment", id, "err", err)
		}
		return nil
	}
	if err != nil {
		return err
	}
	return e.update(ctx, func(t *txn) error { return t.takeIntent(id) })
}

// takeIntent removes the intent id, handed to the rail, with its backoff
// record.
func (t *txn) takeIntent(id string) error {
	if _, err := t.withdrawIntent(id); err != nil {
		return err
	}
	if err := t.Delete(tableDueRetry, tableIntents+"\x00"+id); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// handOverPending hands the waiting intents whose backoff has passed over;
// the intent worker and ProcessDue call it. It returns how many were taken.
func (e *Engine) handOverPending(ctx context.Context) (int, error) {
	now := e.Now()
	var ids []string
	err := e.view(ctx, func(t *txn) error {
		return t.Scan(tableIntents, ScanOptions{}, func(k string, _ []byte) (bool, error) {
			var r dueRetry
			if err := getJSON(t, tableDueRetry, tableIntents+"\x00"+k, &r); err == nil && r.NextAttemptAt.After(now) {
				return true, nil // backing off
			}
			ids = append(ids, k)
			return len(ids) < dueBatch, nil
		})
	})
	if err != nil {
		return 0, err
	}
	// With several processes on one store, hand over only the intents this
	// one claimed (claims.go).
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = "intent/" + id
	}
	mine, err := e.claimWork(ctx, names)
	if err != nil {
		return 0, err
	}
	defer e.releaseWork(mine)
	if mine != nil {
		ids = slices.DeleteFunc(ids, func(id string) bool { return !mine["intent/"+id] })
	}
	e.dispatch(ctx, ids)
	taken := 0
	err = e.view(ctx, func(t *txn) error {
		for _, id := range ids {
			if _, err := t.Get(tableIntents, id); errors.Is(err, ErrNotFound) {
				taken++
			} else if err != nil {
				return err
			}
		}
		return nil
	})
	return taken, err
}
