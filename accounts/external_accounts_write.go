package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"strings"

	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
)

// ExternalAccountInput creates an external account. CustomerID is required
// on the customer routes and must be empty on the platform routes.
type ExternalAccountInput struct {
	CustomerID string `json:"customerId,omitempty"`
	// Currency is the currency the account holds; a bank accountType fixes
	// it (Variants), a wallet takes any.
	Currency          string `json:"currency"`
	PlatformAccountID string `json:"platformAccountId,omitempty"`
	// OwnershipType is FIRST_PARTY (the customer's own account) or
	// THIRD_PARTY; a first-party self-custody wallet must prove ownership.
	OwnershipType string `json:"ownershipType,omitempty"`
	// DefaultUmaDepositAccount makes the account where the customer's
	// incoming UMA payments go, taking over from any earlier default.
	DefaultUmaDepositAccount bool `json:"defaultUmaDepositAccount,omitempty"`
	// AccountInfo is the reference's accountInfo object, with its
	// accountType; it is stored as validated, with the variant's
	// paymentRails added.
	AccountInfo json.RawMessage `json:"accountInfo"`
}

// majorUnits converts n major units of currency to minor units (n for an
// unknown currency). n is a small constant, so it cannot overflow.
func majorUnits(currency string, n int64) int64 {
	c, _ := money.Lookup(currency)
	for range c.Decimals {
		n *= 10
	}
	return n
}

// needsOwnershipProof reports whether a new account starts
// PENDING_OWNERSHIP_VERIFICATION: first-party self-custody wallets (no
// vaspName) on the chains whose signatures checkOwnership verifies (EVM,
// Solana, Spark). A wallet named with its VASP is held by that VASP.
func needsOwnershipProof(typ, ownership string, info map[string]any) bool {
	vasp, _ := info["vaspName"].(string)
	switch Chain(typ) {
	case "EVM", "SOLANA", "SPARK":
		return ownership == "FIRST_PARTY" && vasp == ""
	}
	return false
}

// CreateExternal validates and stores an external account for a
// customer (CustomerScope) or for the platform (PlatformScope). Missing or malformed
// members are INVALID_INPUT; identifiers that fail their checksum or format
// INVALID_BANK_ACCOUNT; an equivalent existing account of the same owner
// DUPLICATE_EXTERNAL_ACCOUNT; an unknown or deleted customer
// CUSTOMER_NOT_FOUND or CUSTOMER_DELETED. The rail's checks set the
// beneficiary verification and may hold a new US account in micro-entry
// validation; a rail's refusal is returned as it is and nothing is
// written.
//
// The rail is asked before the transaction, so it may block on its
// network; the transaction only records its answer. It is asked on every
// call, a retry with the same idempotency key included, which then
// replays the recorded account.
func (as Service) CreateExternal(ctx context.Context, in ExternalAccountInput, scope Scope) (*rails.ExternalAccount, error) {
	return engine.Run(ctx, as.e, createExternal, externalCreation{in, scope})
}

// externalCreation is a CreateExternal request.
type externalCreation struct {
	in    ExternalAccountInput
	scope Scope
}

// checkedAccount is what CreateExternal gathers before its transaction:
// the account's details checked and encoded, and the rail's checks.
type checkedAccount struct {
	info     map[string]any
	infoJSON []byte
	typ      string
	check    rails.AccountCheck
}

