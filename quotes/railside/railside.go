package railside

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// The rail boundary, engine side. Executing a payment writes a send (or
// pull) intent; after commit its hand-over gives it to the rail (Rail.Send,
// Puller.Pull). Outcomes come back through Rails.Report, each applied once
// (tableRailReports) in its own transaction; one that takes effect later
// waits as due work in tableSettlementsDue.
//
// The hand-over is at least once: a crash after the rail took a payment but
// before the intent was removed hands it over again, with the same payment
// id, so a rail must be idempotent on OutgoingPayment.ID and
// PullRequest.ID.

// Options is what the quotes area gives the rail boundary: the rail, and
// the two functions through which an outcome reaches the payment it is
// for, which package quotes owns.
type Options struct {
	// Rail carries payouts and pulls (quotes.Options.Rail, never nil).
	Rail rails.Rail
	// Known answers TRANSACTION_NOT_FOUND unless transaction txID is
	// stored (or created in t): a report for a payment the engine never
	// made is refused before it is marked applied.
	Known func(t *engine.Txn, txID string) error
	// Settle applies an outcome that has taken effect to its payment, in
	// t: at once, as due work, or when an operation catches up (CatchUp).
	Settle func(t *engine.Txn, rep rails.Report) error
}

// state is the rail boundary's state: its Options and the intents this
// engine stored lately.
type state struct {
	Options
	intents engine.StoredCache[railIntent] // rail intents stored, by id
}

var slot engine.Slot[state]

// State is the rail boundary's state for an engine, for the quotes area to
// register (engine.AreaDef.State).
func State(o Options) engine.SlotEntry { return slot.With(&state{Options: o}) }

// tableRailReports holds the reports applied: payment id \x00 reference ->
// time applied.
const tableRailReports = "rail_reports"

// Kinds of payment intent, the prefix of a payment id ("send:<transaction id>").
const (
	IntentSend = "send" // a payout, to Rail.Send
	IntentPull = "pull" // a collection, to Puller.Pull
)

// railIntent is a payment waiting to be handed to the rail, as stored.
type railIntent struct {
	Send *rails.OutgoingPayment `json:"send,omitempty"`
	Pull *rails.PullRequest     `json:"pull,omitempty"`
}

// Intents are the intents of payments, carried out by the rail, for the
// quotes area to declare (engine.AreaDef.Intents).
func Intents(e *engine.Handle) []engine.IntentKind {
	handOver := func(ctx context.Context, h *engine.Handover) error { return handOverPayment(e, ctx, h) }
	return []engine.IntentKind{
		{Name: IntentSend, Record: func() any { return new(rails.OutgoingPayment) }, HandOver: handOver},
		{Name: IntentPull, Record: func() any { return new(rails.PullRequest) }, HandOver: handOver},
	}
}

// paymentID is the id of a payment of kind for a transaction: the intent's
// key and the id the rail reports under. A transaction has at most one
// payment of each kind.
func paymentID(kind, txID string) string { return kind + ":" + txID }

// SplitPaymentID returns the kind (IntentSend, IntentPull) and
// transaction id of a payment id.
func SplitPaymentID(id string) (kind, txID string) {
	kind, txID, _ = strings.Cut(id, ":")
	return kind, txID
}

// SendPayment sends the payout p: to a rail that hands payments over, after
// commit; to an instant rail (rails.Instant), by applying its outcomes at
// the end of t (Txn.AtEnd), where the hand-over would have applied them
// right after commit: the operation's answer, like a hand-over's, shows
// the payment as it was sent, and the payment's outcome commits with it.
func SendPayment(t *engine.Txn, p rails.OutgoingPayment) error {
	p.ID, p.SubmittedAt = paymentID(IntentSend, p.TransactionID), t.Now
	in, ok := slot.Of(t.Handle).Rail.(rails.Instant)
	if !ok {
		return intendPayment(t, p.ID, railIntent{Send: &p})
	}
	// The rail gets a copy: the destination read in t is shared.
	p.Destination = p.Destination.Clone()
	t.AtEnd(func(t *engine.Txn) error {
		for _, rep := range in.Outcomes(p) {
			if rep.PaymentID != p.ID {
				return fmt.Errorf("payments: rail %s decided an outcome of payment %q for payment %s", in.Name(), rep.PaymentID, p.ID)
			}
			rep, err := checkReport(rep)
			if err != nil {
				return fmt.Errorf("payments: rail %s decided an outcome of payment %s that cannot apply: %w", in.Name(), p.ID, err)
			}
			if err := applyOutcome(t, rep, rep.At.After(t.Now)); err != nil {
				return err
			}
		}
		return nil
	})
	return nil
}

// IntendPull records that p is to be collected through the rail after
// commit.
func IntendPull(t *engine.Txn, p rails.PullRequest) error {
	p.ID, p.SubmittedAt = paymentID(IntentPull, p.TransactionID), t.Now
	return intendPayment(t, p.ID, railIntent{Pull: &p})
}

