package quotes

import (
	"context"
	"strings"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/railside"
	"github.com/paygrid/payments/rails"
)

// tableQuoteExpiry holds the pending quotes by expiry ("<time>|<quote
// id>"), applied as due work by applyQuoteExpiry.
const tableQuoteExpiry = "quote_expiry"

// Ledger accounts outside the platform that money movement uses.
const (
	ledgerFX          = accounts.ExternalPrefix + "fx"
	ledgerServiceFees = accounts.ExternalPrefix + "service-fees"
	ledgerUMA         = accounts.ExternalPrefix + "uma"
)

// holdAccount is where an executed quote's money waits: the source's held
// sub-account, or an in-flight account for real-time funding.
func holdAccount(q *Record) string {
	if q.Source.SourceType == SourceAccount && !q.SourceExternal {
		return accounts.Held(q.Source.AccountID)
	}
	return "inflight:" + q.TransactionID
}

// contended names the balances executing q draws on, which concurrent
// payments from the same account rewrite too (Op.Contended): the source
// account's and its hold's. Quotes funded otherwise have none.
func contended(q *Record) []engine.RecordKey {
	if q.Source.SourceType != SourceAccount || q.SourceExternal {
		return nil
	}
	cur := q.SendingCurrency.Code
	return []engine.RecordKey{
		{Table: engine.TableLedgerBalances, Key: engine.BalanceKey(q.Source.AccountID, cur)},
		{Table: engine.TableLedgerBalances, Key: engine.BalanceKey(holdAccount(q), cur)},
	}
}

// refundAccount is where a failed quote's money goes back to: the source
// internal account, the rail a pull came through (to the pulled account),
// or the sandbox funding account for real-time funding (the only way such
// a quote is funded today is Sandbox.Send).
func refundAccount(q *Record, rail string) string {
	switch {
	case q.SourceExternal:
		return accounts.ExternalPrefix + "rail:" + rail
	case q.Source.SourceType == SourceAccount:
		return q.Source.AccountID
	}
	return accounts.SandboxFundingAccount
}

// Execute executes a PENDING quote whose source is an account: in one
// store transaction it checks the quote has not expired (QUOTE_EXPIRED,
// which also marks it EXPIRED), moves the sending total to held
// (INSUFFICIENT_FUNDS when the balance does not cover it, nothing changed)
// or, for an external source, pulls it through the rail (quote_pull.go),
// marks quote and transaction PROCESSING and hands the payment to the rail.
// A quote executes at most once: any later call is CONFLICT. A sending
// customer whose kycStatus or kybStatus is REJECTED or HOLD by then is
// SENDER_NOT_ACCEPTED, nothing changed. An unknown quote is
// QUOTE_NOT_FOUND; a real-time funded one CONFLICT (it executes when
// funded); one paid from an embedded wallet WALLET_SIGNATURE_MISSING (use
// the wallets' signed execution). A customer in an SCA region gets an SCA
// challenge instead (the quote becomes PENDING_AUTHORIZATION), unless it
// pays a trusted beneficiary.
//
// QUOTE_EXPIRED is a kept refusal: the quote's expiry commits with it and a
// retry under the same idempotency key answers the same.
func (qs Service) Execute(ctx context.Context, id string) (*Quote, error) {
	return engine.Run(ctx, qs.e, executeQuote, execution{id: id})
}

// ExecuteWith is Quotes.Execute with the caller's SCA factor preference: a
// customer in an SCA region gets a challenge instead (quotes_sca.go).
// stamp is the wallet signature of a quote paid from an embedded wallet
// (Wallets.ExecuteQuote), checked by Options.CheckWalletSignature inside
// the transaction. It runs one whole operation on e, with e's idempotency
// key, and answers Service.Execute's codes.
func ExecuteWith(e *engine.Handle, ctx context.Context, id string, opts ExecuteOptions, stamp *string) (*Quote, error) {
	return engine.Run(ctx, e, executeQuote, execution{id: id, opts: opts, stamp: stamp})
}

// execution is what executing a quote asks: the quote, the caller's SCA
// preference and the wallet's stamp (nil: none could be sent).
type execution struct {
	id    string
	opts  ExecuteOptions
	stamp *string
}

// executing is what an execution gathers before its transaction: the
// secrets of an SCA challenge (used if the customer needs one) and the
// balances the quote draws on, when this process created it.
type executing struct {
	d   customers.SCADraw
	hot []engine.RecordKey
}

