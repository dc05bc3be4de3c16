package accounts

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
)

// Area declares the accounts area's tables and due work: internal
// and external accounts with their owner and uniqueness indexes, deposit
// references, and the sandbox's liveness checks of ownership proofs.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	if cfg.Rail == nil {
		cfg.Rail = rails.Default{}
	}
	st := &accountsState{Options: cfg}
	return engine.AreaDef{
		State: []engine.SlotEntry{accountsSlot.With(st)},
		Tables: []engine.TableDef{
			{Name: TableInternalAccounts, Record: func() any { return new(InternalAccount) },
				Ix: engine.Indexed(TableInternalAccounts, func(x *InternalAccount) time.Time { return x.CreatedAt },
					engine.Ix(ixSide, func(x *InternalAccount) string { return sideOf(x.CustomerID == "") }),
					engine.Ix(ixCustomer, func(x *InternalAccount) string { return x.CustomerID }),
					engine.Ix(ixCurrency, func(x *InternalAccount) string { return currencyValue(x.CustomerID == "", x.Currency) }))},
			{Name: TableInternalAccountsByOwner},
			{Name: TableDepositReferences},
			{Name: TableExternalAccounts, Record: func() any { return new(ExternalRecord) },
				Ix: engine.Indexed(TableExternalAccounts, func(x *ExternalRecord) time.Time { return x.CreatedAt },
					engine.Ix(ixSide, func(x *ExternalRecord) string { return sideOf(x.CustomerID == "") }),
					engine.Ix(ixCustomer, func(x *ExternalRecord) string { return x.CustomerID }),
					engine.Ix(ixCurrency, func(x *ExternalRecord) string { return currencyValue(x.CustomerID == "", x.Currency) }))},
			{Name: tableExternalAccountsByOwner},
			{Name: tableExternalAccountsUnique},
			{Name: TableLivenessDue},
		},
		Due: []engine.DueWork{{Table: TableLivenessDue, Apply: applyLivenessDue}},
	}
}

// Options is what New gives the accounts area: the rail that checks
// new external accounts and whether check digits are skipped
// (Config.SkipCheckDigits).
type Options struct {
	Rail            rails.Rail
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

var accountsSlot engine.Slot[accountsState]

// sideOf is the ixSide value of the platform's accounts (platform) or the
// customers'.
func sideOf(platform bool) string {
	if platform {
		return "platform"
	}
	return "customer"
}

// currencyValue is the ixCurrency value of one side's accounts in currency
// ("" when currency is).
func currencyValue(platform bool, currency string) string {
	if currency == "" {
		return ""
	}
	return sideOf(platform) + "/" + currency
}
