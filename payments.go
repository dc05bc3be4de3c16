package payments

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/cards"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/backlog"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/history"
	"github.com/paygrid/payments/internal/ledger"
	"github.com/paygrid/payments/internal/outbound"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/quotes/invitations"
	"github.com/paygrid/payments/quotes/lookups"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/stablecoins"
	"github.com/paygrid/payments/walletauth"
	"github.com/paygrid/payments/wallets"
)

// Config configures an Engine. Only Store is required; every other zero value
// has a working default, described per field.
type Config struct {
	// Store persists everything. Required.
	Store engine.Store
	// KYC verifies customers. Nil means the customers area's default
	// (documented on KYCProvider): customers start UNVERIFIED and a
	// complete packet waits for an operator.
	KYC customers.KYCProvider
	// Rail delivers outgoing payments and pulls (package rails documents
	// the contract). Nil means rails.Default, which completes every
	// payment at once and checks no account.
	Rail rails.Rail
	// Rates supplies exchange rates (cached RateCacheTTL). Nil quotes only
	// same-currency pairs.
	Rates quotes.RateSource
	// Directory resolves UMA addresses at other providers and lists VASPs,
	// discoveries and UMA providers. Nil knows nothing beyond the platform.
	Directory quotes.Directory
	// Codes delivers one-time codes (contact verification, SCA) after the
	// transaction that issued them committed. Nil delivers nothing
	// (documented on CodeSender).
	Codes customers.CodeSender
	// Notifier receives committed events. Nil discards them (they are still
	// written to the outbox and removed once "delivered").
	Notifier outbound.Notifier
	// Now is the clock. Nil means time.Now. Tests inject a controllable clock
	// so expiry and lifecycles advance without sleeping.
	Now func() time.Time
	// NewUUID returns time-ordered UUIDs for record ids. Nil means uuid.NewV7.
	NewUUID func() (uuid.UUID, error)
	// Logger receives operational logs. Nil discards them. Lines logged
	// while serving a caller's operation are logged with its context
	// (slog's InfoContext, WarnContext...), so a handler can add what the
	// context carries (httpapi.LogHandler: the request id;
	// oteltrace.LogHandler: the trace id).
	Logger *slog.Logger
	// Observer watches the engine's work (operations with their outcome
	// codes, store transactions, hand-overs, webhook deliveries, due
	// items) for metrics and tracing: telemetry/prommetrics and
	// telemetry/oteltrace are adapters, Observers joins them. Nil
	// observes nothing, at the cost of a nil check per hook.
	Observer Observer
	// Platform seeds the platform configuration the first time the engine
	// opens an empty store. Later starts keep what the store holds.
	Platform platform.Seed
	// IdempotencyRetention is how long an idempotency key is remembered.
	// Zero means 24 hours.
	IdempotencyRetention time.Duration
	// Retry is the delivery backoff of outbox events, and the bound of a
	// Webhooks.Redeliver try (Retry.Redeliver). Zero values get defaults.
	Retry outbound.RetryPolicy
	// IncomingApproval makes incoming UMA payments wait in PENDING for the
	// platform's decision (ApproveIncoming / RejectIncoming, or POST
	// /transactions/{id}/approve|reject) for ApprovalWindow, after which
	// they fail with PAYMENT_APPROVAL_TIMED_OUT. Off, they complete at once.
	IncomingApproval bool
	// CardIssuer issues cards and, when it is also a CardSimulator, runs
	// the sandbox card network (package cards). Nil: the card operations
	// answer NOT_IMPLEMENTED, as environments without a card issuer do.
	CardIssuer cards.CardIssuer
	// CardLimits bounds live cards (every state but CLOSED; closing a card
	// frees its slot): MaxLive over the platform and PerCardholder per
	// cardholder, CARD_LIMIT_REACHED beyond them. Zero members mean 10,000
	// live cards per platform and one per cardholder
	// (cards.DefaultMaxLive, cards.DefaultPerCardholder).
	CardLimits cards.Limits
	// Stablecoins is the stablecoin issuer platform behind the Stablecoins
	// area. Nil refuses every stablecoin operation with
	// STABLECOIN_PROVIDER_ERROR (documented on StablecoinProvider).
	Stablecoins stablecoins.StablecoinProvider
	// Sandbox enables the sandbox-only operations (funding accounts, test
	// webhooks, simulated payments). Off, they answer FORBIDDEN.
	Sandbox bool
	// SkipCheckDigits accepts bank identifiers whose check digits fail
	// (IBAN mod-97, US routing-number and CLABE checksums, and the checksums
	// of wallet addresses) as long as they match the reference's published
	// patterns and lengths, as the hosted sandbox does, so test data written
	// against it (CLABE 123456789012345678) works. The zero value checks
	// them: a typo is caught before money moves. See the README.
	SkipCheckDigits bool
	// SCAPasskeys is the WebAuthn relying party SCA passkeys are enrolled
	// with and asserted against. The zero value is RP ID "localhost" with
	// origins http://localhost:8080 and https://localhost.
	SCAPasskeys walletauth.RelyingParty
	// EventHistory keeps a record of every event whose delivery ended
	// (delivered or given up), with its attempts, for operators' tools
	// such as package dashboard (Webhooks.ListDeliveries). Off, a delivered
	// event leaves no trace. Each event costs about a kilobyte and a half
	// in the store (README.md) until EventHistoryRetention removes it.
	EventHistory bool
	// EventHistoryRetention is how long EventHistory keeps an event after
	// its delivery ended (delivered, given up or found to have nowhere to
	// go): older ones are removed by the due-work worker (ProcessDue), at
	// most 100 per transaction and 1,000 per pass, found through an index
	// of when they leave. Zero means DefaultEventHistoryRetention (7 days); negative
	// keeps every event forever.
	EventHistoryRetention time.Duration
	// WalletRelyingParty is the WebAuthn relying party embedded-wallet
	// passkeys are bound to. A zero ID means DefaultWalletRelyingParty.
	WalletRelyingParty walletauth.RelyingParty
	// OIDCKeys finds the issuers' keys OAuth ID tokens are verified with.
	// Nil: in the sandbox the signature is not checked (as the hosted
	// sandbox does); outside
	// it OAuth credentials are refused.
	OIDCKeys walletauth.OIDCKeys
}