// executeQuote is Service.Execute's operation (and ExecuteWith's): its
// idempotency record fingerprints [id, opts], as before it was declared.
var executeQuote = engine.Op[execution, *Quote, executing]{Area: "quotes", Name: "Execute",
	Fingerprint: func(in *execution) any { return []any{in.id, in.opts} },
	Prefetch:    prefetchExecution,
	Contended:   func(_ *execution, f *executing) []engine.RecordKey { return f.hot },
	Decide:      decideExecution,
}

// prefetchExecution draws the challenge's secrets and looks up the
// balances the quote draws on (contendedCache), outside the transaction.
func prefetchExecution(_ context.Context, e *engine.Handle, in *execution, f *executing, _ error) error {
	f.d = drawChallenge(e)
	f.hot, _ = quotesSlot.Of(e).contended.Get(in.id)
	return nil
}

// decideExecution executes the quote in t, or challenges its customer.
// QUOTE_EXPIRED found by this execution commits the expiry with it
// (engine.Keep).
func decideExecution(t *engine.Txn, in *execution, f *executing) (*Quote, error) {
	id := in.id
	q, err := Get(t, id)
	if err != nil {
		return nil, err
	}
	if q.Source.SourceType != SourceAccount {
		return nil, engine.Errorf(engine.CodeConflict, "quote %s is funded in real time and executes when its funds arrive", id)
	}
	if q.Status == Expired { // expired by the sweep: the same answer as before it ran
		return nil, engine.Errorf(engine.CodeQuoteExpired, "quote %s expired at %s; request a new quote", id, q.ExpiresAt.Format("2006-01-02T15:04:05Z"))
	}
	if expired, err := ExpireIfDue(t, q); err != nil || expired {
		if err != nil {
			return nil, err
		}
		return nil, engine.Keep(engine.Errorf(engine.CodeQuoteExpired, "quote %s expired at %s; request a new quote", id, q.ExpiresAt.Format("2006-01-02T15:04:05Z")))
	}
	if err := quotesSlot.Of(t.Handle).CheckWalletSignature(t, q, in.stamp); err != nil {
		return nil, err
	}
	if err := executeOrChallenge(t, q, f.d, in.opts.ScaFactor); err != nil {
		return nil, err
	}
	return &q.Quote, nil
}

// saveQuote stores a quote read in this transaction, refusing a status
// change the quote state machine does not allow (Status.Check).
func saveQuote(t *engine.Txn, q *Record) error {
	if err := Status(quoteState.Of(t).statuses[q.ID]).Check(q.Status); err != nil {
		return err
	}
	readStatus(t, q.ID, string(q.Status))
	b, err := q.MarshalJSON()
	if err != nil {
		return err
	}
	held, err := quoteState.Of(t).drafts.store(t, tableQuotes, q.ID, q, b)
	if err == nil && !held {
		rememberQuote(t, q, b, false)
	}
	return err
}

// rememberQuote notes that q was stored as b, for a later operation that
// reads it (settling a payment after the request that executed it). Quotes
// with challenges or instructions, whose maps clone does not copy, are
// decoded as usual. An owned q (a copy no one else holds) is kept as it
// is, any other cloned.
func rememberQuote(t *engine.Txn, q *Record, b []byte, owned bool) {
	if !q.Cloneable() {
		return
	}
	if !owned {
		q = q.Clone()
	}
	quotesSlot.Of(t.Handle).quotes.Remember(q.ID, b, q)
}

// scaNotCompleted is the failureReason of a payment whose SCA challenge
// lapsed unsatisfied.
const scaNotCompleted = "SCA_NOT_COMPLETED"

// dropExpiry removes the expiry entry of q, which leaves PENDING. The quote
// this operation creates has none yet: Create writes it only for a quote
// still waiting once execution is done.
func dropExpiry(t *engine.Txn, q *Record) {
	if d := quoteState.Of(t).drafts.quote; d != nil && d.ID == q.ID {
		quoteState.Of(t).expiryDropped = true
		return
	}
	_ = t.Delete(tableQuoteExpiry, engine.DueKey(q.ExpiresAt, q.ID))
}

