package payments

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/paygrid/payments/validate"
)

// The rail boundary, engine side. A transaction that executes a payment
// writes an intent (tableRailIntents) instead of calling the rail; after
// commit the engine hands the payment to the rail (dispatch), and a worker
// hands over whatever is left after an error or a crash, at least once.
// Outcomes come back through Rails.Report, each applied once (tableRailReports)
// in its own transaction; one that takes effect later waits as due work in
// TableSettlementsDue.
const (
	tableRailIntents = "rail_intents" // payment id -> railIntent
	tableRailReports = "rail_reports" // payment id \x00 reference -> time applied
)

// Kinds of rail intent, the prefix of a payment id ("send:<transaction id>").
const (
	intentSend = "send"
	intentPull = "pull"
)

// railDispatchTimeout bounds one hand-over of a payment to the rail made
// right after commit; a rail slower than that is left to the worker.
const railDispatchTimeout = 10 * time.Second

// railIntent is a payment waiting to be handed to the rail.
type railIntent struct {
	Send *OutgoingPayment `json:"send,omitempty"`
	Pull *PullRequest     `json:"pull,omitempty"`
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
	return t.intend(p.ID, railIntent{Send: &p})
}

// intendPull records that p is to be collected through the rail after commit.
func (t *txn) intendPull(p PullRequest) error {
	p.ID, p.SubmittedAt = paymentID(intentPull, p.TransactionID), t.now
	return t.intend(p.ID, railIntent{Pull: &p})
}

func (t *txn) intend(id string, in railIntent) error {
	if err := putJSON(t, tableRailIntents, id, in); err != nil {
		return err
	}
	t.intents = append(t.intents, id)
	return nil
}

// withdrawIntent removes a payment not yet handed to the rail, and reports
// whether there was one.
func (t *txn) withdrawIntent(id string) (bool, error) {
	err := t.Delete(tableRailIntents, id)
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
	intents, err := r.e.report(ctx, rep)
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
		return t.Scan(tableRailIntents, ScanOptions{}, func(k string, _ []byte) (bool, error) {
			ids = append(ids, k)
			return len(ids) < limit, nil
		})
	})
	return ids, err
}

// report applies rep in its own transaction and returns the intents it wrote.
func (e *Engine) report(ctx context.Context, rep RailReport) ([]string, error) {
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
	return e.commit(ctx, func(t *txn) error { return t.applyReport(rep) })
}

// applyReport applies rep once: at once, or as due work when it takes
// effect later.
func (t *txn) applyReport(rep RailReport) error {
	kind, txID := splitPaymentID(rep.PaymentID)
	if kind != intentSend && kind != intentPull {
		return Errorf(CodeTransactionNotFound, "no payment %s", rep.PaymentID)
	}
	if _, err := t.transaction(txID); err != nil {
		return err
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
		if err := t.Put(TableSettlementsDue, k, b); err != nil {
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
	return putJSON(t, TableQuotes, q.ID, q)
}

// reporter is the Reporter handed to a rail during a dispatch: reports
// apply at once, and the intents they write join the dispatch's queue.
type reporter struct {
	e      *Engine
	follow *[]string
}

func (r reporter) Report(ctx context.Context, rep RailReport) error {
	intents, err := r.e.report(ctx, rep)
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
			e.dueFailed(context.WithoutCancel(ctx), tableRailIntents, id, err)
		}
	}
}

// handOver gives one waiting payment to the rail and, once the rail took
// it, removes the intent. A payment already handed over or withdrawn is
// skipped.
func (e *Engine) handOver(ctx context.Context, id string, follow *[]string) error {
	var in railIntent
	err := e.view(ctx, func(t *txn) error { return getJSON(t, tableRailIntents, id, &in) })
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	r := reporter{e: e, follow: follow}
	switch {
	case in.Send != nil:
		err = e.rail.Send(ctx, *in.Send, r)
	case in.Pull != nil:
		if p, ok := e.rail.(Puller); ok {
			err = p.Pull(ctx, *in.Pull, r)
		} else {
			err = r.Report(ctx, RailReport{PaymentID: id, Outcome: RailCompleted})
		}
	}
	if err != nil {
		return err
	}
	return e.update(ctx, func(t *txn) error {
		if _, err := t.withdrawIntent(id); err != nil {
			return err
		}
		if err := t.Delete(tableDueRetry, tableRailIntents+"\x00"+id); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		return nil
	})
}

// handOverPending hands the waiting payments whose backoff has passed to
// the rail; the rail worker and ProcessDue call it. It returns how many
// were taken.
func (e *Engine) handOverPending(ctx context.Context) (int, error) {
	now := e.Now()
	var ids []string
	err := e.view(ctx, func(t *txn) error {
		return t.Scan(tableRailIntents, ScanOptions{}, func(k string, _ []byte) (bool, error) {
			var r dueRetry
			if err := getJSON(t, tableDueRetry, tableRailIntents+"\x00"+k, &r); err == nil && r.NextAttemptAt.After(now) {
				return true, nil // backing off
			}
			ids = append(ids, k)
			return len(ids) < dueBatch, nil
		})
	})
	if err != nil {
		return 0, err
	}
	e.dispatch(ctx, ids)
	left, err := e.Rails.Pending(ctx, dueBatch)
	if err != nil {
		return 0, err
	}
	taken := len(ids)
	for _, id := range ids {
		if contains(left, id) {
			taken--
		}
	}
	return taken, nil
}
