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
// Everything commits in one transaction: a retry with
// the same idempotency key credits once. FORBIDDEN outside sandbox engines,
// INVALID_INPUT naming amount outside 1..accounts.MaxSandboxFunding,
// ACCOUNT_NOT_FOUND for an unknown account. The credit is one balanced
// ledger entry from accounts.SandboxFundingAccount, referenced by the
// transaction's id.
func (s Sandbox) Fund(ctx context.Context, id string, amount int64) (*accounts.InternalAccountView, error) {
	return engine.Run(ctx, s.e, fund, funding{id, amount})
}

// funding is a sandbox funding: the internal account and the amount.
type funding struct {
	id     string
	amount int64
}

// fund is Sandbox.Fund's operation; its idempotency record fingerprints
// [id, amount], as before it was declared.
var fund = engine.Op[funding, *accounts.InternalAccountView, struct{}]{Area: "quotes", Name: "Sandbox.Fund",
	Fingerprint: func(in *funding) any { return []any{in.id, in.amount} },
	Guard:       (*engine.Handle).RequireSandbox,
	Validate: func(in *funding) error {
		if in.amount < 1 || in.amount > accounts.MaxSandboxFunding {
			var fe validate.Errors
			fe.Add("amount", nil, "amount must be between 1 and %d", accounts.MaxSandboxFunding)
			return engine.Invalid(fe)
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *funding, _ *struct{}) (*accounts.InternalAccountView, error) {
		a, err := accounts.Internal(t, in.id)
		if err != nil {
			return nil, err
		}
		if _, err := fundTx(t, a, in.amount); err != nil {
			return nil, err
		}
		out, err := accounts.View(t, a)
		if err != nil {
			return nil, err
		}
		return out, t.Emit(accounts.EventInternalAccountBalanceUpdated, out)
	}}

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
