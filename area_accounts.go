package payments

import "time"

// accountsArea declares the accounts area's tables and due work: internal
// and external accounts with their owner and uniqueness indexes, deposit
// references, and the sandbox's liveness checks of ownership proofs.
func accountsArea(e *handle, cfg Config) areaDef {
	st := &accountsState{rail: cfg.Rail, skipCheckDigits: cfg.SkipCheckDigits}
	if st.rail == nil {
		st.rail = defaultRail{}
	}
	return areaDef{
		state: []slotEntry{accountsSlot.with(st)},
		tables: []tableDef{
			{name: tableInternalAccounts, record: func() any { return new(InternalAccount) },
				ix: indexed(tableInternalAccounts, func(x *InternalAccount) time.Time { return x.CreatedAt },
					ix(ixSide, func(x *InternalAccount) string { return sideOf(x.CustomerID == "") }),
					ix(ixCustomer, func(x *InternalAccount) string { return x.CustomerID }),
					ix(ixCurrency, func(x *InternalAccount) string { return currencyValue(x.CustomerID == "", x.Currency) }))},
			{name: tableInternalAccountsByOwner},
			{name: tableDepositReferences},
			{name: tableExternalAccounts, record: func() any { return new(externalRecord) },
				ix: indexed(tableExternalAccounts, func(x *externalRecord) time.Time { return x.CreatedAt },
					ix(ixSide, func(x *externalRecord) string { return sideOf(x.CustomerID == "") }),
					ix(ixCustomer, func(x *externalRecord) string { return x.CustomerID }),
					ix(ixCurrency, func(x *externalRecord) string { return currencyValue(x.CustomerID == "", x.Currency) }))},
			{name: tableExternalAccountsByOwner},
			{name: tableExternalAccountsUnique},
			{name: tableLivenessDue},
		},
		due: []dueWork{{table: tableLivenessDue, apply: applyLivenessDue}},
	}
}

// accountsState is the accounts area's state: the rail that checks new
// external accounts, whether check digits are skipped, and the accounts
// decoded lately with their encoded funding instructions.
type accountsState struct {
	rail            Rail
	skipCheckDigits bool
	cache           readCache[InternalAccount]
	externals       readCache[externalRecord]
	funding         bounded[[]byte] // encoded funding instructions by internal account id (accountViewJSON)
}

var accountsSlot slot[accountsState]

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