// DefaultEventHistoryRetention is how long the event history keeps an
// event after its delivery ended when Config.EventHistoryRetention is zero.
const DefaultEventHistoryRetention = 7 * 24 * time.Hour

// Engine is the payments platform. It is safe for concurrent use. Create it
// with New and release it with Close.
//
// An Engine value is a handle on one shared core (the kernel's, package
// internal/engine): WithIdempotency returns another handle on the same core
// whose write operations run at most once for a client's idempotency key.
//
// The operations are grouped by area in fields (eng.Customers.Create,
// eng.Quotes.Execute, eng.Cards.Create, ...), each the service of the area
// package that owns it, bound to the handle when the handle is made, so no
// type carries more than a couple of dozen methods and each group is
// documented where its rules are (go doc ./quotes Service). Engine itself
// keeps what spans areas: due work, dead letters, the clock and the store.
type Engine struct {
	h *engine.Handle

	// Customers creates and verifies customers (KYC/KYB), checks their
	// contact details, imports them in bulk and serves the end-user terms
	// (package customers).
	Customers customers.Service
	// Documents stores the verification documents of customers and
	// beneficial owners (package customers).
	Documents customers.Documents
	// Accounts serves internal and external accounts, beneficiary trust
	// and ownership proofs (package accounts).
	Accounts accounts.Service
	// Quotes prices and executes quotes and answers exchange rates
	// (package quotes).
	Quotes quotes.Service
	// Transactions reads transactions, decides incoming payments, cancels
	// payments in flight and runs the deprecated transfers (package
	// quotes).
	Transactions quotes.Transactions
	// Lookups resolves receivers and lists the directories (package
	// quotes).
	Lookups quotes.Lookups
	// Platform serves the platform configuration and API tokens (package
	// platform).
	Platform platform.Service
	// Webhooks lists, redelivers and tests webhook deliveries (the
	// kernel's outbox, internal/engine).
	Webhooks history.Webhooks
	// Ledger reads the double-entry ledger every movement of money is
	// booked in: its accounts' balances and a record's journal
	// (internal/engine/ledger_read.go).
	Ledger ledger.Ledger

	// Rails is where rails report the outcomes of payments (package
	// quotes; the contract is package rails).
	Rails quotes.Rails
	// Cards issues and manages cards and runs the sandbox card network
	// (package cards).
	Cards cards.Service
	// Agents manages agents and runs their actions under their policies
	// (package agents).
	Agents agents.Service
	// Stablecoins links provider accounts, registers tokens, and mints and
	// burns them (package stablecoins).
	Stablecoins stablecoins.Service
	// Invitations creates, claims and cancels UMA invitations (package
	// quotes/invitations).
	Invitations quotes.Invitations
	// Crypto estimates crypto withdrawal fees (package quotes).
	Crypto quotes.Crypto
	// SCA serves Strong Customer Authentication: factors, logins and
	// resets (package customers) and quote authorizations (package
	// quotes).
	SCA SCA
	// Sandbox exports, imports and resets the sandbox's state and moves its
	// test clock (this package, sandbox_state.go), and runs the sandbox
	// simulations of packages accounts and quotes.
	Sandbox Sandbox
	// Wallets serves embedded-wallet credentials, sessions, delegated keys
	// and signed flows (package wallets).
	Wallets wallets.Service
}

