package accounts

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/rails"
)

// The functions other areas call inside their own transactions
// (ARCHITECTURE.md: cross-area calls take the kernel's transaction). Each
// reads or writes this area's records the way its own operations do.

// External loads an external account inside t: ACCOUNT_NOT_FOUND when
// absent. It does not check the owner's side; callers that serve one Scope
// compare CustomerID themselves.
func External(t *engine.Txn, id string) (*rails.ExternalAccount, error) {
	r, err := ExternalRecordOf(t, id)
	if err != nil {
		return nil, err
	}
	return &r.ExternalAccount, nil
}

// ExternalRecordOf loads an external account as stored inside t:
// ACCOUNT_NOT_FOUND when absent. A caller that changes it writes it back
// in the same transaction.
func ExternalRecordOf(t *engine.Txn, id string) (*ExternalRecord, error) {
	var r ExternalRecord
	if err := engine.GetJSON(t, tableExternalAccounts, id, &r); err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return &r, nil
}

// SharedExternal is ExternalRecordOf for reading only: the record it
// returns comes from the accounts area's read cache and may be shared with
// other transactions, so it must not be changed (quotes read a payout's
// destination through it).
func SharedExternal(t *engine.Txn, id string) (*ExternalRecord, error) {
	r, err := accountsSlot.Of(t.Handle).externals.Get(t, tableExternalAccounts, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "external account", id)
	}
	return r, nil
}

// UsableDestination reports whether amount (minor units of a.Currency) may be
// sent to a now: INVALID_BANK_ACCOUNT for inactive accounts,
// EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED for wallets whose ownership is
// unproven above OwnershipThreshold major units (or that failed it),
// BANK_ACCOUNT_VALIDATION_PENDING during micro-entry validation (with
// validationEndsAt in the details). Deadlines are judged on t's clock.
// The quotes area asks it when it creates a quote to an external account.
func UsableDestination(t *engine.Txn, r *ExternalRecord, amount int64) error {
	a := &r.ExternalAccount
	switch a.Status {
	case rails.ExternalInactive:
		return engine.Errorf(engine.CodeInvalidBankAccount, "external account %s is inactive", a.ID)
	case rails.ExternalUnverified:
		return engine.Errorf(engine.CodeExternalAccountVerificationReq, "external account %s failed ownership verification; start a new challenge", a.ID)
	case rails.ExternalPendingOwnershipVerification:
		if amount > majorUnits(a.Currency, OwnershipThreshold) {
			return engine.Errorf(engine.CodeExternalAccountVerificationReq, "verify the ownership of wallet %s before sending more than %d %s", a.ID, OwnershipThreshold, a.Currency)
		}
	}
	if t.Now.Before(r.ValidationEndsAt) {
		return &engine.Error{Code: engine.CodeBankAccountValidationPending, Message: "the account is still being validated by micro-entry; retry after " + r.ValidationEndsAt.Format(time.RFC3339),
			Details: map[string]any{"validationEndsAt": r.ValidationEndsAt}}
	}
	return nil
}

// InsertExternal stores a as it is: for fixtures that set external
// accounts up directly (the engine's tests). It writes no owner or
// uniqueness index entry, so such an account is not listed and has no
// UniqueKey.
func InsertExternal(t *engine.Txn, a ExternalAccount) error {
	return engine.InsertJSON(t, tableExternalAccounts, a.ID, a)
}

// DefaultDepositAccount returns, inside t, the customer's default UMA
// deposit account, or nil when it has none (not an error): the quotes area
// sends a customer's incoming UMA payments there.
func DefaultDepositAccount(t *engine.Txn, customerID string) (*rails.ExternalAccount, error) {
	var found *rails.ExternalAccount
	err := t.Scan(tableExternalAccountsByOwner, engine.ScanOptions{Prefix: customerID + "|"}, func(_ string, v []byte) (bool, error) {
		a, err := External(t, string(v))
		if err != nil {
			return false, err
		}
		if a.DefaultUmaDepositAccount {
			found = a
			return false, nil
		}
		return true, nil
	})
	return found, err
}

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
		if err := engine.InsertJSON(t, tableInternalAccounts, id, a); err != nil {
			return nil, err
		}
		if err := t.Insert(tableInternalAccountsByOwner, owner+"|"+cur+"|"+id, []byte(id)); err != nil {
			return nil, err
		}
		if err := t.Insert(tableDepositReferences, DepositReference(id), []byte(id)); err != nil {
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
	if err := engine.GetJSON(t, tableInternalAccounts, id, &a); err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "internal account", id)
	}
	return &a, nil
}

// SharedInternal is Internal for reading only: the account it returns
// comes from the accounts area's read cache and may be shared with other
// transactions, so it must not be changed. Pricing and settlement read an
// account per quote; the cache spares them a decode.
func SharedInternal(t *engine.Txn, id string) (*InternalAccount, error) {
	a, err := accountsSlot.Of(t.Handle).cache.Get(t, tableInternalAccounts, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeAccountNotFound, "internal account", id)
	}
	return a, nil
}

