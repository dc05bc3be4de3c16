// Package platform is the platform area: the one configuration record of
// the platform that embeds the engine, and the API tokens its clients
// authenticate with. It is the lowest of the areas: every other area reads
// the configuration inside its own transactions (Load), and this package
// imports no area.
//
// # Vocabulary
//
// Config is the reference's PlatformConfig: the UMA domain that generated
// addresses live under, the webhook endpoint that receives events, the
// supported currencies with their per-transaction bounds (CurrencyConfig,
// behind TRANSACTION_SIZE_LIMIT_EXCEEDED), whether the platform is a
// regulated financial institution, the fee configurations, and the branding
// of embedded-wallet and card-tokenization messages. Being regulated
// matters to the areas above: a regulated platform verifies its own
// customers and need not collect their consent to the provider's end-user
// terms (package customers). Seed is the configuration an empty store
// starts with.
//
// Token is an API token with its permissions (PermView, PermTransact,
// PermManage). Its secret is shown once, in CreatedToken; the store keeps
// only the secret's SHA-256 hash.
//
// # Rules
//
//   - ConfigUpdate is a PATCH: nil members stay as they are, the branding
//     objects merge as JSON merge patches (RFC 7386) and fee configs merge
//     by (feeType, sourceCurrency). Every invalid member is reported at
//     once, in one INVALID_INPUT, and nothing changes.
//   - A supported currency always has an account to hold the platform's
//     money: the update that adds it opens the platform's internal account
//     in it, in the same transaction (the OpenAccounts hook).
//   - A new webhook endpoint receives one TEST event, written in the
//     transaction that sets it, as the reference does.
//   - isRegulatedFinancialInstitution belongs to the operator: outside the
//     sandbox a change is INVALID_INPUT.
//   - A token may grant only the permissions its issuer holds (VIEW, which
//     every token has, aside); FORBIDDEN otherwise.
//   - Authenticate answers every failure with the same UNAUTHORIZED after
//     the same work, so neither the answer nor its timing tells whether a
//     client id exists.
//
// # How operations run
//
// The write operations (UpdateConfig, CreateToken, DeleteToken) each run as
// one store transaction through engine.Once. On a handle made by
// payments.Engine.WithIdempotency the answer is recorded in that same
// transaction: a retry with the same key and request replays it (for
// CreateToken, secret included), and another request under the key is
// CONFLICT. Ids and secrets are drawn before the transaction, so a store
// that runs the transaction function twice writes the same token. The reads
// (Config, Token, ListTokens, Authenticate) run in one read transaction
// each. The area has no intents and no due work.
//
// Seed runs once, from payments.New after every area is registered: it
// writes the seed into an empty store and leaves a stored configuration
// alone, so a restart never undoes changes made through UpdateConfig.
//
// # Caches and concurrency
//
// Service is a small value over the engine's handle, safe for concurrent
// use. Every quote reads the configuration, so Load decodes it at most once
// per transaction, and the engine keeps the last decoded record by its
// bytes: an unchanged configuration is never decoded twice. Authenticate
// remembers verified credentials for a minute; DeleteToken, and
// ForgetTokens after a sandbox import or reset, forget them all in this
// process. Another process that shares the store may accept a revoked
// token until its own entry expires.
//
// # Hooks and functions for other areas
//
// Options carries what payments.New wires in: the Seed, and OpenAccounts
// (accounts.OpenInternal, which this package cannot import because the
// accounts area sits above it). Area also serves the outbox's Endpoint
// hook: webhook delivery asks the configuration where events go.
//
// Other areas call these inside their own transactions: Load (the
// configuration, read-only), WriteSeed and Reseed (the sandbox's reset),
// and InRange (the inclusive time filter that lists share). ForgetTokens
// drops the credential cache.
//
// # Use
//
// Through the root facade, where payments.Platform is this package's
// Service:
//
//	eng, err := payments.New(payments.Config{Store: memstore.New(),
//		Platform: payments.PlatformSeed{WebhookEndpoint: "https://example.com/hooks"}})
//	if err != nil { ... }
//	defer eng.Close()
//	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{
//		Name: "backend", Permissions: []payments.Permission{payments.PermTransact}})
//	// tok.Credential() is the Basic-auth credential httpapi accepts.
//	domain := "pay.example.com"
//	cfg, err := eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{UmaDomain: &domain})
package platform
