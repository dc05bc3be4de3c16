package quotes

import (
	"context"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// SandboxFundingDescription is the description of the INCOMING
// transaction a sandbox funding makes.
const SandboxFundingDescription = "Sandbox funding"

// Fund credits amount (minor units) to an internal account from the
// sandbox funding source, as a deposit by the account's funding
// instructions would (POST /sandbox/internal-accounts/{id}/fund): an
// INCOMING transaction, COMPLETED at once and listed with the others,
// announced as INCOMING_PAYMENT.COMPLETED, then the account's
// INTERNAL_ACCOUNT.BALANCE_UPDATED. It returns the account after the
// credit.
//
// Everything commits in one transaction through engine.Once: a retry with
// the same idempotency key credits once. FORBIDDEN outside sandbox engines,
// INVALID_INPUT naming amount outside 1..accounts.MaxSandboxFunding,
// ACCOUNT_NOT_FOUND for an unknown account. The credit is one balanced
// ledger entry from accounts.SandboxFundingAccount, referenced by the
// transaction's id.
func (s Sandbox) Fund(ctx context.Context, id string, amount int64) (_ *accounts.InternalAccountView, err error) {
	ctx, op := begin(ctx, s.e, "Sandbox.Fund")
	defer op.End(&err)
	e := s.e
	if err := e.RequireSandbox(); err != nil {
		return nil, err
	}
	if amount < 1 || amount > accounts.MaxSandboxFunding {
		var fe validate.Errors
		fe.Add("amount", nil, "amount must be between 1 and %d", accounts.MaxSandboxFunding)
		return nil, engine.Invalid(fe)
	}
	var out *accounts.InternalAccountView
	err = engine.Once(ctx, e, []any{id, amount}, &out, func(t *engine.Txn) error {
		a, err := accounts.Internal(t, id)
		if err != nil {
			return err
		}
		if _, err := fundTx(t, a, amount); err != nil {
			return err
		}
		if out, err = accounts.View(t, a); err != nil {
			return err
		}
		return t.Emit(accounts.EventInternalAccountBalanceUpdated, out)
	})
	return out, err
}

// fundTx books a sandbox funding of amount to a inside the caller's
// transaction: the ledger entry and the COMPLETED INCOMING transaction
// with its INCOMING_PAYMENT.COMPLETED (not the balance event, which the
// caller emits once its account view is final). It checks nothing about
// amount.
func fundTx(t *engine.Txn, a *accounts.InternalAccount, amount int64) (*Transaction, error) {
	id := t.NewID("Transaction")
	if err := engine.PostEntry(t, id, accounts.Transfer(accounts.SandboxFundingAccount, a.ID, a.Currency, amount)); err != nil {
		return nil, err
	}
	now := t.Now
	recv := accounts.AmountOf(a.Currency, amount)
	tx := &Transaction{ID: id, Status: TxCompleted, Type: TxIncoming, Direction: TxCredit, CustomerID: a.CustomerID, ReceivedAmount: &recv,
		Source:      TxParty{SourceType: SourceRealtimeFunding, Currency: a.Currency, CustomerID: a.CustomerID},
		Destination: TxParty{DestinationType: DestinationAccount, AccountID: a.ID, Currency: a.Currency},
		Description: SandboxFundingDescription, SettledAt: &now, CreatedAt: now, UpdatedAt: now}
	if err := InsertTransaction(t, tx); err != nil {
		return nil, err
	}
	return tx, SaveTransaction(t, tx, EventIncomingPaymentCompleted)
}
