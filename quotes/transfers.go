package quotes

import (
	"context"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// TransferOutRequest is the body of the deprecated POST /transfer-out: an
// amount in minor units of both accounts' currency.
type TransferOutRequest struct {
	SourceAccountID       string
	DestinationAccountID  string
	PaymentRail           PaymentRail // optional: one of the destination account's rails
	Amount                int64
	RemittanceInformation string
	PurposeOfPayment      string
}

// TransferOut sends amount from an internal account to an external account
// in the same currency (the deprecated POST /transfer-out): a quote that
// executes at once, on the same ledger and lifecycle, with its errors (a
// customer whose kycStatus or kybStatus is REJECTED or HOLD:
// SENDER_NOT_ACCEPTED). Field errors name the transfer's own fields
// (amount, not lockedCurrencyAmount). It answers the transaction, not the
// quote; the quote is marked Transfer so the rail can tell the two apart
// (rails.OutgoingPayment.Transfer).
func (ts Transactions) TransferOut(ctx context.Context, in TransferOutRequest) (*Transaction, error) {
	return engine.Run(ctx, ts.e, transferOut, in)
}

// transferOut is Transactions.TransferOut's operation: the quote
// operation (Create, with its own idempotency and transaction) carries it
// out from Prefetch, which settles the answer.
var transferOut = engine.Op[TransferOutRequest, *Transaction, *Transaction]{Area: "quotes", Name: "Transactions.TransferOut", Access: engine.Read,
	Prefetch: func(ctx context.Context, e *engine.Handle, in *TransferOutRequest, out **Transaction, _ error) error {
		tx, err := Create(ctx, e, Request{Source: Source{SourceType: SourceAccount, AccountID: in.SourceAccountID},
			Destination:        Destination{DestinationType: DestinationAccount, AccountID: in.DestinationAccountID, PaymentRail: in.PaymentRail},
			LockedCurrencySide: "SENDING", LockedCurrencyAmount: in.Amount, ImmediatelyExecute: true,
			RemittanceInformation: in.RemittanceInformation, PurposeOfPayment: in.PurposeOfPayment}, true,
			func(t *engine.Txn, q *Record) (*Transaction, error) { return GetTransaction(t, q.TransactionID) })
		if err != nil {
			return engine.RenameFields(err, map[string]string{"lockedCurrencyAmount": "amount"})
		}
		*out = tx
		return engine.Settled
	},
	Decide: func(*engine.Txn, *TransferOutRequest, **Transaction) (*Transaction, error) { return nil, nil }, // settled by Prefetch
	Answer: func(_ *engine.Handle, _ *TransferOutRequest, out **Transaction, _ *Transaction, err error) (*Transaction, error) {
		return *out, err
	}}

// TransferInRequest asks to pull Amount from a customer's external account
// into its internal account of the same currency (the deprecated POST
// /transfer-in).
type TransferInRequest struct {
	SourceAccountID      string // the external account
	DestinationAccountID string // the internal account
	Amount               int64
}

// TransferIn pulls money from a customer's external account into its
// internal account of the same currency (the deprecated POST /transfer-in),
// emitting INCOMING_PAYMENT.* events. The transaction is PENDING until the
// rail reports the pull (settleTransferIn); nothing is credited before.
// Missing ids or an amount outside 1..MaxSandboxFunding are INVALID_INPUT;
// unknown accounts ACCOUNT_NOT_FOUND; accounts of different owners or
// currencies INVALID_INPUT (destination.accountId); a customer that may not
// transact CUSTOMER_DELETED or END_USER_TERMS_NOT_ACCEPTED.
func (ts Transactions) TransferIn(ctx context.Context, in TransferInRequest) (*Transaction, error) {
	return engine.Run(ctx, ts.e, transferIn, in)
}

// transferIn is Transactions.TransferIn's operation; its idempotency
// record fingerprints [source, destination, amount], as before it was
// declared.
var transferIn = engine.Op[TransferInRequest, *Transaction, struct{}]{Area: "quotes", Name: "Transactions.TransferIn",
	Fingerprint: func(in *TransferInRequest) any { return []any{in.SourceAccountID, in.DestinationAccountID, in.Amount} },
	Validate: func(in *TransferInRequest) error {
		var fe validate.Errors
		fe.Required("source.accountId", in.SourceAccountID)
		fe.Required("destination.accountId", in.DestinationAccountID)
		if in.Amount < 1 || in.Amount > accounts.MaxSandboxFunding {
			fe.Add("amount", nil, "amount must be between 1 and %d", accounts.MaxSandboxFunding)
		}
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *TransferInRequest, _ *struct{}) (*Transaction, error) {
		return TransferIn(t, in.SourceAccountID, in.DestinationAccountID, in.Amount, "")
	}}

// settleTransferIn applies an outcome of a transfer-in pull: COMPLETED
// credits the internal account from the rail, FAILED refuses a pending
// pull, RETURNED takes a completed one back, even when the customer spent
// the money meanwhile (a late ACH return): the account then carries a
// negative balance, the customer's debt. Outcomes that do not fit the
// transaction's status change nothing.
func settleTransferIn(t *engine.Txn, tx *Transaction, rep rails.Report) error {
	rail := accounts.ExternalPrefix + "rail:" + quotesSlot.Of(t.Handle).Rail.Name()
	account, cur, amount := tx.Destination.AccountID, tx.ReceivedAmount.Currency.Code, tx.ReceivedAmount.Amount
	switch {
	case rep.Outcome == rails.Completed && tx.Status == TxPending:
		if err := engine.PostEntry(t, tx.ID, accounts.Transfer(rail, account, cur, amount)); err != nil {
			return err
		}
		now := t.Now
		tx.Status, tx.SettledAt = TxCompleted, &now
		if err := SaveTransaction(t, tx, EventIncomingPaymentCompleted); err != nil {
			return err
		}
	case rep.Outcome == rails.Returned && tx.Status == TxCompleted:
		if err := engine.PostOverdraftEntry(t, tx.ID, accounts.Transfer(account, rail, cur, amount)); err != nil {
			return err
		}
		tx.Status, tx.FailureReason = TxFailed, rep.FailureReason
		if err := SaveTransaction(t, tx, EventIncomingPaymentFailed); err != nil {
			return err
		}
	case rep.Outcome == rails.Failed && tx.Status == TxPending:
		tx.Status, tx.FailureReason = TxFailed, rep.FailureReason
		return SaveTransaction(t, tx, EventIncomingPaymentFailed)
	default:
		return nil
	}
	return CreditEvent(t, account)
}
