package payments

import "github.com/paygrid/payments/walletauth"

// walletsArea declares the embedded wallets' tables: credentials and their
// lookups, sessions, pending signed requests, wallet secrets and delegated
// keys.
func walletsArea(e *handle, cfg Config) areaDef {
	return areaDef{state: []slotEntry{walletsSlot.with(&walletsState{rp: cfg.WalletRelyingParty, oidc: cfg.OIDCKeys})}, tables: []tableDef{
		{name: tableWalletCredentials}, {name: tableWalletCredentialsByAcct},
		{name: tableWalletEmails}, {name: tableWalletPhones},
		{name: tableWalletPasskeys}, {name: tableWalletPasskeyChallenges},
		{name: tableWalletSessions}, {name: tableWalletSessionsByAcct},
		{name: tableWalletRequests}, {name: tableWalletSecrets}, {name: tableWalletsByCustomer},
		{name: tableWalletDelegatedKeys}, {name: tableWalletDelegatedKeysByAcc},
	}}
}

// walletsState is the wallets area's state: the relying party passkeys are
// bound to, and the keys OAuth ID tokens are verified with.
type walletsState struct {
	rp   walletauth.RelyingParty
	oidc walletauth.OIDCKeys
}

var walletsSlot slot[walletsState]
