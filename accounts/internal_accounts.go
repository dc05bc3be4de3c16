package accounts

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
)

// Internal account tables: records by id, and the index
// "<owner>|<currency>|<id>" -> id (owner is the customer id, or "platform").
// They are exported because package wallets opens embedded wallets in
// them and quotes reads an owner's accounts by prefix; both keep the same
// key shapes as OpenInternal.
const (
	TableInternalAccounts        = "internal_accounts"
	TableInternalAccountsByOwner = "internal_accounts_by_owner"
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

// OpenInternal opens, inside t, one ACTIVE internal account per
// currency for owner (a customer id, or engine.PlatformOwner), skipping
// currencies the owner already has an account in, and returns the accounts
// it opened. A crypto currency gets an INTERNAL_CRYPTO account, any other
// INTERNAL_FIAT. Calling it again is harmless, which is why the customers
// and platform areas call it on every update that may add currencies.
// Each account gets its deposit reference (DepositReference).
func OpenInternal(t *engine.Txn, owner string, currencies []string) ([]*InternalAccount, error) {
	var opened []*InternalAccount
	for _, cur := range currencies {
		if _, err := Primary(t, owner, cur); err == nil {
			continue
		} else if engine.CodeOf(err) != engine.CodeAccountNotFound {
			return nil, err
		}
		id := t.NewID("InternalAccount")
		typ := InternalFiat
		if c, _ := money.Lookup(cur); c.Crypto {
			typ = InternalCrypto
		}
		a := &InternalAccount{ID: id, Type: typ, Status: "ACTIVE", Currency: cur, CreatedAt: t.Now, UpdatedAt: t.Now}
		if owner != engine.PlatformOwner {
			a.CustomerID = owner
		}
		if err := engine.InsertJSON(t, TableInternalAccounts, id, a); err != nil {
			return nil, err
		}
		if err := t.Insert(TableInternalAccountsByOwner, owner+"|"+cur+"|"+id, []byte(id)); err != nil {
			return nil, err
		}
		if err := t.Insert(TableDepositReferences, DepositReference(id), []byte(id)); err != nil {
			return nil, err
		}
		opened = append(opened, a)
	}
	return opened, nil
}

// Internal loads an internal account inside t: ACCOUNT_NOT_FOUND when
// absent. The account is the caller's own copy, to change and store.
func Internal(t *engine.Txn, id string) (*InternalAccount, error) {
	var a InternalAccount
	if err := engine.GetJSON(t, TableInternalAccounts, id, &a); err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "internal account", id)
	}
	return &a, nil
}

// SharedInternal is Internal for reading only: the account it returns
// comes from the accounts area's read cache and may be shared with other
// transactions, so it must not be changed. Pricing and settlement read an
// account per quote; the cache spares them a decode.
func SharedInternal(t *engine.Txn, id string) (*InternalAccount, error) {
	a, err := accountsSlot.Of(t.Handle).cache.Get(t, TableInternalAccounts, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "internal account", id)
	}
	return a, nil
}

// Primary returns owner's first internal account in currency (the oldest
// id, since ids are time-ordered): ACCOUNT_NOT_FOUND when it has none.
// OpenInternal opens one per currency; an embedded wallet that package
// wallets opens later in the same currency is therefore never the primary.
func Primary(t *engine.Txn, owner, currency string) (*InternalAccount, error) {
	var id string
	err := t.Scan(TableInternalAccountsByOwner, engine.ScanOptions{Prefix: owner + "|" + currency + "|"}, func(_ string, v []byte) (bool, error) {
		id = string(v)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, engine.Errorf(engine.CodeAccountNotFound, "%s has no internal account in %s", owner, currency)
	}
	return Internal(t, id)
}

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
