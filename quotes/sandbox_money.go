package quotes

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/railside"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// Get returns a quote (QUOTE_NOT_FOUND); a PENDING quote past its expiry
// reads EXPIRED, one whose SCA challenge lapsed FAILED, as the next
// ProcessDue will record it. Reading never writes.
func (qs Service) Get(ctx context.Context, id string) (*Quote, error) {
	return engine.Run(ctx, qs.e, getQuote, id)
}

// getQuote is Service.Get's operation: one read.
var getQuote = engine.Op[string, *Quote, struct{}]{Area: "quotes", Name: "Get", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Quote, error) {
		q, err := Get(t, *id)
		if err != nil {
			return nil, err
		}
		return asRead(q, t.Now), nil
	}}

// Sandbox is the quotes area's part of the sandbox operations (the root's
// eng.Sandbox delegates to it; payments.SandboxPayments): a payer funding a
// real-time funded quote, and incoming payments from sandbox
// counterparties. Both answer FORBIDDEN outside the sandbox.
type Sandbox struct{ e *engine.Handle }

// NewSandbox returns the Sandbox group of h.
func NewSandbox(h *engine.Handle) Sandbox { return Sandbox{h} }

// Send simulates the payer funding a real-time funded quote (POST
// /sandbox/send): currency must be the quote's sending currency and amount
// (0 means the total) must equal the sending total, else the transaction
// fails with FUNDING_AMOUNT_MISMATCH and the money goes back. A funded quote
// then settles like an executed one.
//
// The money arrives from external:sandbox-funding on the quote's inflight
// account. An unknown quote is QUOTE_NOT_FOUND; a quote funded from an
// account, or not PENDING (awaiting SCA, already funded), CONFLICT; a
// lapsed one QUOTE_EXPIRED (kept: the quote's expiry commits with the
// answer); a currency other than the quote's INVALID_INPUT.
func (s Sandbox) Send(ctx context.Context, quoteID, currency string, amount int64) (*Transaction, error) {
	return engine.Run(ctx, s.e, sandboxSend, payment{quoteID, currency, amount})
}

// payment is a sandbox payer's funding of a real-time funded quote.
type payment struct {
	quoteID, currency string
	amount            int64
}

// sandboxSend is Sandbox.Send's operation; its idempotency record
// fingerprints [quoteId, currency, amount], as before it was declared. A
// lapsed quote's expiry commits with its refusal (engine.Keep).
var sandboxSend = engine.Op[payment, *Transaction, struct{}]{Area: "quotes", Name: "Sandbox.Send",
	Fingerprint: func(in *payment) any { return []any{in.quoteID, in.currency, in.amount} },
	Guard:       (*engine.Handle).RequireSandbox,
	Validate: func(in *payment) error {
		var fe validate.Errors
		fe.Required("quoteId", in.quoteID)
		fe.Required("currencyCode", in.currency)
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *payment, _ *struct{}) (*Transaction, error) {
		quoteID, currency, amount := in.quoteID, in.currency, in.amount
		q, err := Get(t, quoteID)
		if err != nil {
			return nil, err
		}
		if q.Source.SourceType != SourceRealtimeFunding {
			return nil, engine.Errorf(engine.CodeConflict, "quote %s is funded from an account; execute it instead", quoteID)
		}
		lapsed := engine.Errorf(engine.CodeQuoteExpired, "quote %s expired; request a new quote", quoteID)
		if q.Status == Expired || challengeLapsed(t, q) { // ended by the sweep: the same answer as before it ran
			return nil, lapsed
		}
		if expired, err := ExpireIfDue(t, q); err != nil || expired {
			if err != nil {
				return nil, err
			}
			return nil, engine.Keep(lapsed)
		}
		if q.Status != Pending {
			return nil, engine.Errorf(engine.CodeConflict, "quote %s is %s; only an authorized, unfunded quote can be funded", quoteID, q.Status)
		}
		if currency != q.SendingCurrency.Code {
			var fe validate.Errors
			fe.Add("currencyCode", nil, "currencyCode must be the quote's sending currency %s", q.SendingCurrency.Code)
			return nil, engine.Invalid(fe)
		}
		if amount == 0 {
			amount = q.TotalSendingAmount
		}
		if err := engine.PostEntry(t, q.TransactionID, accounts.Transfer(accounts.SandboxFundingAccount, holdAccount(q), currency, amount)); err != nil {
			return nil, err
		}
		if amount != q.TotalSendingAmount {
			// The wrong amount arrived: all of it goes back to the payer and
			// the payment fails; the quote keeps the figures it was made with.
			q.Status = Processing
			tx, err := GetTransaction(t, q.TransactionID)
			if err != nil {
				return nil, err
			}
			tx.Status = TxProcessing
			if err := failAndRefund(t, q, tx, rails.Report{Outcome: rails.Failed, FailureReason: "FUNDING_AMOUNT_MISMATCH", RefundReason: "TRANSACTION_FAILED"}, amount); err != nil {
				return nil, err
			}
			if err := saveQuote(t, q); err != nil {
				return nil, err
			}
			return tx, nil
		}
		if err := startDelivery(t, q); err != nil {
			return nil, err
		}
		return GetTransaction(t, q.TransactionID)
	}}

