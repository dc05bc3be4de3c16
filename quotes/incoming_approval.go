package quotes

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/paygrid/payments/internal/engine"
)

// The platform answers an incoming payment's approval request, the
// INCOMING_PAYMENT.PENDING webhook, in the HTTP response to that delivery
// (200 approves, 403 rejects, 202 waits), or later through POST /transactions/{id}/approve and
// /reject (Transactions.Decide). With Options.IncomingApproval
// (payments.Config.IncomingApproval) the engine reads the answer of each
// PENDING delivery it makes through an engine.WebhookSender:
//
//	200 (any 2xx but 202)  approve: the payment is credited (COMPLETED)
//	202                    decide later through approve/reject within
//	                       ApprovalWindow, else PAYMENT_APPROVAL_TIMED_OUT
//	409                    "already processed": treated like 202
//	403                    reject: REJECTED, nothing is credited
//	anything else          FAILED with PAYMENT_APPROVAL_WEBHOOK_ERROR; this
//	                       includes 422 (the sandbox counterparty cannot send
//	                       more payer data), other statuses, timeouts and
//	                       refused addresses
//
// Without a WebhookSender or a configured endpoint there is no answer to
// read, so the payment waits for the API decision or the timeout. An answer
// for a payment no longer waiting (decided through the API, timed out, or
// not under approval at all) changes nothing: the approval record is
// claimed in the same store transaction that settles the payment, so a
// payment is decided exactly once.

// approvalRequest is the event type that asks the platform for a decision.
const approvalRequest = EventIncomingPaymentPending

// approvalHooks are the delivery hooks of incoming approval: a request is
// delivered at most once (its payment is decided by the answer, the
// approve and reject operations, or the timeout instead), and with
// Options.IncomingApproval its endpoint's answer decides the payment.
//
// The at-most-once rule holds for every INCOMING_PAYMENT.PENDING event,
// with or without approval: redelivering one could approve or reject a
// payment a second time, had an operator meanwhile switched approval on. A
// platform that missed one learns the outcome from the next event of the
// payment (COMPLETED or FAILED).
func approvalHooks(e *engine.Handle, incomingApproval bool) engine.DeliveryHooks {
	h := engine.DeliveryHooks{Once: []engine.EventType{approvalRequest}}
	if incomingApproval {
		h.AnswerTypes = []engine.EventType{approvalRequest}
		h.Answered = func(ctx context.Context, answers []engine.DeliveryAnswer) { applyApprovalAnswers(e, ctx, answers) }
	}
	return h
}

// decision is what an answer asks for.
type decision int

const (
	decideLater decision = iota
	decideApprove
	decideReject
	decideFail
)

// decisionOf maps a delivery outcome onto a decision (see the table above).
func decisionOf(d engine.Delivery, err error) decision {
	switch {
	case d.Status == http.StatusAccepted || d.Status == http.StatusConflict:
		return decideLater
	case err == nil && d.Status/100 == 2:
		return decideApprove
	case d.Status == http.StatusForbidden:
		return decideReject
	default:
		return decideFail
	}
}

// applyApprovalAnswers decides the payments whose approval requests were just
// delivered. It runs after the outbox pass has committed; a failure here
// leaves the payment waiting, so it still times out. Each payment is
// decided in its own transaction (decideByWebhook): one that cannot be
// decided never holds up the others.
func applyApprovalAnswers(e *engine.Handle, ctx context.Context, answers []engine.DeliveryAnswer) {
	for _, a := range answers {
		var ref struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(a.Event.Data, &ref); err != nil || ref.ID == "" {
			continue
		}
		d := decisionOf(a.Delivery, a.Err)
		if d == decideLater {
			continue
		}
		if err := decideByWebhook(e, ctx, ref.ID, d); err != nil && ctx.Err() == nil {
			e.Log.WarnContext(ctx, "applying the approval webhook's answer failed", "transaction", ref.ID, "err", err)
		}
	}
}

// decideByWebhook applies d to transaction id if it still waits for
// approval. A rejection or a failed webhook moves no money: nothing was
// credited while the payment waited. Both are announced as
// INCOMING_PAYMENT.FAILED, a rejection with status REJECTED.
func decideByWebhook(e *engine.Handle, ctx context.Context, id string, d decision) error {
	return e.Update(ctx, func(t *engine.Txn) error {
		waiting, err := claimApproval(t, id)
		if err != nil || !waiting {
			return err
		}
		tx, err := GetTransaction(t, id)
		if err != nil {
			return err
		}
		switch d {
		case decideApprove:
			return creditIncoming(t, tx)
		case decideReject:
			tx.Status = TxRejected
		default:
			tx.Status, tx.FailureReason = TxFailed, "PAYMENT_APPROVAL_WEBHOOK_ERROR"
		}
		return SaveTransaction(t, tx, EventIncomingPaymentFailed)
	})
}

// claimApproval removes id's approval records and reports whether the
// payment was waiting for the platform.
func claimApproval(t *engine.Txn, id string) (bool, error) {
	deadline, err := t.Get(tableApprovals, id)
	if errors.Is(err, engine.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := t.Delete(tableApprovals, id); err != nil {
		return false, err
	}
	return true, t.Delete(tableApprovalsDue, string(deadline))
}