// startDelivery marks a funded quote PROCESSING and delivers it: a payment
// to an internal account completes here; any other is handed to the rail
// after commit (an intent), which reports how it settles (Rails.Report).
func startDelivery(t *engine.Txn, q *Record) error {
	dropExpiry(t, q)
	q.Status = Processing
	tx, err := GetTransaction(t, q.TransactionID)
	if err != nil {
		return err
	}
	pending := EventOutgoingPaymentPending
	if q.PendingSent {
		pending = "" // already announced (SCA, direct pull)
	}
	if err := announceTx(t, tx, pending); err != nil {
		return err
	}
	tx.Status = TxProcessing
	if q.DestinationInternal {
		// It completes at once: PROCESSING is announced, COMPLETED stored.
		if err := announceTx(t, tx, EventOutgoingPaymentProcessing); err != nil {
			return err
		}
		if err := applyStep(t, q, tx, rails.Report{Outcome: rails.Completed}); err != nil {
			return err
		}
		return saveQuote(t, q)
	}
	if err := SaveTransaction(t, tx, EventOutgoingPaymentProcessing); err != nil {
		return err
	}
	p := rails.OutgoingPayment{TransactionID: tx.ID, Currency: q.ReceivingCurrency.Code, Amount: q.TotalReceivingAmount, Rail: q.Rail, UmaAddress: q.Destination.UmaAddress, Transfer: q.Transfer}
	if q.Destination.DestinationType == DestinationAccount {
		// Shared: the intent only encodes it (the rail gets a copy decoded
		// from the stored intent).
		r, err := accounts.SharedExternal(t, q.Destination.AccountID)
		if err != nil {
			return err
		}
		p.Destination = &r.ExternalAccount
	}
	if err := saveQuote(t, q); err != nil {
		return err
	}
	return railside.SendPayment(t, p)
}

// destinationLedger is the ledger account a payout lands in.
func destinationLedger(t *engine.Txn, q *Record) (string, error) {
	switch {
	case q.DestinationInternal && q.Destination.DestinationType == DestinationUMAAddress:
		a, err := accounts.Primary(t, q.ReceiverCustomerID, q.ReceivingCurrency.Code)
		if err != nil {
			return "", err
		}
		return a.ID, nil
	case q.DestinationInternal:
		return q.Destination.AccountID, nil
	case q.Destination.DestinationType == DestinationUMAAddress:
		return ledgerUMA, nil
	}
	return accounts.ExternalPrefix + "rail:" + quotesSlot.Of(t.Handle).Rail.Name(), nil
}

// applyStep applies one outcome of its payout to an executed quote.
// Outcomes that do not fit the transaction's status change nothing.
//
// COMPLETED posts the completion legs (Settlement.CompletionLegs) from the
// hold; FAILED (before completion) refunds the hold; RETURNED (after
// completion) undoes the completion (failAndRefund). The hold thus always
// ends at zero for the transaction, unless the refund itself fails.
func applyStep(t *engine.Txn, q *Record, tx *Transaction, s rails.Report) error {
	switch s.Outcome {
	case rails.Completed:
		if tx.Status != TxProcessing {
			return nil
		}
		st, err := settlement(t, q)
		if err != nil {
			return err
		}
		dest := st.Destination
		if err := engine.PostEntry(t, tx.ID, st.CompletionLegs()...); err != nil {
			return err
		}
		now := t.Now
		q.Status, tx.Status, tx.SettledAt = Completed, TxCompleted, &now
		if err := SaveTransaction(t, tx, EventOutgoingPaymentCompleted); err != nil {
			return err
		}
		if q.DestinationInternal {
			return CreditEvent(t, dest)
		}
		return nil
	case rails.Failed, rails.Returned:
		if s.Outcome == rails.Returned {
			if tx.Status != TxCompleted {
				return nil
			}
		} else if tx.Status != TxProcessing {
			return nil
		}
		return failAndRefund(t, q, tx, s, q.TotalSendingAmount)
	}
	return nil
}

