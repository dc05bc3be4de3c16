package accounts

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/rails"
)

// Area declares the accounts area's tables and due work for payments.New
// to register: internal and external accounts with their owner and
// uniqueness indexes and the list indexes (by side, customer and
// currency), deposit references, and the sandbox's liveness checks of
// ownership proofs, applied per item by applyLivenessDue. A nil cfg.Rail is
// rails.Default.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	if cfg.Rail == nil {
		cfg.Rail = rails.Default{}
	}
	st := &accountsState{Options: cfg}
	return engine.AreaDef{
		State: []engine.SlotEntry{accountsSlot.With(st)},
		Tables: []engine.TableDef{
			{Name: tableInternalAccounts, Record: func() any { return new(InternalAccount) },
				Ix: engine.Indexed(tableInternalAccounts, func(x *InternalAccount) time.Time { return x.CreatedAt },
					engine.Ix(ixSide, func(x *InternalAccount) string { return sideOf(x.CustomerID == "") }),
					engine.Ix(ixCustomer, func(x *InternalAccount) string { return x.CustomerID }),
					engine.Ix(ixCurrency, func(x *InternalAccount) string { return currencyValue(x.CustomerID == "", x.Currency) })),
				// The records as rows; the accounts with their balances
				// are shown under the table's own name.
				Rows: &engine.Rows{Table: "internal_account_records", Columns: []engine.Column{
					engine.TextColumn("customer_id", "customerId"),
					engine.TextColumn("type", "type"),
					engine.TextColumn("status", "status"),
					engine.TextColumn("currency", "currency"),
					engine.TimeColumn("created_at", "createdAt"),
					engine.TimeColumn("updated_at", "updatedAt"),
				}, Created: "created_at", Lists: map[string][]string{
					ixCustomer: {"customer_id"},
				}, Kept: []string{ixSide, ixCurrency}, Balances: &engine.Balances{View: tableInternalAccounts, Currency: "currency", Held: money.HeldSuffix}}},
			{Name: tableInternalAccountsByOwner},
			{Name: tableDepositReferences},
			{Name: tableExternalAccounts, Record: func() any { return new(ExternalRecord) },
				Ix: engine.Indexed(tableExternalAccounts, func(x *ExternalRecord) time.Time { return x.CreatedAt },
					engine.Ix(ixSide, func(x *ExternalRecord) string { return sideOf(x.CustomerID == "") }),
					engine.Ix(ixCustomer, func(x *ExternalRecord) string { return x.CustomerID }),
					engine.Ix(ixCurrency, func(x *ExternalRecord) string { return currencyValue(x.CustomerID == "", x.Currency) })),
				Rows: &engine.Rows{Columns: []engine.Column{
					engine.TextColumn("customer_id", "customerId"),
					engine.TextColumn("status", "status"),
					engine.TextColumn("currency", "currency"),
					engine.TextColumn("account_type", "accountInfo.accountType"),
					engine.TextColumn("beneficiary_verification_status", "beneficiaryVerificationStatus"),
					engine.TimeColumn("created_at", "createdAt"),
					engine.TimeColumn("updated_at", "updatedAt"),
				}, Created: "created_at", Lists: map[string][]string{
					ixCustomer: {"customer_id"},
				}, Kept: []string{ixSide, ixCurrency}}},
			{Name: tableExternalAccountsByOwner},
			{Name: tableExternalAccountsUnique},
			{Name: tableLivenessDue},
		},
		Due: []engine.DueWork{{Table: tableLivenessDue, Apply: applyLivenessDue}},
	}
}

// Options is what payments.New gives the accounts area: the rail that
// checks new external accounts and whether check digits are skipped.
type Options struct {
	// Rail is payments.Config.Rail; this area calls only its CheckAccount,
	// before the transaction that creates an external account.
	Rail rails.Rail
	// SkipCheckDigits is payments.Config.SkipCheckDigits: identifiers that
	// fail only their checksum are accepted (CheckInfoWith).
	SkipCheckDigits bool
}

// accountsState is the accounts area's state: the rail that checks new
// external accounts, whether check digits are skipped, and the accounts
// decoded lately with their encoded funding instructions.
type accountsState struct {
	Options
	cache     engine.ReadCache[InternalAccount]
	externals engine.ReadCache[ExternalRecord]
	funding   engine.Bounded[[]byte] // encoded funding instructions by internal account id (ViewJSON)
}

// accountsSlot finds the accounts area's state on an engine handle.
var accountsSlot engine.Slot[accountsState]

// sideOf is the ixSide value of the platform's accounts (platform) or the
// customers'. Lists of one Scope read this index, so a page of customer
// accounts never walks the platform's and back.
func sideOf(platform bool) string {
	if platform {
		return "platform"
	}
	return "customer"
}

// currencyValue is the ixCurrency value of one side's accounts in currency
// ("" when currency is, which leaves the record out of the index). The side
// is part of the value for the same reason as in sideOf.
func currencyValue(platform bool, currency string) string {
	if currency == "" {
		return ""
	}
	return sideOf(platform) + "/" + currency
}
