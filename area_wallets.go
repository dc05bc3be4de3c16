package payments

// walletsArea declares the embedded wallets' tables: credentials and their
// lookups, sessions, pending signed requests, wallet secrets and delegated
// keys.
func walletsArea() areaDef {
	return areaDef{tables: []tableDef{
		{name: tableWalletCredentials}, {name: tableWalletCredentialsByAcct},
		{name: tableWalletEmails}, {name: tableWalletPhones},
		{name: tableWalletPasskeys}, {name: tableWalletPasskeyChallenges},
		{name: tableWalletSessions}, {name: tableWalletSessionsByAcct},
		{name: tableWalletRequests}, {name: tableWalletSecrets}, {name: tableWalletsByCustomer},
		{name: tableWalletDelegatedKeys}, {name: tableWalletDelegatedKeysByAcc},
	}}
}
