package payments

import "time"

// accountsArea declares the accounts area's tables and due work: internal
// and external accounts with their owner and uniqueness indexes, deposit
// references, and the sandbox's liveness checks of ownership proofs.
func accountsArea() areaDef {
	return areaDef{
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
		due: []dueWork{{tableLivenessDue, (*txn).applyLivenessDue}},
	}
}

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