// ReceiveRequest simulates an incoming UMA payment (POST /sandbox/receive
// and /sandbox/uma/receive).
type ReceiveRequest struct {
	SenderUmaAddress        string `json:"senderUmaAddress"`
	ReceiverUmaAddress      string `json:"receiverUmaAddress,omitempty"`
	CustomerID              string `json:"customerId,omitempty"`
	ReceivingCurrencyCode   string `json:"receivingCurrencyCode"`
	ReceivingCurrencyAmount int64  `json:"receivingCurrencyAmount"`
}

// Receive deposits an incoming UMA payment from a sandbox
// counterparty: to the receiver's defaultUmaDepositAccount external account
// when it has one, else to its primary internal account in the currency.
// Unknown sender or receiver is UMA_NOT_FOUND / CUSTOMER_NOT_FOUND; a
// $fail.compliance sender's payment fails (COMPLIANCE_REJECTED); a
// $pending.long sender's stays PENDING for SandboxSlowIncoming, then
// completes (ProcessDue). With Options.IncomingApproval the payment waits
// in PENDING for Transactions.Decide or the approval webhook's answer
// instead (even from a $pending.long sender).
//
// The sender is looked up in the Directory before the transaction. The
// credit is posted from external:uma to the receiver's internal account,
// or to the rail's external account for a default deposit account, and
// announced as INCOMING_PAYMENT.PENDING then COMPLETED or FAILED. A
// receiver that may not transact is CUSTOMER_DELETED or
// END_USER_TERMS_NOT_ACCEPTED; one without an account in the currency
// ACCOUNT_NOT_FOUND.
func (s Sandbox) Receive(ctx context.Context, req ReceiveRequest) (*Transaction, error) {
	return engine.Run(ctx, s.e, sandboxReceive, req)
}

