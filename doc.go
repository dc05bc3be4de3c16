// Package payments is an embeddable payments platform: customers and their
// verification, internal and external accounts on a double-entry ledger,
// quotes and transactions, cards, stablecoins, agents, embedded wallets and
// webhooks, behind a small set of ports.
//
// A program imports this package and the adapters it uses (a store such as
// storage/memstore, and httpapi, webhooks or sandbox as needed), never an
// area package: every name it needs is here, the areas' own under the names
// of aliases.go (payments.CustomerProfile is customers.Profile,
// payments.QuoteRequest is quotes.Request). Example_embedSandbox is such a
// program, from creating the engine to reading its webhooks:
//
//	eng, err := payments.New(payments.Config{Store: memstore.New()})
//	if err != nil { ... }
//	defer eng.Close()
//	c, err := eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
//		Currencies: []string{"USD"}, Profile: payments.CustomerProfile{FullName: "Jane Doe"}, ...})
//	q, err := eng.Quotes.Create(ctx, payments.QuoteRequest{...})
//
// The sandbox package builds a ready-made engine for tests (sandbox.New),
// and httpapi serves the REST surface over any Engine.
//
// # The facade
//
// This package is the one a program imports, and it holds little code of
// its own. Engine (payments.go) carries the operations in one field per
// group (eng.Customers, eng.Quotes, eng.Cards, ...), each the service of the
// area package that owns it; Config is the plain struct of ports and
// settings, and New validates it, registers every area with the kernel
// (its tables and indexes, due work, intent kinds and hooks, wired to one
// another where an area calls another) and starts the background workers.
// WithIdempotency returns a handle whose writes run at most once per key.
// The Engine keeps only what spans areas: due work and dead letters, the
// clock, the store, and the sandbox's state and clock controls
// (eng.Sandbox, sandbox_state.go). Brand (brand.go) renames the wire names
// that carry the platform maker's word, for the adapters.
//
// Most other names are aliases (aliases.go): the areas' vocabulary, ports
// and errors under the names programs have always used, so payments.Quote
// is quotes.Quote, payments.QuoteRequest is quotes.Request, payments.Quotes
// is quotes.Service, and payments.ErrNotFound and payments.CodeOf are the
// kernel's. The area packages are where to read how each area works.
//
// # Areas
//
// Each area package owns its vocabulary, its pure rules (callable without
// a store) and its operations; go doc ./quotes is the place to read how
// quotes work.
//
//	package      Engine fields                      what it owns
//	platform     Platform                           configuration, API tokens, permissions
//	customers    Customers, Documents, SCA          customers, KYC/KYB, documents, beneficial owners,
//	                                                contact codes, bulk import, terms, SCA factors and logins
//	accounts     Accounts                           internal and external accounts, identifiers,
//	                                                beneficiary trust, ownership proofs
//	quotes       Quotes, Transactions, Lookups,     pricing, quotes, transactions, settlement, transfers,
//	             Rails, Invitations, Crypto, SCA    rates, lookups, incoming approval, invitations
//	cards        Cards                              cards, their state machine and limits, the card network
//	stablecoins  Stablecoins                        provider links, registered tokens, mints and burns
//	agents       Agents                             agents, their policies, actions and approvals
//	wallets      Wallets                            embedded-wallet credentials, sessions, signed requests
//
// Webhooks is the kernel's (internal/engine): the outbox's deliveries,
// their history and redelivery. SCA joins two areas: the customers' factors
// and logins, and the authorization of the quotes they answer.
//
// Below the areas are the leaves: money (currencies, minor units, rates,
// balanced postings), validate (field errors) and walletauth (wallet
// signatures and stamps, passkeys, OIDC tokens, HPKE). rails holds the contract between the engine and the
// rails that move money outside it. Dependencies point down: an area
// imports the kernel, the leaves and the areas below it (wallets above
// cards, cards and agents above quotes, quotes and stablecoins above
// accounts, accounts above customers, customers above platform), and only
// the adapters (storage/..., sandbox, httpapi, webhooks, dashboard,
// examples) import this package. TestImports_DependencyDirection keeps it
// so.
//
// # Ports
//
// The Engine talks to the world through small interfaces, each owned by
// the area that calls it and aliased here: the Store (storage/memstore,
// storage/boltstore, storage/pgstore; storage/storetest is the suite they
// pass) and the Notifier of the kernel; the Rail that moves money outside
// the platform (package rails documents the contract, rails/railtest checks
// it); the KYCProvider that decides verifications and the CodeSender that
// delivers one-time codes (customers); the RateSource and Directory
// (quotes); the CardIssuer (cards) and the StablecoinProvider
// (stablecoins). Every port but the Store may be left nil, and Config says
// what nil means for each: most have a working default (a rail that
// completes every payment, a KYC provider that leaves verification to an
// operator), while a nil CardIssuer leaves the card operations
// NOT_IMPLEMENTED. Optional capabilities are separate interfaces found by type
// assertion: Puller (a rail that collects), CardSimulator (an issuer with a
// sandbox network), Claimer (a store shared by several processes).
//
// # The kernel
//
// How one operation runs is the kernel's, in internal/engine, which no
// program imports: the transaction with its typed reads and writes, index
// upkeep, events and intents; the store port; idempotency; lists, indexes
// and cursors; ledger posting and the ledger check; due work and dead
// letters; the outbox and its delivery worker; claims among processes; the
// error model and its code-to-status table. It names no area: areas
// declare what they keep and run, and New registers them.
//
// # How an operation runs
//
// Every write operation validates its input (every bad field at once, in
// one *Error), gathers what it needs from the world before its transaction
// (rates, lookups, the KYC provider's decision), then runs one store
// transaction that reads state, decides with the area's pure rules and
// writes everything the decision implies: records, index entries, balanced
// ledger postings, outbox events, intents and the idempotency record with
// its answer. Transaction functions do no I/O and may be run more than once
// by a store. After commit, intents are handed over (payments to the rail,
// codes to the CodeSender) and events delivered, at least once, each on
// its own worker. The package documentation of internal/engine and
// ARCHITECTURE.md, beside this file, give the whole model.
//
// # Idempotency
//
// Engine.WithIdempotency returns a handle whose write operations run at most
// once per key: the same key and request replay the recorded answer, another
// request is CONFLICT, and a request that never committed runs when retried.
// This holds across crashes, because the key is written in the operation's
// own transaction.
//
// # Lists
//
// A list method returns one Page (Data, HasMore, NextCursor) for the
// ListParams it is given. Beside each list method M of every group is MAll,
// with M's parameters, returning an iter.Seq2 that walks every page from p
// on (All is the helper under them):
//
//	for c, err := range eng.Customers.ListAll(ctx, payments.CustomerFilter{}, payments.ListParams{}) {
//		if err != nil {
//			return err // a page failed; the walk ends here
//		}
//		fmt.Println(c.ID)
//	}
//
// # Events
//
// Every state change the platform is told about is an Event written in
// the change's transaction and delivered after commit to the Notifier
// (Config.Notifier; package webhooks posts them signed to the configured
// webhookEndpoint). Each type the engine emits is a constant of the area
// that emits it, re-exported here: EventOutgoingPaymentCompleted,
// EventCustomerKYCApproved, EventCardTransactionSettled, ... . The data is
// the record the event announces, as the API shows it; one function per
// kind of record decodes it and refuses an event of another type:
// TransactionOf, CustomerOf, VerificationOf, BulkJobOf, InternalAccountOf,
// ExternalAccountOf, CardOf, CardTransactionOf, AgentActionOf and
// InvitationOf.
//
//	notify := payments.NotifierFunc(func(ctx context.Context, ev payments.Event) error {
//		switch ev.Type {
//		case payments.EventOutgoingPaymentCompleted, payments.EventOutgoingPaymentFailed:
//			tx, err := payments.TransactionOf(ev)
//			...
//		}
//		return nil
//	})
//
// # Money
//
// Amounts are int64 minor units, priced in a wider type and range-checked
// before anything is stored (quotes). Every movement is a balanced entry
// posted in the operation's transaction; no platform account goes negative
// except by an overdraft entry booking a debt (a spent fee or deposit that
// came back). CheckLedger verifies the whole journal.
//
// # Due work and rails
//
// Timers (settlement outcomes announced for later, quote expiries, approval
// windows, liveness checks) are per-item due work: each applies in its own
// transaction, is retried with backoff and finally parked in DeadLetters.
// Deadlines are judged by due time, not by when a worker ran. Rails report
// outcomes through Engine.Rails.Report, applied once per rail reference.
package payments

// aliases.go is written by genaliases from internal/genaliases/aliases.txt:
// add a re-exported name there and run go generate.
//go:generate go run ./internal/cmd/genaliases
