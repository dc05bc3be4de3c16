package agents

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes"
)

// action reads action id in t: NOT_FOUND when there is none.
func action(t *engine.Txn, id string) (*actionRecord, error) {
	var r actionRecord
	if err := engine.GetJSON(t, tableAgentActions, id, &r); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "agent action", id)
	}
	return &r, nil
}

// actionView is the action with its quote and transaction as they stand:
// the action keeps references only, so its view never shows a stale status.
func actionView(t *engine.Txn, r *actionRecord) (*AgentAction, error) {
	out := r.AgentAction
	if r.QuoteID != "" {
		q, err := quotes.Get(t, r.QuoteID)
		if err != nil {
			return nil, err
		}
		out.Quote = &q.Quote
	}
	if r.TransactionID != "" {
		tx, err := quotes.GetTransaction(t, r.TransactionID)
		if err != nil {
			return nil, err
		}
		out.Transaction = tx
	}
	return &out, nil
}

// newAction builds an action of agent a, with the platform's id of its
// customer as the reference's AgentAction shows it. The caller saves it.
func newAction(t *engine.Txn, id string, a *agentRecord, typ ActionType, status ActionStatus) (*actionRecord, error) {
	c, err := customers.Get(t, a.CustomerID)
	if err != nil {
		return nil, err
	}
	return &actionRecord{AgentAction: AgentAction{ID: id, AgentID: a.ID, CustomerID: a.CustomerID, PlatformCustomerID: c.PlatformCustomerID,
		Status: status, Type: typ, CreatedAt: t.Now, UpdatedAt: t.Now}}, nil
}

// saveAction writes r (new or changed) and returns its view; a pending
// action also emits AGENT_ACTION.PENDING_APPROVAL with the full action.
func saveAction(t *engine.Txn, r *actionRecord) (*AgentAction, error) {
	r.UpdatedAt = t.Now
	if err := engine.PutJSON(t, tableAgentActions, r.ID, r); err != nil {
		return nil, err
	}
	v, err := actionView(t, r)
	if err != nil {
		return nil, err
	}
	if r.Status == PendingApproval {
		return v, t.Emit(EventAgentActionPendingApproval, v)
	}
	return v, nil
}

// ApprovalFilter narrows Approvals; zero members match everything, dates are
// inclusive bounds on createdAt.
type ApprovalFilter struct {
	AgentID, CustomerID string
	StartDate, EndDate  time.Time
}

// Approvals lists the actions waiting for the platform's decision, in
// creation order, newest first with p.Desc (the HTTP route's default). It
// reads the narrowest index f allows (the agent's, the customer's, or the
// status index), a page at a time. INVALID_INPUT for a bad limit or cursor.
func (g Service) Approvals(ctx context.Context, f ApprovalFilter, p engine.ListParams) (engine.Page[AgentAction], error) {
	return engine.Run(ctx, g.e, approvalsOp, approvalList{f, p})
}

// approvalsOp is Service.Approvals's operation.
var approvalsOp = engine.Op[approvalList, engine.Page[AgentAction], struct{}]{Area: "agents", Name: "Approvals", Access: engine.Read,
	Decide: func(t *engine.Txn, in *approvalList, _ *struct{}) (out engine.Page[AgentAction], err error) {
		f, p := in.f, in.p
		err = func() error {
			q := engine.ListQuery[actionRecord]{Table: tableAgentActions, Index: engine.IxStatus, Value: string(PendingApproval), From: f.StartDate, To: f.EndDate,
				Match: func(r *actionRecord) bool {
					return r.Status == PendingApproval && (f.AgentID == "" || r.AgentID == f.AgentID) &&
						(f.CustomerID == "" || r.CustomerID == f.CustomerID) && platform.InRange(r.CreatedAt, f.StartDate, f.EndDate)
				}}
			page, err := engine.List(t, q.Narrowest([2]string{ixAgent, f.AgentID}, [2]string{ixCustomer, f.CustomerID}), p)
			if err != nil {
				return err
			}
			out, err = engine.MapPage(page, func(r *actionRecord) (*AgentAction, error) { return actionView(t, r) })
			return err
		}()
		return out, err
	}}

// ApprovalsAll walks every page of Approvals from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (g Service) ApprovalsAll(ctx context.Context, f ApprovalFilter, p engine.ListParams) iter.Seq2[AgentAction, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[AgentAction], error) {
		return g.Approvals(ctx, f, p)
	})
}

// pendingAction reads the action actionID of agentID that the platform is
// deciding: NOT_FOUND when it is another agent's, and
// TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL once decided.
func pendingAction(t *engine.Txn, agentID, actionID string) (*actionRecord, error) {
	r, err := action(t, actionID)
	if err == nil && r.AgentID != agentID {
		err = engine.Errorf(engine.CodeNotFound, "agent action %s not found", actionID)
	}
	if err != nil {
		return nil, err
	}
	if !CanDecide(r.Status) {
		return nil, engine.Errorf(engine.CodeTransactionNotPendingPlatformApproval, "agent action %s is %s, not PENDING_APPROVAL", actionID, r.Status)
	}
	return r, nil
}

