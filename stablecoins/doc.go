// Package stablecoins is the stablecoin issuance area of the platform: it
// links the platform's accounts at a stablecoin issuer (the provider),
// registers the tokens those accounts issued, tracks whether each token is
// enabled for the Service's own operations, and mints and burns tokens
// against a fiat reserve kept on the ledger.
//
// The root package payments re-exports the records (payments.Stablecoin,
// payments.StablecoinOperation, ...) and wires the area in payments.New;
// programs reach it as eng.Stablecoins. Its rules share nothing with quotes
// or customers: a reader looking for "when may a burn start" or "which link
// does a mint use" finds it here, testable without a store.
//
// # Vocabulary and rules
//
// The rules are pure functions of this package:
//
//   - Select picks the provider-account link a request uses (the one named,
//     or the platform's only ACTIVE one); LinkStatus says whether a link
//     still verifies.
//   - RequestEnablement and OperatorSet are the Service-enablement state
//     machine (OpsStatus); IssuanceStatus is the provider's
//     own state of a token, and only a PROVISIONED token mints or burns.
//   - Amount parses a digit-string amount in the token's smallest unit and
//     insists that it is a whole number of fiat cents at the token's
//     decimals (ErrNotRepresentable): the reserve is kept in cents, so a
//     token amount that maps to a fraction of a cent could not be backed.
//   - CheckMint, CheckBurn and CheckExternal decide whether a mint or burn
//     may use its source and destination; CanMove and Terminal are the
//     lifecycle of an Operation (OpStatus).
//   - Reserve, MintPostings and the Burn*Postings are the ledger legs each
//     step implies.
//
// Refusals are sentinel errors (ErrSelectionRequired, ErrNotRepresentable,
// ...) wrapped with a message; the Service maps each to the API's code
// named in its comment (stablecoinError) and anything else to a field
// error.
//
// # How an operation runs
//
// Each write validates its request (INVALID_INPUT naming every bad field)
// and runs as one store transaction (a declaration, engine.Op, that
// engine.Run carries out), with the
// idempotency of payments.Engine.WithIdempotency. The writes that need the
// provider (LinkProviderAccount, Register, Mint, Burn) first replay a
// recorded answer if there is one, then read what they need in a read
// transaction (the stablecoin, its link), ask the StablecoinProvider
// outside any transaction (VerifyAccount, Token, Plan), and only then
// write, checking everything again: unique keys are claimed there (a
// provider account linked twice, a symbol or token registered twice), a
// burn's ledger hold is posted, and the operation's first step is
// scheduled. The provider's answer is only recorded; the engine commits
// nothing at the provider.
//
// A mint or burn then follows the plan the provider gave: it waits in
// PENDING_FUNDING when the plan carries funding instructions, until
// ReportFunding or the end of its funding window (EXPIRED), and takes the
// plan's steps on the engine clock. Each step and each funding expiry is
// due work applied per item in its own transaction; a step due at once is
// applied in the transaction that makes it due.
//
// # Money
//
// Each stablecoin has a reserve account on the ledger, Reserve(id), holding
// the fiat backing of its tokens in circulation, in the token's base
// currency. A completed mint moves its value in from the funding rail
// (external:stablecoin-funding:<type>). A new burn holds its value on the
// reserve's held sub-account at once, so concurrent burns cannot spend the
// same backing, and a burn beyond what was minted is INSUFFICIENT_FUNDS; a
// completed burn pays the held value out to its rail
// (external:stablecoin-payout:<rail>), a failed or expired one releases it.
// Service.Reserve reports both balances.
//
// # Events
//
// The area emits no webhook events: a platform follows an operation by
// reading it (Service.Operation, Service.ListOperations).
//
// # Ports and hooks
//
// StablecoinProvider is the issuer platform behind the area; Area takes it
// directly (payments.Config.Stablecoins), and nil refuses every call with
// STABLECOIN_PROVIDER_ERROR. The area declares no hooks for areas above it
// and exports no in-transaction functions: nothing else in the module acts
// on stablecoins inside its own transaction.
//
// # Use
//
// Through the root facade (see the root package's Example_stablecoins, which
// runs on a sandbox engine):
//
//	link, err := eng.Stablecoins.LinkProviderAccount(ctx, stablecoins.LinkRequest{
//		Provider: stablecoins.ProviderBrale, APIClientID: id, APIClientSecret: secret})
//	coin, err := eng.Stablecoins.Register(ctx, stablecoins.RegisterRequest{
//		ProviderTokenIdentifier: "ACME", NetworkTokenIdentifier: "btkn1acme", Network: stablecoins.NetworkSpark})
//	op, err := eng.Stablecoins.Mint(ctx, coin.ID, stablecoins.MintRequest{Amount: "1250000",
//		FundingSource: stablecoins.Source{Type: stablecoins.SourceWire},
//		Destination:   stablecoins.Destination{AccountID: sparkWalletID}})
//	// op is PENDING_FUNDING with the wire instructions of the provider.
//
// The rules alone:
//
//	units, cents, err := stablecoins.Amount("amount", "1250000", 6) // 1.25 tokens = 125 cents
//	if errors.Is(err, stablecoins.ErrNotRepresentable) { ... }
package stablecoins
