package wallets

import (
	"encoding/json"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/walletauth"
)

// Area declares the embedded wallets' tables: credentials and their
// lookups, sessions, pending signed requests, wallet secrets and delegated
// keys; and installs cfg as the area's state on e (walletsSlot), where
// every operation reads it. The root's New registers it after the areas
// below, with cfg taken from payments.Config (WalletRelyingParty and
// OIDCKeys). None of the tables has a secondary index: the area keeps its
// own "_by_" lookups.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	return engine.AreaDef{Codes: codes, State: []engine.SlotEntry{walletsSlot.With(&cfg)}, Tables: []engine.TableDef{
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
	// RelyingParty is the WebAuthn relying party of wallet passkeys; a
	// zero ID means DefaultWalletRelyingParty.
	RelyingParty walletauth.RelyingParty
	// OIDCKeys finds the issuers' keys OAuth ID tokens are verified with.
	// Nil outside the sandbox refuses every OAuth token (UNAUTHORIZED):
	// an unverifiable signature is never trusted there.
	OIDCKeys walletauth.OIDCKeys
}

// walletsSlot keys the area's Options on the engine (engine.Slot).
var walletsSlot engine.Slot[Options]

// walletCall is a wallet operation's request: the record it names, its
// body, the signature of a signed flow, and fp, the request's fingerprint
// for the handle's idempotency key (an array such as [id, body, leg]).
type walletCall[B any] struct {
	id   string
	body B
	sig  Signature
	fp   []any
}

// MarshalJSON fingerprints the request as fp.
func (c walletCall[B]) MarshalJSON() ([]byte, error) { return json.Marshal(c.fp) }