// Reject ends a pending action without running it; reason (optional) is
// kept as its rejectionReason. NOT_FOUND for an action of another agent;
// TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL once it was decided, so of a
// concurrent Approve and Reject exactly one wins.
func (g Service) Reject(ctx context.Context, agentID, actionID, reason string) (*AgentAction, error) {
	return engine.Run(ctx, g.e, rejectOp, [3]string{agentID, actionID, reason})
}

// rejectOp is Service.Reject's operation.
var rejectOp = engine.Op[[3]string, *AgentAction, struct{}]{Area: "agents", Name: "Reject",
	Decide: func(t *engine.Txn, in *[3]string, _ *struct{}) (out *AgentAction, err error) {
		agentID, actionID, reason := in[0], in[1], in[2]
		err = func() error {
			r, err := pendingAction(t, agentID, actionID)
			if err != nil {
				return err
			}
			r.Status, r.RejectionReason = Rejected, reason
			out, err = saveAction(t, r)
			return err
		}()
		return out, err
	}}

// Approve runs a pending action: the agent's hard limits are checked again
// and its usage counted in the transaction that moves the money. When the
// action can no longer run (the quote expired, funds are short, a limit is
// now passed) the action becomes FAILED and the answer is still 200.
//
// NOT_FOUND for an action of another agent and
// TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL once decided; any other 4xx
// refusal of the execution is the FAILED answer instead (refusal). The
// spend is converted before the transaction, and counted, with the limits
// checked again, in the transaction that moves the money; a pause of the
// agent does not stop the platform's own approval.
func (g Service) Approve(ctx context.Context, agentID, actionID string) (*AgentAction, error) {
	return engine.Run(ctx, g.e, approveOp, [2]string{agentID, actionID})
}

// approving is what an approval gathers before its transaction: the
// pending action, its spend converted into the agent's policy (spending,
// whose id an approval leaves empty: the action has its own), the answer
// of the quote that moved the money (an approved transfer out), or why
// the approved action could not run.
type approving struct {
	r *actionRecord
	spending
	out     *AgentAction
	failure string
}

// approveOp is Service.Approve's operation. A repeated approval (same
// idempotency key) is answered from the record of the first before the
// action is required to be pending (ReadFingerprint: the first approval
// decided it). Prefetch reads the action and the agent and converts the
// spend; the transaction that moves the money counts it, or, for a
// transfer out, the quote the quotes area creates and executes
// (quotes.Create, which settles the answer). A policy that moved sends the
// approval round again (moved); a refusal of the run (refusal) rolls it
// back and comes back to Prefetch as Missing too, and the next decision
// records the action FAILED, under the approval's idempotency call and
// fingerprint.
var approveOp = engine.Op[[2]string, *AgentAction, approving]{Area: "agents", Name: "Approve", Refetches: engine.Unbounded,
	ReadFingerprint: func(t *engine.Txn, in *[2]string) (any, error) {
		r, err := action(t, in[1])
		if err == nil && r.AgentID != in[0] {
			err = engine.Errorf(engine.CodeNotFound, "agent action %s not found", in[1]) // the approval itself reports it
		}
		if err != nil {
			return nil, err
		}
		return r.approvalFingerprint(), nil
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, in *[2]string, f *approving, missed error) error {
		if missed != nil && !errors.Is(missed, errPolicyMoved) {
			// The refused run rolled back: recording FAILED is the
			// approval's answer.
			f.failure = engine.MessageOf(missed)
			return nil
		}
		*f = approving{}
		agentID, actionID := in[0], in[1]
		var a *agentRecord
		var q *quotes.Record
		err := e.View(ctx, func(t *engine.Txn) error {
			var err error
			if f.r, err = pendingAction(t, agentID, actionID); err != nil {
				return err
			}
			if a, err = agent(t, agentID); err != nil {
				return err
			}
			if f.r.QuoteID != "" {
				q, err = quotes.Get(t, f.r.QuoteID)
			}
			return err
		})
		if err != nil {
			return err
		}
		if q != nil {
			f.s, f.lc, f.tc, err = spendOf(e, ctx, a, q.SendingCurrency.Code, quoteAmounts(q), q.Source.AccountID, q.TotalSendingAmount)
		} else {
			d := f.r.TransferDetails
			acct := d.SourceAccountID
			if f.r.Type == TransferIn {
				acct = d.DestinationAccountID
			}
			f.s, f.lc, f.tc, err = spendOf(e, ctx, a, d.Currency, map[string]int64{d.Currency: d.Amount}, acct, d.Amount)
		}
		if err != nil || f.r.Type != TransferOut {
			return err
		}
		f.out, err = quotes.Create(ctx, e, f.r.transferQuote(), true, func(t *engine.Txn, q *quotes.Record) (*AgentAction, error) {
			return runApproved(t, agentID, actionID, f, func(*agentRecord) (string, error) { return q.TransactionID, nil })
		})
		if err != nil {
			return retryApproval(err)
		}
		return engine.Settled
	},
	Decide: func(t *engine.Txn, in *[2]string, f *approving) (out *AgentAction, err error) {
		agentID, actionID := in[0], in[1]
		if f.failure != "" {
			r, err := pendingAction(t, agentID, actionID)
			if err != nil {
				return nil, err
			}
			r.Status, r.FailureReason = Failed, f.failure
			return saveAction(t, r)
		}
		switch f.r.Type {
		case ExecuteQuote:
			out, err = runApproved(t, agentID, actionID, f, func(*agentRecord) (string, error) {
				q, err := quotes.Get(t, f.r.QuoteID)
				if err != nil {
					return "", err
				}
				if q.Status == quotes.Expired || q.Lapsed(t.Now) {
					return "", engine.Errorf(engine.CodeQuoteExpired, "quote %s expired at %s", q.ID, q.ExpiresAt.Format(time.RFC3339))
				}
				return q.TransactionID, quotes.Execute(t, q)
			})
		case TransferIn:
			d := f.r.TransferDetails
			out, err = runApproved(t, agentID, actionID, f, func(a *agentRecord) (string, error) {
				tx, err := quotes.TransferIn(t, d.SourceAccountID, d.DestinationAccountID, d.Amount, a.ID)
				if err != nil {
					return "", err
				}
				return tx.ID, nil
			})
		}
		return out, retryApproval(err)
	},
	Answer: func(_ *engine.Handle, _ *[2]string, f *approving, out *AgentAction, err error) (*AgentAction, error) {
		if f.out != nil {
			return f.out, err
		}
		return out, err
	}}