// createExternal is Service.CreateExternal's operation. The rail's
// network checks are consulted before the transaction, on the account as
// it will be stored.
var createExternal = engine.Op[externalCreation, *rails.ExternalAccount, checkedAccount]{Area: "accounts", Name: "CreateExternal",
	Fingerprint: func(c *externalCreation) any { return []any{c.in, c.scope == PlatformScope} },
	Prefetch: func(ctx context.Context, e *engine.Handle, c *externalCreation, x *checkedAccount, _ error) error {
		in, platform := c.in, c.scope == PlatformScope
		var fe validate.Errors
		switch {
		case platform && in.CustomerID != "":
			fe.Add("customerId", nil, "platform external accounts have no customerId; use /customers/external-accounts")
		case !platform && in.CustomerID == "":
			fe.Missing("customerId")
		}
		if fe.Required("currency", in.Currency) && !money.Known(in.Currency) {
			fe.Add("currency", nil, "currency %q is not a known currency code", in.Currency)
		}
		fe.Enum("ownershipType", in.OwnershipType, "FIRST_PARTY", "THIRD_PARTY")
		fe.MaxLen("platformAccountId", in.PlatformAccountID, 255)
		if platform && in.DefaultUmaDepositAccount {
			fe.Add("defaultUmaDepositAccount", nil, "only a customer's account can be its default UMA deposit account")
		}
		var info map[string]any
		if len(in.AccountInfo) == 0 || json.Unmarshal(in.AccountInfo, &info) != nil || info == nil {
			fe.Add("accountInfo", nil, "accountInfo is required and must be an object with an accountType")
			return engine.Invalid(fe)
		}
		typ, issues := CheckInfoWith(info, in.Currency, validate.IsCountry, !accountsSlot.Of(e).SkipCheckDigits)
		// INVALID_BANK_ACCOUNT only when every problem is an identifier's: a
		// request with a missing member is malformed, whatever else is wrong.
		code := engine.CodeInvalidInput
		if len(fe) == 0 && len(issues) > 0 {
			code = engine.CodeInvalidBankAccount
		}
		for _, is := range issues {
			fe.Add(is.Field, nil, "%s", is.Message)
			if !is.Identifier {
				code = engine.CodeInvalidInput
			}
		}
		if err := engine.InvalidAs(code, fe.Err()); err != nil {
			return err
		}
		if v := Variants[typ]; len(v.Rails) > 0 {
			info["paymentRails"] = v.Rails
		}
		infoJSON, _ := json.Marshal(info)
		x.info, x.infoJSON, x.typ = info, infoJSON, typ
		// The rail's network checks are consulted before the transaction, on
		// the account as it will be stored.
		var err error
		x.check, err = accountsSlot.Of(e).Rail.CheckAccount(ctx, &rails.ExternalAccount{CustomerID: in.CustomerID, OwnershipType: in.OwnershipType,
			Currency: in.Currency, PlatformAccountID: in.PlatformAccountID, AccountInfo: infoJSON})
		return err
	},
	Decide: func(t *engine.Txn, c *externalCreation, x *checkedAccount) (out *rails.ExternalAccount, err error) {
		in, platform := c.in, c.scope == PlatformScope
		info, infoJSON, typ, check := x.info, x.infoJSON, x.typ, x.check
		owner := engine.PlatformOwner
		if !platform {
			c, err := customers.Live(t, in.CustomerID)
			if err != nil {
				return out, err
			}
			owner = c.ID
		}
		id := t.NewID("ExternalAccount")
		r := &ExternalRecord{ExternalAccount: rails.ExternalAccount{ID: id, CustomerID: in.CustomerID, Status: rails.ExternalActive,
			PlatformAccountID: in.PlatformAccountID, OwnershipType: in.OwnershipType, Currency: in.Currency,
			DefaultUmaDepositAccount: in.DefaultUmaDepositAccount, AccountInfo: infoJSON, CreatedAt: t.Now, UpdatedAt: t.Now}}
		if needsOwnershipProof(typ, in.OwnershipType, info) {
			r.Status = rails.ExternalPendingOwnershipVerification
		}
		r.BeneficiaryVerificationStatus = check.BeneficiaryStatus
		if check.VerifiedName != "" {
			r.BeneficiaryVerifiedData = &rails.BeneficiaryVerifiedData{FullName: check.VerifiedName}
		}
		if check.ValidationPeriod > 0 {
			r.ValidationEndsAt = t.Now.Add(check.ValidationPeriod)
		}
		r.UniqueKey = owner + "|" + typ + "|" + strings.ToLower(r.Identifier())
		if rn, ok := info["routingNumber"].(string); ok {
			r.UniqueKey += "|" + rn
		}
		if err := engine.Claim(t, tableExternalAccountsUnique, r.UniqueKey, id,
			engine.Errorf(engine.CodeDuplicateExternalAccount, "an equivalent %s external account already exists for this owner", typ)); err != nil {
			return out, err
		}
		if r.DefaultUmaDepositAccount {
			if err := clearDefaultDeposit(t, owner); err != nil {
				return out, err
			}
		}
		if err := t.Insert(tableExternalAccountsByOwner, owner+"|"+id, []byte(id)); err != nil {
			return out, err
		}
		out = &r.ExternalAccount
		return out, engine.InsertJSON(t, tableExternalAccounts, id, r)
	}}

