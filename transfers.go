package payments

import (
	"context"
	"encoding/json"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/validate"
)

// Puller is the optional capability of a Rail that pulls money from
// external accounts (ACH debits), used by transfer-in and by quotes funded
// by a direct pull. Its steps are applied in order: COMPLETED credits the
// account, FAILED refuses the pull, RETURNED takes a completed one back.
// Transfer-in applies a step with After > 0 that much later on the engine
// clock (ProcessDue); a quote's pull resolves when the quote executes, so
// there delays are ignored. A rail without it completes every pull.
type Puller interface {
	Pull(ctx context.Context, from *ExternalAccount, amount int64) ([]SettlementStep, error)
}

// TransferOutRequest is the body of the deprecated POST /transfer-out.
type TransferOutRequest struct {
	SourceAccountID       string
	DestinationAccountID  string
	PaymentRail           string // optional: one of the destination account's rails
	Amount                int64
	RemittanceInformation string
	PurposeOfPayment      string
}

// TransferOut sends amount from an internal account to an external account
// in the same currency (the deprecated POST /transfer-out): a quote that
// executes at once, on the same ledger and lifecycle. Field errors name the
// transfer's own fields (amount, not lockedCurrencyAmount).
func (e *Engine) TransferOut(ctx context.Context, in TransferOutRequest) (*Transaction, error) {
	tx, err := createQuote(ctx, e, QuoteRequest{Source: QuoteSource{SourceType: "ACCOUNT", AccountID: in.SourceAccountID},
		Destination:        QuoteDestination{DestinationType: "ACCOUNT", AccountID: in.DestinationAccountID, PaymentRail: in.PaymentRail},
		LockedCurrencySide: "SENDING", LockedCurrencyAmount: in.Amount, ImmediatelyExecute: true,
		RemittanceInformation: in.RemittanceInformation, PurposeOfPayment: in.PurposeOfPayment}, true,
		func(t *txn, q *quoteRecord) (*Transaction, error) { return t.transaction(q.TransactionID) })
	return tx, renameFields(err, map[string]string{"lockedCurrencyAmount": "amount"})
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
	err := once(ctx, e, []any{sourceID, destinationID, amount}, &out, func(t *txn) error {
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
		id := t.newID("Transaction")
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
		moved := false
		for n, s := range steps {
			if s.After > 0 {
				b, _ := json.Marshal(duePull{TransactionID: id, AccountID: ia.ID, Amount: amount, Step: s})
				if err := t.Put(TablePullsDue, dueKey(e.Now().Add(s.After), id)+"|"+string(rune('a'+n)), b); err != nil {
					return err
				}
				continue
			}
			m, err := t.applyPull(tx, ia.ID, amount, s)
			if err != nil {
				return err
			}
			moved = moved || m
		}
		out = tx
		if !moved {
			return nil
		}
		return t.creditEvent(ia.ID)
	})
	return out, err
}

// TablePullsDue holds the delayed steps of transfer-in pulls
// ("<time>|<tx id>|<n>" -> step), applied by ProcessDue.
const TablePullsDue = "pulls_due"

type duePull struct {
	TransactionID string         `json:"transactionId"`
	AccountID     string         `json:"accountId"`
	Amount        int64          `json:"amount"`
	Step          SettlementStep `json:"step"`
}

// applyPull applies one step of a transfer-in pull: COMPLETED credits the
// internal account from the rail, FAILED refuses a pending pull, RETURNED
// takes a completed one back. Steps that do not fit the transaction's
// status are ignored. moved reports a balance change.
func (t *txn) applyPull(tx *Transaction, accountID string, amount int64, s SettlementStep) (moved bool, err error) {
	rail := accounts.ExternalPrefix + "rail:" + t.e.rail.Name()
	switch {
	case s.Outcome == SettleCompleted && tx.Status == TxPending:
		if err := t.post(tx.ID, accounts.Transfer(rail, accountID, tx.ReceivedAmount.Currency.Code, amount)); err != nil {
			return false, err
		}
		now := t.now
		tx.Status, tx.SettledAt = TxCompleted, &now
		return true, t.saveTx(tx, "COMPLETED")
	case s.Outcome == SettleReturned && tx.Status == TxCompleted:
		if err := t.post(tx.ID, accounts.Transfer(accountID, rail, tx.ReceivedAmount.Currency.Code, amount)); err != nil {
			return false, err
		}
		tx.Status, tx.FailureReason = TxFailed, s.FailureReason
		return true, t.saveTx(tx, "FAILED")
	case s.Outcome == SettleFailed && tx.Status == TxPending:
		tx.Status, tx.FailureReason = TxFailed, s.FailureReason
		return false, t.saveTx(tx, "FAILED")
	}
	return false, nil
}

// applyPullDue applies one transfer-in step that came due.
func (t *txn) applyPullDue(_ string, v []byte) (bool, error) {
	var d duePull
	if err := json.Unmarshal(v, &d); err != nil {
		return false, err
	}
	tx, err := t.transaction(d.TransactionID)
	if err != nil {
		return false, err
	}
	moved, err := t.applyPull(tx, d.AccountID, d.Amount, d.Step)
	if err != nil || !moved {
		return true, err
	}
	return true, t.creditEvent(d.AccountID)
}
