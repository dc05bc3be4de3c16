package accounts

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Internal account tables: records by id, and the index
// "<owner>|<currency>|<id>" -> id (owner is the customer id, or "platform").
// They are exported because package wallets opens embedded wallets in
// them and quotes reads an owner's accounts by prefix; both keep the same
// key shapes as OpenInternal.
const (
	tableInternalAccounts        = "internal_accounts"
	tableInternalAccountsByOwner = "internal_accounts_by_owner"
)

// AccountType is an internal account's type (reference
// InternalAccountType).
type AccountType string

// Internal account types.
const (
	InternalFiat   AccountType = "INTERNAL_FIAT"
	InternalCrypto AccountType = "INTERNAL_CRYPTO"
	// EmbeddedWallet is the type of embedded wallets, whose holder signs
	// what leaves them (package wallets).
	EmbeddedWallet AccountType = "EMBEDDED_WALLET"
)

// InternalAccount is an account held on the platform's ledger. Its ledger
// account name is its ID: the available balance is engine.Balance(ID),
// funds held for in-flight payments engine.Balance(Held(ID)). Balances
// are not stored here but derived from the journal; InternalAccountView
// adds them for the API. An account is never deleted: its history must
// stay readable.
type InternalAccount struct {
	ID         string      `json:"id"`
	CustomerID string      `json:"customerId,omitempty"` // empty: the platform's own
	Type       AccountType `json:"type"`
	Status     string      `json:"status"`
	Currency   string      `json:"currency"`
	CreatedAt  time.Time   `json:"createdAt"`
	UpdatedAt  time.Time   `json:"updatedAt"`

	// PrivateEnabled is the privacy setting of an embedded wallet (nil on
	// other accounts).
	PrivateEnabled *bool `json:"privateEnabled,omitempty"`
}

// Owner returns the owner key of the account.
func (a *InternalAccount) Owner() string {
	if a.CustomerID == "" {
		return engine.PlatformOwner
	}
	return a.CustomerID
}

// SandboxFundingAccount is the ledger account sandbox funding draws from:
// an external account, so its balance may go negative and the ledger
// still sums to zero per currency.
const SandboxFundingAccount = ExternalPrefix + "sandbox-funding"

// balances returns the available and held balances of an internal account.
func balances(t *engine.Txn, a *InternalAccount) (available, held int64, err error) {
	if available, err = engine.Balance(t, a.ID, a.Currency); err != nil {
		return 0, 0, err
	}
	held, err = engine.Balance(t, Held(a.ID), a.Currency)
	return available, held, err
}

// Service serves internal accounts (balances the platform holds) and
// external accounts (where money goes and comes from), with beneficiary
// trust and ownership proofs. It is the facade's eng.Accounts
// (payments.Accounts), a value over the engine's handle, safe for
// concurrent use; on a handle with an idempotency key each write
// operation runs at most once per key.
type Service struct{ e *engine.Handle }

// NewService returns the Accounts group of h (payments.New binds it to
// every handle).
func NewService(h *engine.Handle) Service { return Service{h} }

// Scope says whose accounts an account operation addresses: the customers'
// (the /customers and /internal-accounts routes) or the platform's own (the
// /platform routes). An external account of the other scope is
// ACCOUNT_NOT_FOUND, and lists show one scope's accounts only.
type Scope uint8

const (
	// CustomerScope addresses the accounts of the platform's customers.
	CustomerScope Scope = iota
	// PlatformScope addresses the platform's own accounts.
	PlatformScope
)
