package quotes

import (
	"slices"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/railside"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// Quotes funded by a direct pull (a quote's source may be an
// external account that "supports direct pull", such as an ACH debit of a
// US bank account).
//
// Ledger design: executing such a quote records a pull intent and leaves
// the quote PROCESSING with its transaction PENDING; after commit the
// engine asks the rail's Puller to collect the total sending amount. When
// the rail reports it collected, external:rail:<name> -> inflight:<transaction>
// is posted and delivery starts as for any executed quote (fees to the
// platform's fee account, the net amount to the destination through the FX
// accounts). A pull the bank refuses moves no money and fails the payment,
// with no refund, because nothing of the customer's was kept. One collected
// and then returned before its payout was handed to the rail (sandbox
// suffix 009) is posted both ways and fails the payment the same way. One
// returned after the payout left is a debt of the customer: the amount is
// booked on external:receivable:<customer>. A later failure of the payout
// refunds the pulled money back to the rail, the account it came from.

// PullableAccountTypes are the external account types a quote may pull its
// funds from: US bank accounts, by ACH debit. A quote whose source is an
// external account of another type is INVALID_INPUT (source.accountId).
var PullableAccountTypes = []string{"USD_ACCOUNT"}

// pullSource loads the external account a quote wants to pull from.
// Accounts of other types are INVALID_INPUT (source.accountId); an inactive
// account INVALID_BANK_ACCOUNT; one still in micro-entry validation
// BANK_ACCOUNT_VALIDATION_PENDING.
func pullSource(t *engine.Txn, id string) (*rails.ExternalAccount, error) {
	r, err := accounts.ExternalRecordOf(t, id)
	if err != nil {
		return nil, err
	}
	a := &r.ExternalAccount
	if !slices.Contains(PullableAccountTypes, a.AccountType()) {
		var fe validate.Errors
		fe.Add("source.accountId", nil, "external account %s (%s) does not support direct pull; fund the quote with REALTIME_FUNDING", id, a.AccountType())
		return nil, engine.Invalid(fe)
	}
	if a.Status == rails.ExternalInactive {
		return nil, engine.Errorf(engine.CodeInvalidBankAccount, "external account %s is inactive", id)
	}
	if t.Now.Before(r.ValidationEndsAt) {
		return nil, &engine.Error{Code: engine.CodeBankAccountValidationPending, Message: "the account is still being validated by micro-entry; retry after " + r.ValidationEndsAt.Format(time.RFC3339),
			Details: map[string]any{"validationEndsAt": r.ValidationEndsAt}}
	}
	return a, nil
}

// executePull asks the rail to collect a pull-funded quote's money: the
// quote is PROCESSING and its transaction PENDING until the rail reports.
// Nothing is posted yet: no money of the platform's moves before the rail
// confirms the collection (settlePull). The source account is checked again
// here, in the executing transaction, since it may have been deactivated
// since pricing.
func executePull(t *engine.Txn, q *Record) error {
	src, err := pullSource(t, q.Source.AccountID)
	if err != nil {
		return err
	}
	dropExpiry(t, q)
	q.Status = Processing
	tx, err := GetTransaction(t, q.TransactionID)
	if err != nil {
		return err
	}
	if !q.PendingSent {
		if err := SaveTransaction(t, tx, EventOutgoingPaymentPending); err != nil {
			return err
		}
		q.PendingSent = true
	}
	if err := railside.IntendPull(t, rails.PullRequest{TransactionID: q.TransactionID, From: src, Currency: q.SendingCurrency.Code, Amount: q.TotalSendingAmount}); err != nil {
		return err
	}
	return saveQuote(t, q)
}

// settlePull applies an outcome of a quote's pull:
//
//   - COMPLETED, first time: the pulled total arrives on the quote's
//     inflight account from the rail and delivery starts (startDelivery);
//   - FAILED before collection: the payment fails; nothing was posted, so
//     nothing is refunded;
//   - RETURNED after collection: if the payout is still waiting to be handed
//     to the rail, its intent is withdrawn, the money goes back to the rail
//     and the payment fails; if the payout already left, the payment
//     stands and the customer owes the pulled total
//     (external:receivable:<customer>).
//
// Any other outcome, or one that does not fit the quote's state (a report
// repeated under another reference), changes nothing.
func settlePull(t *engine.Txn, q *Record, tx *Transaction, rep rails.Report) error {
	rail, hold, cur := accounts.ExternalPrefix+"rail:"+quotesSlot.Of(t.Handle).Rail.Name(), holdAccount(q), q.SendingCurrency.Code
	switch {
	case rep.Outcome == rails.Completed && !q.Collected && q.Status == Processing && tx.Status == TxPending:
		if err := engine.PostEntry(t, tx.ID, accounts.Transfer(rail, hold, cur, q.TotalSendingAmount)); err != nil {
			return err
		}
		q.Collected = true
		return startDelivery(t, q)
	case rep.Outcome == rails.Failed && !q.Collected && q.Status == Processing:
		return failUncollected(t, q, tx, rep.FailureReason)
	case rep.Outcome == rails.Returned && q.Collected && tx.Status != TxFailed: // a failed payout already refunded the rail
		q.Collected = false
		withdrawn, err := railside.WithdrawSend(t, tx.ID)
		if err != nil {
			return err
		}
		if !withdrawn || tx.Status != TxProcessing { // the payout left: the customer owes it
			return engine.PostEntry(t, tx.ID, accounts.Transfer(accounts.ExternalPrefix+"receivable:"+q.CustomerID, rail, cur, q.TotalSendingAmount))
		}
		if err := engine.PostEntry(t, tx.ID, accounts.Transfer(hold, rail, cur, q.TotalSendingAmount)); err != nil {
			return err
		}
		return failUncollected(t, q, tx, rep.FailureReason)
	}
	return nil
}

// failUncollected marks a quote whose funds never arrived (or went back
// before delivery) FAILED, with its transaction. It emits
// OUTGOING_PAYMENT.PENDING first when it was never sent, so a platform
// always sees a payment's PENDING before its FAILED.
func failUncollected(t *engine.Txn, q *Record, tx *Transaction, reason string) error {
	dropExpiry(t, q)
	q.Status = Failed
	if !q.PendingSent {
		if err := SaveTransaction(t, tx, EventOutgoingPaymentPending); err != nil {
			return err
		}
		q.PendingSent = true
	}
	tx.Status, tx.FailureReason = TxFailed, outgoingFailureReason(reason)
	if err := SaveTransaction(t, tx, EventOutgoingPaymentFailed); err != nil {
		return err
	}
	return saveQuote(t, q)
}

// outgoingFailureReasons are the reference's OutgoingTransactionFailureReason
// values.
var outgoingFailureReasons = []string{"QUOTE_EXPIRED", "QUOTE_RATE_UNAVAILABLE", "QUOTE_EXECUTION_FAILED", "FUNDING_AMOUNT_MISMATCH",
	"SCA_NOT_COMPLETED", "PAYOUT_RETURNED", "LIMIT_EXCEEDED", "ACCOUNT_CANNOT_RECEIVE", "ACCOUNT_INVALID", "COMPLIANCE_REJECTED",
	"LIGHTNING_PAYMENT_FAILED", "COUNTERPARTY_POST_TX_FAILED"}

// outgoingFailureReason keeps a rail's reason when an outgoing transaction
// may carry it; others (such as a pull's COLLECTION_FAILED) become
// QUOTE_EXECUTION_FAILED.
func outgoingFailureReason(reason string) string {
	if slices.Contains(outgoingFailureReasons, reason) {
		return reason
	}
	return "QUOTE_EXECUTION_FAILED"
}