// sandboxReceive is Sandbox.Receive's operation: the sender is looked up
// in the Directory in Prefetch, outside the transaction that books the
// payment.
var sandboxReceive = engine.Op[ReceiveRequest, *Transaction, struct{}]{Area: "quotes", Name: "Sandbox.Receive",
	Guard: (*engine.Handle).RequireSandbox,
	Validate: func(req *ReceiveRequest) error {
		var fe validate.Errors
		fe.Required("senderUmaAddress", req.SenderUmaAddress)
		fe.Required("receivingCurrencyCode", req.ReceivingCurrencyCode)
		if req.ReceivingCurrencyAmount < 1 || req.ReceivingCurrencyAmount > accounts.MaxSandboxFunding {
			fe.Add("receivingCurrencyAmount", nil, "receivingCurrencyAmount must be between 1 and %d", accounts.MaxSandboxFunding)
		}
		if (req.ReceiverUmaAddress == "") == (req.CustomerID == "") {
			fe.Add("receiverUmaAddress", nil, "name the receiver by exactly one of receiverUmaAddress and customerId")
		}
		return engine.Invalid(fe.Err())
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, req *ReceiveRequest, _ *struct{}, _ error) error {
		sender, err := directory(e).LookupUMA(ctx, req.SenderUmaAddress)
		if err != nil {
			return err
		}
		if sender == nil {
			return engine.Errorf(engine.CodeUmaNotFound, "no sandbox counterparty sends from %s", req.SenderUmaAddress)
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *ReceiveRequest, _ *struct{}) (*Transaction, error) {
		req := *in
		var c *customers.Customer
		var err error
		if req.CustomerID != "" {
			c, err = customers.Transacting(t, req.CustomerID)
		} else if c, err = customers.ByUma(t, req.ReceiverUmaAddress); err == nil {
			c, err = customers.Transacting(t, c.ID)
		}
		if err != nil {
			return nil, err
		}
		id := t.NewID("Transaction")
		recv := accounts.AmountOf(req.ReceivingCurrencyCode, req.ReceivingCurrencyAmount)
		tx := &Transaction{ID: id, Status: TxPending, Type: TxIncoming, Direction: TxCredit, CustomerID: c.ID, ReceivedAmount: &recv,
			Source:      TxParty{SourceType: SourceUMAAddress, UmaAddress: req.SenderUmaAddress, Currency: recv.Currency.Code},
			Destination: TxParty{DestinationType: DestinationUMAAddress, UmaAddress: c.UmaAddress, Currency: recv.Currency.Code},
			CreatedAt:   t.Now, UpdatedAt: t.Now}
		dest, err := accounts.DefaultDepositAccount(t, c.ID)
		if err != nil {
			return nil, err
		}
		if dest != nil {
			tx.Destination = TxParty{DestinationType: DestinationAccount, AccountID: dest.ID, Currency: recv.Currency.Code}
		} else {
			a, err := accounts.Primary(t, c.ID, recv.Currency.Code)
			if err != nil {
				return nil, err
			}
			tx.Destination = TxParty{DestinationType: DestinationAccount, AccountID: a.ID, Currency: recv.Currency.Code}
		}
		if err := InsertTransaction(t, tx); err != nil {
			return nil, err
		}
		if err := SaveTransaction(t, tx, EventIncomingPaymentPending); err != nil {
			return nil, err
		}
		if strings.Contains(req.SenderUmaAddress, "fail.compliance") {
			tx.Status, tx.FailureReason = TxFailed, "COMPLIANCE_REJECTED"
			return tx, SaveTransaction(t, tx, EventIncomingPaymentFailed)
		}
		if strings.Contains(req.SenderUmaAddress, "pending.long") && !quotesSlot.Of(t.Handle).IncomingApproval {
			return tx, t.Put(tableIncomingDue, engine.DueKey(t.Now.Add(SandboxSlowIncoming), id), []byte(id))
		}
		if quotesSlot.Of(t.Handle).IncomingApproval {
			key := engine.DueKey(t.Now.Add(ApprovalWindow), id)
			if err := t.Put(tableApprovalsDue, key, []byte(id)); err != nil {
				return nil, err
			}
			return tx, t.Put(tableApprovals, id, []byte(key))
		}
		return tx, creditIncoming(t, tx)
	}}

// Cancel cancels an outgoing payment that has not settled yet (a
// slow payout still in flight): the sender is refunded and the transaction
// fails. Anything else is TRANSACTION_NOT_CANCELLABLE, kept with the
// settlement steps already due that the check applied; an unknown
// transaction is TRANSACTION_NOT_FOUND.
//
// Cancelling is possible only while the rail's outcome waits as due work
// (a future-dated report, as the sandbox rail makes): the waiting steps are
// deleted and the payment fails with refund reason USER_CANCELLATION, the
// hold going back to the sender. The rail itself is not told; a production
// rail that reports outcomes as they happen leaves nothing to cancel.
func (ts Transactions) Cancel(ctx context.Context, id string) (*Transaction, error) {
	return engine.Run(ctx, ts.e, cancelTransaction, id)
}

// cancelTransaction is Transactions.Cancel's operation. A refusal commits
// the settlement steps its check applied (engine.Keep).
var cancelTransaction = engine.Op[string, *Transaction, struct{}]{Area: "quotes", Name: "Transactions.Cancel",
	Decide: func(t *engine.Txn, in *string, _ *struct{}) (*Transaction, error) {
		id := *in
		tx, err := GetTransaction(t, id)
		if err != nil {
			return nil, err
		}
		// Steps whose time has come apply first: a payment due to settle
		// before now is not cancellable, whenever the worker last ran.
		waiting, err := railside.CatchUp(t, id)
		if err != nil {
			return nil, err
		}
		if tx, err = GetTransaction(t, id); err != nil {
			return nil, err
		}
		if tx.Type != TxOutgoing || tx.Status != TxProcessing || !waiting {
			return nil, engine.Keep(engine.Errorf(CodeTransactionNotCancellable, "transaction %s is %s and can no longer be cancelled", id, tx.Status))
		}
		if err := railside.Drop(t, id); err != nil {
			return nil, err
		}
		q, err := Get(t, tx.QuoteID)
		if err != nil {
			return nil, err
		}
		if err := applyStep(t, q, tx, rails.Report{Outcome: rails.Failed, FailureReason: "QUOTE_EXECUTION_FAILED", RefundReason: "USER_CANCELLATION"}); err != nil {
			return nil, err
		}
		if err := saveQuote(t, q); err != nil {
			return nil, err
		}
		return tx, nil
	}}

// Approval tables: payments waiting for the platform by id, and by deadline.
const (
	tableApprovals    = "approvals"
	tableApprovalsDue = "approvals_due"
)

// ApprovalWindow is how long an incoming payment waits for the platform's
// decision before it fails with PAYMENT_APPROVAL_TIMED_OUT.
const ApprovalWindow = 5 * time.Second

// Decision is the platform's answer to an incoming payment waiting for it.
type Decision uint8

const (
	// ApproveIncoming credits the receiver.
	ApproveIncoming Decision = iota + 1
	// RejectIncoming returns the payment to its sender.
	RejectIncoming
)

// Decide approves (crediting the receiver) or rejects an incoming
// payment waiting for the platform (Options.IncomingApproval). Anything else
// is TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL; an unknown transaction
// TRANSACTION_NOT_FOUND, a Decision other than the two INVALID_INPUT.
// A decision after the window closed applies the timeout first, so the
// payment fails as the worker would have failed it (kept), and a webhook
// answer racing the call loses or wins as a whole: the approval record is
// claimed in the deciding transaction.
func (ts Transactions) Decide(ctx context.Context, id string, d Decision) (*Transaction, error) {
	return engine.Run(ctx, ts.e, decideIncoming, platformDecision{id, d})
}

// platformDecision is the platform's decision on an incoming payment.
type platformDecision struct {
	id string
	d  Decision
}

// decideIncoming is Transactions.Decide's operation; its idempotency
// record fingerprints [id, approve], as before it was declared.
var decideIncoming = engine.Op[platformDecision, *Transaction, struct{}]{Area: "quotes", Name: "Transactions.Decide",
	Fingerprint: func(in *platformDecision) any { return []any{in.id, in.d == ApproveIncoming} },
	Validate: func(in *platformDecision) error {
		if in.d != ApproveIncoming && in.d != RejectIncoming {
			return engine.Errorf(engine.CodeInvalidInput, "unknown decision %d", in.d)
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *platformDecision, _ *struct{}) (*Transaction, error) {
		id := in.id
		tx, err := GetTransaction(t, id)
		if err != nil {
			return nil, err
		}
		deadline, err := t.Get(tableApprovals, id)
		if errors.Is(err, engine.ErrNotFound) {
			return nil, engine.Errorf(engine.CodeTransactionNotPendingPlatformApproval, "transaction %s (%s %s) is not waiting for platform approval", tx.ID, tx.Type, tx.Status)
		}
		if err != nil {
			return nil, err
		}
		if err := t.Delete(tableApprovalsDue, string(deadline)); err != nil {
			return nil, err
		}
		if !engine.DueAt(string(deadline)).After(t.Now) {
			// The window closed: the timeout stands, whenever the worker
			// last ran.
			if _, err := applyApprovalTimeout(t, string(deadline), nil); err != nil {
				return nil, err
			}
			return nil, engine.Keep(engine.Errorf(engine.CodeTransactionNotPendingPlatformApproval, "the approval window of transaction %s closed at %s", tx.ID, engine.DueAt(string(deadline)).Format(time.RFC3339)))
		}
		if err := t.Delete(tableApprovals, id); err != nil {
			return nil, err
		}
		if in.d != ApproveIncoming {
			tx.Status = TxRejected
			return tx, SaveTransaction(t, tx, EventIncomingPaymentFailed)
		}
		return tx, creditIncoming(t, tx)
	}}

// creditIncoming books an accepted incoming payment to its destination:
// from external:uma to an internal account (announcing its new balance), or
// through to the rail's external account when the receiver deposits to an
// external account; either way the transaction COMPLETES.
func creditIncoming(t *engine.Txn, tx *Transaction) error {
	dest, internal := accounts.ExternalPrefix+"rail:"+quotesSlot.Of(t.Handle).Rail.Name(), strings.HasPrefix(tx.Destination.AccountID, "InternalAccount:")
	if internal {
		dest = tx.Destination.AccountID
	}
	if err := engine.PostEntry(t, tx.ID, accounts.Transfer(ledgerUMA, dest, tx.ReceivedAmount.Currency.Code, tx.ReceivedAmount.Amount)); err != nil {
		return err
	}
	now := t.Now
	tx.Status, tx.SettledAt = TxCompleted, &now
	if err := SaveTransaction(t, tx, EventIncomingPaymentCompleted); err != nil {
		return err
	}
	if internal {
		return CreditEvent(t, dest)
	}
	return nil
}

// tableIncomingDue holds incoming sandbox payments credited later
// ("<time>|<tx id>" -> tx id).
const tableIncomingDue = "incoming_due"

// SandboxSlowIncoming is how long an incoming payment from a $pending.long
// sandbox sender stays PENDING (as long as the outgoing slow payment).
const SandboxSlowIncoming = 6 * time.Minute

// applyIncomingDue credits a delayed incoming sandbox payment.
func applyIncomingDue(t *engine.Txn, key string, _ []byte) (bool, error) {
	tx, err := GetTransaction(t, key[strings.IndexByte(key, '|')+1:])
	if err != nil {
		return false, err
	}
	if tx.Status != TxPending {
		return false, nil
	}
	return true, creditIncoming(t, tx)
}

// applyApprovalTimeout fails an incoming payment whose approval window
// passed (PAYMENT_APPROVAL_TIMED_OUT). It reads no status: a payment that
// was decided had its approvals_due entry deleted in the deciding
// transaction, so only an undecided payment reaches here.
func applyApprovalTimeout(t *engine.Txn, key string, _ []byte) (bool, error) {
	id := key[strings.IndexByte(key, '|')+1:]
	if err := t.Delete(tableApprovals, id); err != nil && !errors.Is(err, engine.ErrNotFound) {
		return false, err
	}
	tx, err := GetTransaction(t, id)
	if err != nil {
		return false, err
	}
	tx.Status, tx.FailureReason = TxFailed, "PAYMENT_APPROVAL_TIMED_OUT"
	return true, SaveTransaction(t, tx, EventIncomingPaymentFailed)
}