// newEngine returns an engine on h with its area groups bound to h.
func newEngine(h *engine.Handle) *Engine {
	return &Engine{h: h,
		Customers: customers.NewService(h), Documents: customers.NewDocuments(h), Accounts: accounts.NewService(h), Quotes: quotes.NewService(h),
		Transactions: quotes.NewTransactions(h), Lookups: quotes.NewLookups(h), Platform: platform.NewService(h), Webhooks: history.New(h), Ledger: ledger.New(h),
		Rails: quotes.NewRails(h), Cards: cards.NewService(h), Agents: agents.NewService(h), Stablecoins: stablecoins.NewService(h),
		Invitations: quotes.NewInvitations(h), Crypto: quotes.NewCrypto(h), SCA: SCA{customers.NewSCA(h), quotes.NewAuthorizations(h)}, Sandbox: newSandbox(h), Wallets: wallets.NewService(h),
	}
}

// New validates cfg, registers every area with the kernel (their tables
// and indexes, due work, intent kinds and delivery hooks, with cfg's ports
// and the hooks by which one area calls another), seeds the platform
// configuration on an empty store and starts the background workers
// (webhook delivery, due work and intent hand-overs). Close stops them.
func New(cfg Config) (*Engine, error) {
	if cfg.Store == nil {
		return nil, errors.New("payments: Config.Store is required")
	}
	if cfg.IdempotencyRetention < 0 {
		return nil, errors.New("payments: Config.IdempotencyRetention must not be negative")
	}
	if cfg.CardLimits.MaxLive < 0 || cfg.CardLimits.PerCardholder < 0 {
		return nil, errors.New("payments: Config.CardLimits must not be negative")
	}
	if cfg.IdempotencyRetention == 0 {
		cfg.IdempotencyRetention = 24 * time.Hour
	}
	cfg.Retry = cfg.Retry.WithDefaults()
	if cfg.EventHistoryRetention == 0 {
		cfg.EventHistoryRetention = DefaultEventHistoryRetention
	}
	e := engine.New(engine.Config{Store: cfg.Store, Notifier: cfg.Notifier, Now: cfg.Now, NewUUID: cfg.NewUUID,
		Logger: cfg.Logger, Sandbox: cfg.Sandbox, Retry: cfg.Retry,
		IdempotencyRetention: cfg.IdempotencyRetention, EventHistory: cfg.EventHistory,
		EventHistoryRetention: cfg.EventHistoryRetention, Observer: cfg.Observer})
	if err := e.Register(context.Background(), areas(e, cfg)...); err != nil {
		return nil, err
	}
	if err := platform.NewService(e).Seed(context.Background(), cfg.Platform); err != nil {
		return nil, err
	}
	e.Run()
	return newEngine(e), nil
}

// areas are the declarations of every area, in the order their due work
// runs.
func areas(e *engine.Handle, cfg Config) []engine.AreaDef {
	openAccounts := func(t *engine.Txn, owner string, currencies []string) error {
		_, err := accounts.OpenInternal(t, owner, currencies)
		return err
	}
	return []engine.AreaDef{
		history.Area(e), // the event history's retention, a pass run first as the kernel's was
		platform.Area(e, platform.Options{Seed: cfg.Platform, OpenAccounts: openAccounts}),
		customers.Area(e, customers.Options{KYC: cfg.KYC, Codes: cfg.Codes, SCAPasskeys: cfg.SCAPasskeys,
			OpenAccounts: openAccounts, ProvisionWallet: wallets.Provision,
			ContactChanged: func(t *engine.Txn, r *customers.Record, oldEmail, oldPhone string, in customers.CustomerInput) error {
				_, err := wallets.ContactChange(t, r, oldEmail, oldPhone, in, nil)
				return err
			}}),
		quotes.Area(e, quotes.Options{Rail: cfg.Rail, Rates: cfg.Rates, Directory: cfg.Directory, IncomingApproval: cfg.IncomingApproval,
			WalletPayload: wallets.QuotePayload, CheckWalletSignature: wallets.CheckQuoteSignature}),
		invitations.Area(),
		lookups.Area(lookups.Options{Directory: cfg.Directory, Rate: quotes.Rate}),
		accounts.Area(e, accounts.Options{Rail: cfg.Rail, SkipCheckDigits: cfg.SkipCheckDigits}),
		cards.Area(e, cards.Options{Issuer: cfg.CardIssuer, Limits: cfg.CardLimits}),
		stablecoins.Area(e, cfg.Stablecoins),
		agents.Area(),
		wallets.Area(e, wallets.Options{RelyingParty: cfg.WalletRelyingParty, OIDCKeys: cfg.OIDCKeys}),
	}
}

