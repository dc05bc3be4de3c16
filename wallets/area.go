package wallets

import (
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/walletauth"
)

// Area declares the embedded wallets' tables: credentials and their
// lookups, sessions, pending signed requests, wallet secrets and delegated
// keys.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	return engine.AreaDef{State: []engine.SlotEntry{walletsSlot.With(&cfg)}, Tables: []engine.TableDef{
		{Name: tableWalletCredentials}, {Name: tableWalletCredentialsByAcct},
		{Name: tableWalletEmails}, {Name: tableWalletPhones},
		{Name: tableWalletPasskeys}, {Name: tableWalletPasskeyChallenges},
		{Name: tableWalletSessions}, {Name: tableWalletSessionsByAcct},
		{Name: tableWalletRequests}, {Name: tableWalletSecrets}, {Name: tableWalletsByCustomer},
		{Name: tableWalletDelegatedKeys}, {Name: tableWalletDelegatedKeysByAcc},
	}}
}

// Options is the wallets area's state: the relying party passkeys are
// bound to, and the keys OAuth ID tokens are verified with.
type Options struct {
	RelyingParty walletauth.RelyingParty
	OIDCKeys     walletauth.OIDCKeys
}

var walletsSlot engine.Slot[Options]
