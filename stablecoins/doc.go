// Package stablecoins holds the rules of stablecoin issuance, pure and
// without I/O: the provider-account link states and how a request picks a
// link, the Service-enablement states of spec 3.4, the shapes and checks of
// register, mint and burn requests, whether an amount in a token's smallest
// unit maps to whole fiat cents, the lifecycle of mint and burn operations,
// and the ledger postings each lifecycle step implies.
//
// # Why a package
//
// Stablecoin issuance is an area of its own (STYLE.md, DESIGN.md "Areas"):
// its rules share nothing with quotes or customers, and a reader looking for
// "when may a burn start" or "which link does a mint use" should find it in
// one place, testable without a store. The root package wires these rules
// into store transactions (stablecoins.go there) and talks to the provider
// through its StablecoinProvider port; this package imports neither.
//
// Refusals are sentinel errors (ErrSelectionRequired, ErrNotRepresentable,
// ...) wrapped with a message; the root maps each to the spec's code.
//
//	units, cents, err := stablecoins.Amount("1250000", 6) // 1.25 tokens = 125 cents
//	if errors.Is(err, stablecoins.ErrNotRepresentable) { ... }
package stablecoins