// WithdrawSend withdraws the payout of transaction txID if the rail has
// not been handed it yet, and reports whether it did (engine.Txn.WithdrawIntent).
func WithdrawSend(t *engine.Txn, txID string) (bool, error) {
	return t.WithdrawIntent(paymentID(IntentSend, txID))
}

// intendPayment writes the intent of payment id in t; it is dispatched
// only if t commits.
func intendPayment(t *engine.Txn, id string, in railIntent) error {
	b, err := in.encode()
	if err != nil {
		return err
	}
	// Remembered, so the hand-over right after commit does not decode it.
	slot.Of(t.Handle).intents.Remember(id, b, &in)
	return t.Intend(id, b)
}

// clone returns a copy of in that shares nothing a rail could change
// through (TestIntentCloneSharesNothing).
func (in *railIntent) clone() *railIntent {
	c := *in
	if in.Send != nil {
		s := *in.Send
		s.Destination = s.Destination.Clone()
		c.Send = &s
	}
	if in.Pull != nil {
		p := *in.Pull
		p.From = p.From.Clone()
		c.Pull = &p
	}
	return &c
}

// handOverPayment gives one waiting payment to the rail. A pull given to a
// rail that cannot pull (no rails.Puller, such as rails.Default) is
// reported collected at once: the money is taken to arrive from the rail's
// external account. An error leaves the intent to the intent worker, which
// hands it over again with backoff and finally parks it in the dead
// letters.
func handOverPayment(e *engine.Handle, ctx context.Context, h *engine.Handover) error {
	in, err := slot.Of(e).intents.Load(h.ID, h.Value, (*railIntent).clone)
	if err != nil {
		return err
	}
	r := reporter{e: e, follow: h.Follow, h: h}
	switch {
	case in.Send != nil:
		return slot.Of(e).Rail.Send(ctx, *in.Send, r)
	case in.Pull != nil:
		if p, ok := slot.Of(e).Rail.(rails.Puller); ok {
			return p.Pull(ctx, *in.Pull, r)
		}
		return r.Report(ctx, rails.Report{PaymentID: h.ID, Outcome: rails.Completed})
	}
	return nil
}

// Rails is the engine's side of the rail boundary: the rails.Reporter
// production rails report through. Reach it as eng.Rails
// (payments.Rails, quotes.Rails).
type Rails struct{ e *engine.Handle }

// NewRails returns the Rails group of h.
func NewRails(h *engine.Handle) Rails { return Rails{h} }

var _ rails.Reporter = Rails{}

// Report applies one outcome a rail reports for a payment it was given
// (see rails.Reporter): the entry point of production rails, called from
// their network's webhooks or pollers. Payments the outcome sets in motion
// (a collected pull starts its payout) are handed to the rail before Report
// returns. A report without PaymentID or with an unknown Outcome is
// INVALID_INPUT; one for a payment the engine never made is
// TRANSACTION_NOT_FOUND.
//
// Report is idempotent on the pair (PaymentID, Reference): a repeat is
// accepted and changes nothing, so a rail may report again whenever it is
// unsure. An outcome that does not fit the payment's state (COMPLETED for a
// failed payment, RETURNED before completion) is accepted and ignored, not
// refused.
func (r Rails) Report(ctx context.Context, rep rails.Report) error {
	_, err := engine.Run(ctx, r.e, reportOutcome, rep)
	return err
}

// reportOutcome is Rails.Report's operation: a write recorded under no
// idempotency key (a report applies once per payment and reference by
// itself), whose intents are handed over after commit.
var reportOutcome = engine.Op[rails.Report, struct{}, struct{}]{Area: "quotes", Name: "Rails.Report", Access: engine.Unkeyed,
	Validate: func(rep *rails.Report) (err error) {
		*rep, err = checkReport(*rep)
		return err
	},
	Decide: func(t *engine.Txn, rep *rails.Report, _ *struct{}) (struct{}, error) {
		return struct{}{}, applyReport(t, *rep)
	}}

// Pending returns the payments not yet handed to the rail (waiting for
// their first hand-over or backing off after an error), up to limit.
func (r Rails) Pending(ctx context.Context, limit int) ([]string, error) {
	return engine.Run(ctx, r.e, pendingIntents, limit)
}

// pendingIntents is Rails.Pending's operation: one read of the intents
// table, pulls first.
var pendingIntents = engine.Op[int, []string, struct{}]{Area: "quotes", Name: "Rails.Pending", Access: engine.Read,
	Decide: func(t *engine.Txn, limit *int, _ *struct{}) ([]string, error) {
		var ids []string
		for _, kind := range []string{IntentPull, IntentSend} {
			err := t.Scan(engine.TableIntents, engine.ScanOptions{Prefix: kind + ":"}, func(k string, _ []byte) (bool, error) {
				ids = append(ids, k)
				return len(ids) < *limit, nil
			})
			if err != nil {
				return nil, err
			}
		}
		return ids, nil
	}}