// SCA groups the Strong Customer Authentication operations (the reference's
// tag Strong Customer Authentication): the customers' factors
// and their reset, login sessions and security events (the customers
// area), and the authorization of the quotes whose challenges they answer
// (the quotes area). Every operation answers CONFLICT for a customer
// outside an SCA region (KYCProvider.SCARequired).
type SCA struct {
	customers.SCA
	quotes quotes.Authorizations
}

// Authorize completes the SCA challenge of a quote awaiting authorization
// (package quotes, Authorizations.Authorize).
func (s SCA) Authorize(ctx context.Context, id string, p customers.ScaAuthorization) (*quotes.Quote, error) {
	return s.quotes.Authorize(ctx, id, p)
}

// Resend sends a quote's SCA challenge again (package quotes,
// Authorizations.Resend).
func (s SCA) Resend(ctx context.Context, id string) error { return s.quotes.Resend(ctx, id) }

// Close stops the background workers. It does not close the Store, which the caller
// owns. Events not yet delivered stay in the outbox for the next start.
func (e *Engine) Close() error { return e.h.Close() }

// Store returns the engine's store (for invariant checks and tooling).
func (e *Engine) Store() engine.Store { return e.h.Store }

// Now returns the engine's clock reading in UTC, to the millisecond.
func (e *Engine) Now() time.Time { return e.h.Now() }

// ProcessDue runs the asynchronous work that is due on the engine's clock
// (settlement outcomes, expiries, timeouts, sandbox liveness checks,
// resumed bulk imports, payments still to be handed to the rail) and
// returns how many items moved. Each item applies in its own transaction:
// one that fails is retried with backoff and, after its last attempt,
// parked in the dead letters (DeadLetters) with its reason; it never holds
// up another item. Background workers run it every second (the rail's part
// on a worker of its own); tests that advance a sandbox clock call it to
// move on at once.
func (e *Engine) ProcessDue(ctx context.Context) (int, error) { return e.h.ProcessDue(ctx) }

// DeadLetters lists the due items that kept failing, oldest key first, for
// operators to inspect (see also the outbox's dead events).
func (e *Engine) DeadLetters(ctx context.Context) ([]engine.DeadLetter, error) {
	return e.h.DeadLetters(ctx)
}

// Observer returns Config.Observer, nil when none was set: a server's HTTP
// layer reports its requests to it (package httpapi).
func (e *Engine) Observer() Observer { return e.h.Observer() }

// Backlog counts the work waiting in the engine, reading at most limit
// entries of each table it counts (1000 when limit <= 0): for gauges
// collected when a monitor asks (telemetry/prommetrics), not for a hot
// path.
func (e *Engine) Backlog(ctx context.Context, limit int) (Backlog, error) {
	return backlog.Count(ctx, e.h, limit)
}

// WithIdempotency returns a handle on the same engine whose write
// operations are carried out at most once for k.Key within
// Config.IdempotencyRetention.
//
// The first operation made through the handle writes its answer under the
// key in the operation's own store transaction, so the answer is durable
// exactly when the operation is. Repeating the request (a new handle with
// the same Scope, Key and Request, making the same calls) returns that
// answer without running the operation again, even after a crash; Replayed
// then reports true. The same key with another Request is CONFLICT and
// changes nothing. A request that never committed (it failed, or the
// process died before commit) simply runs when retried. A handle is meant
// for one request: its n-th write operation is matched with the n-th of
// the first request. An empty key returns e unchanged; a key longer than
// MaxIdempotencyKeyLength is INVALID_INPUT.
func (e *Engine) WithIdempotency(k engine.Idempotency) (*Engine, error) {
	h, err := e.h.WithIdempotency(k)
	if err != nil || h == e.h {
		return e, err
	}
	return newEngine(h), nil
}

// Replayed reports whether the last write operation made through this
// handle returned a recorded answer instead of running.
func (e *Engine) Replayed() bool { return e.h.ReplayedLast() }
