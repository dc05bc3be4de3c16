package payments

import (
	"context"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/validate"
)

// Puller is the optional capability of a Rail that pulls money from
// external accounts (ACH debits), used by transfer-in. Its steps are
// applied at once, in order: COMPLETED credits the account, FAILED refuses
// the pull, RETURNED takes a completed one back. A rail without it
// completes every pull.
type Puller interface {
	Pull(ctx context.Context, from *ExternalAccount, amount int64) ([]SettlementStep, error)
}

// TransferOut sends amount from an internal account to an external account
// in the same currency (the deprecated POST /transfer-out): a quote that
// executes at once, on the same ledger and lifecycle.
func (e *Engine) TransferOut(ctx context.Context, sourceID, destinationID string, amount int64, remittance, purpose string) (*Transaction, error) {
	q, err := e.createQuote(ctx, QuoteRequest{Source: QuoteSource{SourceType: "ACCOUNT", AccountID: sourceID},
		Destination: QuoteDestination{DestinationType: "ACCOUNT", AccountID: destinationID}, LockedCurrencySide: "SENDING",
		LockedCurrencyAmount: amount, ImmediatelyExecute: true, RemittanceInformation: remittance, PurposeOfPayment: purpose}, true)
	if err != nil {
		return nil, err
	}
	return e.Transaction(ctx, q.TransactionID)
}

// TransferIn pulls amount from a customer's external account into its
// internal account of the same currency (the deprecated POST /transfer-in),
// emitting INCOMING_PAYMENT.* events.
func (e *Engine) TransferIn(ctx context.Context, sourceID, destinationID string, amount int64) (*Transaction, error) {
	var fe validate.Errors
	fe.Required("source.accountId", sourceID)
	fe.Required("destination.accountId", destinationID)
	if amount < 1 || amount > MaxSandboxFunding {
		fe.Add("amount", nil, "amount must be between 1 and %d", MaxSandboxFunding)
	}
	if err := Invalid(fe.Err()); err != nil {
		return nil, err
	}
	var out *Transaction
	err := e.update(ctx, func(t *txn) error {
		ext, err := t.externalAccount(sourceID)
		if err != nil {
			return err
		}
		ia, err := t.internalAccount(destinationID)
		if err != nil {
			return err
		}
		if ext.CustomerID != ia.CustomerID || ext.Currency != ia.Currency {
			fe.Add("destination.accountId", nil, "the internal account must belong to the external account's owner and hold %s", ext.Currency)
			return Invalid(fe)
		}
		if ia.CustomerID != "" {
			if _, err := t.transactingCustomer(ia.CustomerID); err != nil {
				return err
			}
		}
		id, err := e.newID("Transaction")
		if err != nil {
			return err
		}
		recv := amountOf(ia.Currency, amount)
		tx := &Transaction{ID: id, Status: TxPending, Type: "INCOMING", Direction: "CREDIT", CustomerID: ia.CustomerID, ReceivedAmount: &recv,
			Source:      TxParty{SourceType: "ACCOUNT", AccountID: ext.ID, Currency: ia.Currency},
			Destination: TxParty{DestinationType: "ACCOUNT", AccountID: ia.ID, Currency: ia.Currency}, CreatedAt: e.Now(), UpdatedAt: e.Now()}
		if err := t.insertTransaction(tx); err != nil {
			return err
		}
		if err := t.saveTx(tx, "PENDING"); err != nil {
			return err
		}
		steps := []SettlementStep{{Outcome: SettleCompleted}}
		if p, ok := e.rail.(Puller); ok {
			if steps, err = p.Pull(ctx, ext, amount); err != nil {
				return err
			}
		}
		rail := accounts.ExternalPrefix + "rail:" + e.rail.Name()
		for _, s := range steps {
			switch {
			case s.Outcome == SettleCompleted && tx.Status == TxPending:
				if err := t.post(id, accounts.Transfer(rail, ia.ID, ia.Currency, amount)); err != nil {
					return err
				}
				now := e.Now()
				tx.Status, tx.SettledAt = TxCompleted, &now
				if err := t.saveTx(tx, "COMPLETED"); err != nil {
					return err
				}
			case s.Outcome == SettleReturned && tx.Status == TxCompleted:
				if err := t.post(id, accounts.Transfer(ia.ID, rail, ia.Currency, amount)); err != nil {
					return err
				}
				tx.Status, tx.FailureReason = TxFailed, s.FailureReason
				if err := t.saveTx(tx, "FAILED"); err != nil {
					return err
				}
			case s.Outcome == SettleFailed && tx.Status == TxPending:
				tx.Status, tx.FailureReason = TxFailed, s.FailureReason
				if err := t.saveTx(tx, "FAILED"); err != nil {
					return err
				}
			}
		}
		out = tx
		return t.creditEvent(ia.ID)
	})
	return out, err
}
