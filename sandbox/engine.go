package sandbox

import (
	"slices"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/memstore"
)

// New returns a ready-made sandbox engine for tests: an in-memory store, a
// Clock standing at 2025-10-13T12:00:00Z, and every sandbox provider (KYC,
// InstantRail, Rates, Directory, the card Issuer, Stablecoins). mutate may
// adjust the configuration before the
// engine starts (a Notifier, a regulated platform seed, ...). Close the
// engine when done; its store needs no closing.
func New(mutate ...func(*payments.Config)) (*payments.Engine, *Clock, error) {
	clock := NewClock(timeZero)
	cfg := payments.Config{Store: memstore.New(), Now: clock.Now, NewUUID: NewUUID, Sandbox: true,
		KYC: KYC{}, Rail: InstantRail{}, Rates: Rates{}, Directory: Directory{}, CardIssuer: Issuer{Now: clock.Now}, Stablecoins: Stablecoins{}}
	for _, m := range mutate {
		m(&cfg)
	}
	eng, err := payments.New(cfg)
	return eng, clock, err
}

// PlatformCurrencies are the currencies the sandbox server seeds its
// platform with (payments.Config.Platform.Currencies): the engine's
// DefaultCurrencies and USDB, which the hosted sandbox enables by default,
// so that every customer gets its Global Account (an EMBEDDED_WALLET
// holding USDB) next to its other internal accounts.
func PlatformCurrencies() []string {
	return append(slices.Clone(payments.DefaultCurrencies), "USDB")
}