// clearDefaultDeposit unsets defaultUmaDepositAccount on owner's accounts: a
// new default takes over. It reads every account of the owner.
func clearDefaultDeposit(t *engine.Txn, owner string) error {
	var ids []string
	err := t.Scan(tableExternalAccountsByOwner, engine.ScanOptions{Prefix: owner + "|"}, func(_ string, v []byte) (bool, error) {
		ids = append(ids, string(v))
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		r, err := ExternalRecordOf(t, id)
		if err != nil {
			return err
		}
		if r.DefaultUmaDepositAccount {
			r.DefaultUmaDepositAccount, r.UpdatedAt = false, t.Now
			if err := engine.PutJSON(t, tableExternalAccounts, id, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// ExternalAccountFilter narrows Service.ListExternal; zero members match
// everything.
type ExternalAccountFilter struct {
	CustomerID string
	Currency   string
}

// ListExternal lists customers' accounts (CustomerScope; all customers
// unless CustomerID) or the platform's (PlatformScope), oldest first, from
// the index that narrows the filter most. A malformed cursor or limit is
// INVALID_INPUT.
func (as Service) ListExternal(ctx context.Context, f ExternalAccountFilter, scope Scope, p engine.ListParams) (engine.Page[rails.ExternalAccount], error) {
	return engine.Run(ctx, as.e, listExternal, externalQuery{f, scope, p})
}

// externalQuery is a ListExternal request.
type externalQuery struct {
	f     ExternalAccountFilter
	scope Scope
	p     engine.ListParams
}

// listExternal is Service.ListExternal's operation.
var listExternal = engine.Op[externalQuery, engine.Page[rails.ExternalAccount], struct{}]{Area: "accounts", Name: "ListExternal", Access: engine.Read,
	Decide: func(t *engine.Txn, in *externalQuery, _ *struct{}) (engine.Page[rails.ExternalAccount], error) {
		f, platform := in.f, in.scope == PlatformScope
		q := engine.ListQuery[rails.ExternalAccount]{Table: tableExternalAccounts, Index: ixSide, Value: sideOf(platform),
			Match: func(a *rails.ExternalAccount) bool {
				return (a.CustomerID == "") == platform && (f.CustomerID == "" || a.CustomerID == f.CustomerID) &&
					(f.Currency == "" || a.Currency == f.Currency)
			}}
		return engine.List(t, q.Narrowest([2]string{ixCustomer, f.CustomerID}, [2]string{ixCurrency, currencyValue(platform, f.Currency)}), in.p)
	}}

// ListExternalAll walks every page of ListExternal from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (as Service) ListExternalAll(ctx context.Context, f ExternalAccountFilter, scope Scope, p engine.ListParams) iter.Seq2[rails.ExternalAccount, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[rails.ExternalAccount], error) {
		return as.ListExternal(ctx, f, scope, p)
	})
}

// External returns an account of the given scope (customer or
// platform): ACCOUNT_NOT_FOUND for an unknown id and for the other scope's
// accounts alike, so one side cannot probe the other's ids.
func (as Service) External(ctx context.Context, id string, scope Scope) (*rails.ExternalAccount, error) {
	return engine.Run(ctx, as.e, getExternal, externalRef{id, scope})
}

// externalRef names an external account on one side (Scope).
type externalRef struct {
	id    string
	scope Scope
}

// getExternal is Service.External's operation.
var getExternal = engine.Op[externalRef, *rails.ExternalAccount, struct{}]{Area: "accounts", Name: "External", Access: engine.Read,
	Decide: func(t *engine.Txn, in *externalRef, _ *struct{}) (*rails.ExternalAccount, error) {
		a, err := sideAccount(t, in.id, in.scope == PlatformScope)
		if err != nil {
			return nil, err
		}
		return &a.ExternalAccount, nil
	}}

// sideAccount loads an external account of one side (Scope):
// ACCOUNT_NOT_FOUND for the other side's.
func sideAccount(t *engine.Txn, id string, platform bool) (*ExternalRecord, error) {
	r, err := ExternalRecordOf(t, id)
	if err != nil {
		return nil, err
	}
	if (r.CustomerID == "") != platform {
		return nil, engine.Errorf(engine.CodeAccountNotFound, "external account %s not found", id)
	}
	return r, nil
}

// DeleteExternal removes an account of scope with its index entries, which
// frees its identifier for a new account; a trusted beneficiary is
// BENEFICIARY_TRUSTED (untrust it first), an unknown id or another scope's
// ACCOUNT_NOT_FOUND. Nothing checks whether quotes or payments name it: a
// payout already handed over carries its own copy of the account.
func (as Service) DeleteExternal(ctx context.Context, id string, scope Scope) error {
	_, err := engine.Run(ctx, as.e, deleteExternal, externalRef{id, scope})
	return err
}

// deleteExternal is Service.DeleteExternal's operation.
var deleteExternal = engine.Op[externalRef, struct{}, struct{}]{Area: "accounts", Name: "DeleteExternal",
	Fingerprint: func(r *externalRef) any { return []any{r.id, r.scope == PlatformScope} },
	Decide: func(t *engine.Txn, in *externalRef, _ *struct{}) (out struct{}, err error) {
		id, platform := in.id, in.scope == PlatformScope
		r, err := sideAccount(t, id, platform)
		if err != nil {
			return out, err
		}
		if r.Trusted {
			return out, engine.Errorf(engine.CodeBeneficiaryTrusted, "external account %s is a trusted beneficiary; untrust it (untrust, then confirm) before deleting", id)
		}
		for _, k := range [][2]string{{tableExternalAccountsUnique, r.UniqueKey}, {tableExternalAccountsByOwner, r.Owner() + "|" + id}, {tableExternalAccounts, id}} {
			if err := t.Delete(k[0], k[1]); err != nil && !errors.Is(err, engine.ErrNotFound) {
				return out, err
			}
		}
		return out, nil
	}}
