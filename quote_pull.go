package payments

import (
	"context"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/validate"
)

// Quotes funded by a direct pull (spec 4.4: a quote's source may be an
// external account that "supports direct pull", such as an ACH debit of a
// US bank account).
//
// Ledger design: executing such a quote asks the rail's Puller to collect
// the total sending amount, and in the same store transaction that marks
// the quote executed posts external:rail:<name> -> inflight:<transaction>.
// From there settlement is the same as for any executed quote (fees to the
// platform's fee account, the net amount to the destination through the FX
// accounts). A pull the bank refuses moves no money; one that is collected
// and then returned (sandbox suffix 009) is posted both ways, so the ledger
// shows it and nets to zero. Either way the transaction FAILS before
// delivery with no refund, because nothing of the customer's was kept. A
// later failure of the payout refunds the pulled money back to the rail,
// the account it came from.

// PullableAccountTypes are the external account types a quote may pull its
// funds from: US bank accounts, by ACH debit.
var PullableAccountTypes = []string{"USD_ACCOUNT"}

// pullSource loads the external account a quote wants to pull from.
// Accounts of other types are INVALID_INPUT (source.accountId); an inactive
// account INVALID_BANK_ACCOUNT; one still in micro-entry validation
// BANK_ACCOUNT_VALIDATION_PENDING.
func (t *txn) pullSource(id string) (*ExternalAccount, error) {
	r, err := t.externalRecord(id)
	if err != nil {
		return nil, err
	}
	a := &r.ExternalAccount
	if !contains(PullableAccountTypes, a.AccountType()) {
		var fe validate.Errors
		fe.Add("source.accountId", nil, "external account %s (%s) does not support direct pull; fund the quote with REALTIME_FUNDING", id, a.AccountType())
		return nil, Invalid(fe)
	}
	if a.Status == ExternalInactive {
		return nil, Errorf(CodeInvalidBankAccount, "external account %s is inactive", id)
	}
	if t.now.Before(r.ValidationEndsAt) {
		return nil, &Error{Code: CodeBankAccountValidationPending, Message: "the account is still being validated by micro-entry; retry after " + r.ValidationEndsAt.Format(time.RFC3339),
			Details: map[string]any{"validationEndsAt": r.ValidationEndsAt}}
	}
	return a, nil
}

// executePull collects a pull-funded quote's money and starts delivery,
// or fails the quote when the pull does not end collected.
func (e *Engine) executePull(ctx context.Context, t *txn, q *quoteRecord) error {
	src, err := t.pullSource(q.Source.AccountID)
	if err != nil {
		return err
	}
	steps := []SettlementStep{{Outcome: SettleCompleted}}
	if p, ok := e.rail.(Puller); ok {
		if steps, err = p.Pull(ctx, src, q.TotalSendingAmount); err != nil {
			return err
		}
	}
	rail, hold, cur := accounts.ExternalPrefix+"rail:"+e.rail.Name(), q.holdAccount(), q.SendingCurrency.Code
	collected, reason := false, ""
	for _, s := range steps {
		switch {
		case s.Outcome == SettleCompleted && !collected:
			if err := t.post(q.TransactionID, accounts.Transfer(rail, hold, cur, q.TotalSendingAmount)); err != nil {
				return err
			}
			collected = true
		case s.Outcome == SettleReturned && collected:
			if err := t.post(q.TransactionID, accounts.Transfer(hold, rail, cur, q.TotalSendingAmount)); err != nil {
				return err
			}
			collected, reason = false, s.FailureReason
		case s.Outcome == SettleFailed && !collected:
			reason = s.FailureReason
		}
	}
	if collected {
		return e.startDelivery(ctx, t, q)
	}
	return t.failUncollected(q, reason)
}

// failUncollected marks a quote whose funds never arrived FAILED, with its
// transaction (OUTGOING_PAYMENT.PENDING then .FAILED).
func (t *txn) failUncollected(q *quoteRecord, reason string) error {
	_ = t.Delete(TableQuoteExpiry, dueKey(q.ExpiresAt, q.ID))
	q.Status = QuoteFailed
	tx, err := t.transaction(q.TransactionID)
	if err != nil {
		return err
	}
	if err := t.saveTx(tx, "PENDING"); err != nil {
		return err
	}
	tx.Status, tx.FailureReason = TxFailed, outgoingFailureReason(reason)
	if err := t.saveTx(tx, "FAILED"); err != nil {
		return err
	}
	return putJSON(t, TableQuotes, q.ID, q)
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
	if contains(outgoingFailureReasons, reason) {
		return reason
	}
	return "QUOTE_EXECUTION_FAILED"
}