// FirstCurrency returns, inside t, the currency of owner's first internal
// account in currency-code order (embedded wallets included), or "" when
// owner holds none. The quotes area states an invitation's promised amount
// in the inviter's.
func FirstCurrency(t *engine.Txn, owner string) (string, error) {
	cur := ""
	err := t.Scan(tableInternalAccountsByOwner, engine.ScanOptions{Prefix: owner + "|"}, func(k string, _ []byte) (bool, error) {
		cur, _, _ = strings.Cut(strings.TrimPrefix(k, owner+"|"), "|")
		return false, nil
	})
	return cur, err
}

// Primary returns owner's first internal account in currency (the oldest
// id, since ids are time-ordered): ACCOUNT_NOT_FOUND when it has none.
// OpenInternal opens one per currency; an embedded wallet that package
// wallets opens later in the same currency is therefore never the primary.
func Primary(t *engine.Txn, owner, currency string) (*InternalAccount, error) {
	var id string
	err := t.Scan(tableInternalAccountsByOwner, engine.ScanOptions{Prefix: owner + "|" + currency + "|"}, func(_ string, v []byte) (bool, error) {
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

// View builds the API view of a inside t: the account with its available
// balance (balance), available plus held (totalBalance), and its funding
// instructions.
func View(t *engine.Txn, a *InternalAccount) (*InternalAccountView, error) {
	avail, held, err := balances(t, a)
	if err != nil {
		return nil, err
	}
	return &InternalAccountView{InternalAccount: *a, Balance: AmountOf(a.Currency, avail),
		TotalBalance: AmountOf(a.Currency, avail+held), FundingPaymentInstructions: FundingInstructions(a)}, nil
}

// ViewJSON returns json.Marshal(View(t, a)), the data of
// INTERNAL_ACCOUNT.BALANCE_UPDATED, with the account's funding instructions
// (fixed per account) encoded once per account and kept in the accounts
// area's bounded cache, since a busy account's event is encoded at every
// payment.
func ViewJSON(t *engine.Txn, a *InternalAccount) ([]byte, error) {
	return AppendView(t, nil, a)
}

// AppendView appends ViewJSON(a) to b: the quotes area writes the event
// straight into the outbox record with it.
func AppendView(t *engine.Txn, b []byte, a *InternalAccount) ([]byte, error) {
	avail, held, err := balances(t, a)
	if err != nil {
		return nil, err
	}
	instructions, ok := accountsSlot.Of(t.Handle).funding.Get(a.ID)
	if !ok {
		if instructions, err = json.Marshal(FundingInstructions(a)); err != nil {
			return nil, err
		}
		accountsSlot.Of(t.Handle).funding.Put(a.ID, instructions)
	}
	b = append(slices.Grow(b, 384+len(instructions)), '{')
	b = engine.StringMember(b, "id", a.ID, false)
	b = engine.StringMember(b, "customerId", a.CustomerID, true)
	b = engine.StringMember(b, "type", string(a.Type), false)
	b = engine.StringMember(b, "status", a.Status, false)
	b = engine.StringMember(b, "currency", a.Currency, false)
	if b, err = engine.TimeMember(b, "createdAt", a.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = engine.TimeMember(b, "updatedAt", a.UpdatedAt); err != nil {
		return nil, err
	}
	if a.PrivateEnabled != nil {
		b = strconv.AppendBool(engine.Member(b, "privateEnabled"), *a.PrivateEnabled)
	}
	balance, total := AmountOf(a.Currency, avail), AmountOf(a.Currency, avail+held)
	b = AppendCurrencyAmount(engine.Member(b, "balance"), &balance)
	b = AppendCurrencyAmount(engine.Member(b, "totalBalance"), &total)
	b = append(engine.Member(b, "fundingPaymentInstructions"), instructions...)
	return append(b, '}'), nil
}

// OpenWallet stores, inside t, the embedded wallet a that the wallets area
// built (a.ID drawn, a.CustomerID its owner), with its owner-index entry
// and deposit reference, as OpenInternal stores the accounts it opens.
func OpenWallet(t *engine.Txn, a *InternalAccount) error {
	if err := engine.InsertJSON(t, tableInternalAccounts, a.ID, a); err != nil {
		return err
	}
	if err := t.Insert(tableInternalAccountsByOwner, a.CustomerID+"|"+a.Currency+"|"+a.ID, []byte(a.ID)); err != nil {
		return err
	}
	return t.Insert(tableDepositReferences, DepositReference(a.ID), []byte(a.ID))
}

// SaveInternal stores, inside t, the internal account a that the caller
// read with Internal and changed.
func SaveInternal(t *engine.Txn, a *InternalAccount) error {
	return engine.PutJSON(t, tableInternalAccounts, a.ID, a)
}