// failAndRefund fails an executed quote's transaction with s's reason and
// refunds amount from hold to the sender (or, for a bank return, undoes
// the completion's legs), unless s says the refund fails: then the money
// stays held, not spendable: the sender's money is neither lost nor
// returned until an operator resolves it. Events: FAILED, REFUND_PENDING,
// then REFUND_COMPLETED or REFUND_FAILED.
func failAndRefund(t *engine.Txn, q *Record, tx *Transaction, s rails.Report, amount int64) error {
	q.Status, tx.Status, tx.FailureReason = Failed, TxFailed, s.FailureReason
	if err := SaveTransaction(t, tx, EventOutgoingPaymentFailed); err != nil {
		return err
	}
	tx.Refund = &Refund{Reference: "Refund:" + strings.TrimPrefix(tx.ID, "Transaction:"), InitiatedAt: t.Now, Status: RefundPending, Reason: s.RefundReason}
	if err := SaveTransaction(t, tx, EventOutgoingPaymentRefundPending); err != nil {
		return err
	}
	if s.RefundFails {
		tx.Refund.Status = RefundFailed
		return SaveTransaction(t, tx, EventOutgoingPaymentRefundFailed)
	}
	to := refundAccount(q, quotesSlot.Of(t.Handle).Rail.Name())
	feeBack := ""
	if s.Outcome == rails.Returned {
		legs, fb, err := returnLegs(t, q, to)
		if err != nil {
			return err
		}
		if err := engine.PostOverdraftEntry(t, tx.ID, legs...); err != nil {
			return err
		}
		feeBack = fb
	} else if err := engine.PostEntry(t, tx.ID, accounts.Transfer(holdAccount(q), to, q.SendingCurrency.Code, amount)); err != nil {
		return err
	}
	now := t.Now
	tx.Refund.Status, tx.Refund.SettledAt = RefundCompleted, &now
	if err := SaveTransaction(t, tx, EventOutgoingPaymentRefundCompleted); err != nil {
		return err
	}
	if feeBack != "" {
		if err := CreditEvent(t, feeBack); err != nil {
			return err
		}
	}
	if q.Source.SourceType == SourceAccount && !q.SourceExternal {
		return CreditEvent(t, q.Source.AccountID)
	}
	return nil
}

// settlement is q's executed payment as the ledger sees it
// (Settlement): its hold, destination and fee accounts.
func settlement(t *engine.Txn, q *Record) (Settlement, error) {
	dest, err := destinationLedger(t, q)
	if err != nil {
		return Settlement{}, err
	}
	s := Settlement{Hold: holdAccount(q), Destination: dest, ServiceFees: ledgerServiceFees, FX: ledgerFX,
		SendingCurrency: q.SendingCurrency.Code, ReceivingCurrency: q.ReceivingCurrency.Code,
		Total: q.TotalSendingAmount, FeesIncluded: q.FeesIncluded, PlatformFee: q.PlatformFeesIncluded,
		ServiceFee: q.ServiceFees, Received: q.TotalReceivingAmount}
	if s.PlatformFee > 0 {
		pa, err := accounts.Primary(t, engine.PlatformOwner, s.SendingCurrency)
		if err != nil {
			return Settlement{}, err
		}
		s.PlatformFees = pa.ID
	}
	return s, nil
}

// returnLegs refunds a payout that completed and then came back (bank
// return) to the sender's account to, undoing each leg of its completion
// (Settlement.ReturnLegs). A platform that already spent its fee is
// left with the shortfall as a negative balance (the legs are posted as an
// overdraft), never the refund. feeBack names the platform account when its
// fee was taken back.
func returnLegs(t *engine.Txn, q *Record, to string) (legs [][]engine.Posting, feeBack string, err error) {
	s, err := settlement(t, q)
	if err != nil {
		return nil, "", err
	}
	return s.ReturnLegs(to), s.PlatformFees, nil
}

// settle applies an outcome that has taken effect to its payment
// (railside.Options.Settle): a collected or failed pull, or a step of a
// payout.
func settle(t *engine.Txn, rep rails.Report) error {
	kind, txID := railside.SplitPaymentID(rep.PaymentID)
	tx, err := GetTransaction(t, txID)
	if err != nil {
		return err
	}
	if kind == railside.IntentPull && tx.Type == TxIncoming {
		return settleTransferIn(t, tx, rep)
	}
	q, err := Get(t, tx.QuoteID)
	if err != nil {
		return err
	}
	if kind == railside.IntentPull {
		err = settlePull(t, q, tx, rep)
	} else {
		err = applyStep(t, q, tx, rep)
	}
	if err != nil {
		return err
	}
	return saveQuote(t, q)
}

// applyQuoteExpiry ends a quote whose time ran out unexecuted. A quote that
// left PENDING meanwhile has nothing to expire (ExpireIfDue reports false).
func applyQuoteExpiry(t *engine.Txn, key string, _ []byte) (bool, error) {
	q, err := Get(t, key[strings.IndexByte(key, '|')+1:])
	if err != nil {
		return false, err
	}
	if (q.Status == Pending || q.Status == PendingAuthorization) && !q.Lapsed(t.Now) {
		// Due this very millisecond: it expires on the next pass.
		return false, t.Put(tableQuoteExpiry, key, []byte(q.ID))
	}
	return ExpireIfDue(t, q)
}