// report applies rep in its own transaction and returns the intents it wrote.
// With a hand-over in progress (h), a report for its payment also removes
// the payment's intent in that transaction: the rail has taken the payment,
// so handOver need not commit again.
func report(e *engine.Handle, ctx context.Context, rep rails.Report, h *engine.Handover) ([]string, error) {
	rep, err := checkReport(rep)
	if err != nil {
		return nil, err
	}
	take := h != nil && rep.PaymentID == h.ID
	intents, err := e.Commit(ctx, func(t *engine.Txn) error {
		if take {
			if err := t.TakeIntent(rep.PaymentID); err != nil {
				return err
			}
		}
		return applyReport(t, rep)
	})
	if err == nil && take {
		h.Taken = true
	}
	return intents, err
}

// checkReport returns rep as it applies, its Reference defaulting to its
// Outcome; INVALID_INPUT without PaymentID or with an unknown Outcome.
func checkReport(rep rails.Report) (rails.Report, error) {
	var fe validate.Errors
	fe.Required("paymentId", rep.PaymentID)
	switch rep.Outcome {
	case rails.Accepted, rails.Completed, rails.Failed, rails.Returned:
	default:
		fe.Add("outcome", nil, "outcome must be ACCEPTED, COMPLETED, FAILED or RETURNED")
	}
	if err := engine.Invalid(fe.Err()); err != nil {
		return rep, err
	}
	if rep.Reference == "" {
		rep.Reference = string(rep.Outcome)
	}
	return rep, nil
}

// applyReport applies rep once: at once, or as due work when it takes
// effect later. The pair (payment, reference) is marked applied before
// anything else, ACCEPTED included, which only records that the rail took
// the payment.
func applyReport(t *engine.Txn, rep rails.Report) error { return applyOutcome(t, rep, true) }

// applyOutcome is applyReport, marking the pair applied only when mark is
// set. An instant rail's outcome that applies at once, in the transaction
// that makes the payment (SendPayment), is not marked: it is decided by
// the payment alone and the payment's state records it, since a payout's
// steps apply only from the state before them (COMPLETED and FAILED from
// PROCESSING, RETURNED from COMPLETED, applyStep), so the same report
// given to Report later changes nothing. That saves a stored row per
// payment where payouts settle at once, as in the sandbox. A rail's
// reports through Report, and an instant outcome that waits as due work,
// are marked.
func applyOutcome(t *engine.Txn, rep rails.Report, mark bool) error {
	kind, txID := SplitPaymentID(rep.PaymentID)
	if kind != IntentSend && kind != IntentPull {
		return engine.Errorf(engine.CodeTransactionNotFound, "no payment %s", rep.PaymentID)
	}
	if err := slot.Of(t.Handle).Known(t, txID); err != nil {
		return err
	}
	if mark {
		seen := rep.PaymentID + "\x00" + rep.Reference
		if _, err := t.Get(tableRailReports, seen); err == nil {
			return nil // applied before
		} else if !errors.Is(err, engine.ErrNotFound) {
			return err
		}
		if err := t.Put(tableRailReports, seen, []byte(t.Now.Format(engine.DueLayout))); err != nil {
			return err
		}
	}
	if rep.Outcome == rails.Accepted {
		return nil
	}
	if rep.At.After(t.Now) {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		k := engine.DueKey(rep.At, txID) + "|" + rep.PaymentID + "|" + rep.Reference
		if err := t.Put(tableSettlementsDue, k, b); err != nil {
			return err
		}
		return t.Put(tableSettlementsByTx, txID+"|"+k, nil)
	}
	return slot.Of(t.Handle).Settle(t, rep)
}

// reporter is the Reporter handed to a rail during a hand-over: reports
// apply at once, and the intents they write join the dispatch's queue.
type reporter struct {
	e      *engine.Handle
	follow *[]string
	h      *engine.Handover
}

// Report applies rep at once, in its own transaction, and queues the
// payments it sets in motion behind the current hand-over.
func (r reporter) Report(ctx context.Context, rep rails.Report) error {
	intents, err := report(r.e, ctx, rep, r.h)
	*r.follow = append(*r.follow, intents...)
	return err
}

// encode returns json.Marshal(in), by hand for a payout (every payment
// executed to an external account writes one).
func (in *railIntent) encode() ([]byte, error) {
	if in.Send == nil || in.Pull != nil {
		return engine.EncodeRecord(in)
	}
	p := in.Send
	b := append(make([]byte, 0, 640), `{"send":{`...)
	b = engine.StringMember(b, "ID", p.ID, false)
	b = engine.StringMember(b, "TransactionID", p.TransactionID, false)
	b = engine.StringMember(b, "Currency", p.Currency, false)
	b = engine.IntMember(b, "Amount", p.Amount)
	b = engine.StringMember(b, "Rail", p.Rail, false)
	b = engine.Member(b, "Destination")
	var err error
	if a := p.Destination; a == nil {
		b = append(b, "null"...)
	} else if b, err = accounts.AppendExternalAccount(b, a); err != nil {
		return nil, err
	}
	b = engine.StringMember(b, "UmaAddress", p.UmaAddress, false)
	b = strconv.AppendBool(engine.Member(b, "Transfer"), p.Transfer)
	if b, err = engine.TimeMember(b, "SubmittedAt", p.SubmittedAt); err != nil {
		return nil, err
	}
	return append(b, "}}"...), nil
}