// runApproved is the approved action's work inside its transaction: it
// reads the action and the agent again, counts the spend and moves the
// money (move, which names the transaction).
func runApproved(t *engine.Txn, agentID, actionID string, f *approving, move func(a *agentRecord) (txID string, err error)) (*AgentAction, error) {
	r, err := pendingAction(t, agentID, actionID)
	if err != nil {
		return nil, err
	}
	a, err := agent(t, agentID)
	if err != nil {
		return nil, err
	}
	if _, err := spendCheck(t, a, f.s, f.lc, f.tc, true); err != nil {
		return nil, err
	}
	txID, err := move(a)
	if err != nil {
		return nil, err
	}
	r.Status, r.TransactionID = Approved, txID
	return saveAction(t, r)
}

// retryApproval marks what sends an approval back to Prefetch (Missing): a
// policy that moved (convert again and decide again) and a refusal of the
// run (record the action FAILED).
func retryApproval(err error) error {
	if errors.Is(err, errPolicyMoved) || refusal(err) {
		return engine.Missing(err)
	}
	return err
}

// approvalFingerprint is what identifies an approval of r to its
// idempotency key when the caller gives no request bytes: the
// transfer-out quote the approval creates, or the action itself. The
// approval's answer is recorded under it whichever way it ends (approved
// or FAILED).
func (r *actionRecord) approvalFingerprint() any {
	if r.Type == TransferOut {
		return r.transferQuote()
	}
	return []any{"approve", r.ID}
}

// refusal reports whether err is the engine refusing to run an approved
// action (an answer to the client, not a fault), which makes it FAILED.
// NOT_FOUND and TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL are about the
// action itself and stay errors; 5xx faults stay errors so that a retry
// can still run the action.
func refusal(err error) bool {
	var pe *engine.Error
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case engine.CodeTransactionNotPendingPlatformApproval, engine.CodeNotFound:
		return false
	}
	s := pe.Code.Status()
	return s >= 400 && s < 500
}

// transferQuote is the same-currency quote of a transfer-out action. It is
// also TransferOut's idempotency fingerprint, whichever path records the
// answer (a pending action, or the quote created and executed), so a retry
// is recognised either way.
func (r *actionRecord) transferQuote() quotes.Request {
	d := r.TransferDetails
	return quotes.Request{Source: quotes.Source{SourceType: quotes.SourceAccount, AccountID: d.SourceAccountID},
		Destination: quotes.Destination{DestinationType: quotes.DestinationAccount, AccountID: d.DestinationAccountID}, LockedCurrencySide: quotes.Sending,
		LockedCurrencyAmount: d.Amount, ImmediatelyExecute: true, RemittanceInformation: r.Remittance, PurposeOfPayment: r.Purpose, AgentID: r.AgentID}
}

// quoteAmounts are a quote's totals by currency: a policy in either
// currency uses the quote's own figure, not a conversion (spendOf).
func quoteAmounts(q *quotes.Record) map[string]int64 {
	return map[string]int64{q.ReceivingCurrency.Code: q.TotalReceivingAmount, q.SendingCurrency.Code: q.TotalSendingAmount}
}
