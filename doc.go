// Package payments is an embeddable payments platform: customers and their
// verification, internal and external accounts on a double-entry ledger,
// quotes and transactions, and webhooks, behind a small set of ports.
//
//	eng, err := payments.New(payments.Config{Store: memstore.New()})
//	if err != nil { ... }
//	defer eng.Close()
//	q, err := eng.Quotes.Create(ctx, payments.QuoteRequest{...})
//
// The sandbox package builds a ready-made engine for tests (sandbox.New),
// and httpapi serves the REST surface over any Engine.
//
// # Ports
//
// The Engine talks to the world through interfaces owned here, each with a
// working default: a Store (storage/memstore, storage/boltstore,
// storage/pgstore; storage/storetest is the suite they pass), a Rail that
// moves money outside the platform (rails documents the contract,
// rails/railtest checks it), a KYCProvider that decides verifications, a
// CodeSender that delivers one-time codes, a Notifier that receives events,
// a RateSource and a Directory. Optional capabilities are separate
// interfaces found by type assertion: Puller (a rail that collects), Claimer
// (a store shared by several processes).
//
// # How an operation runs
//
// Every write operation validates its input (every bad field at once, in
// one *Error), gathers what it needs from the world before its transaction
// (rates, lookups, the KYC provider's decision), then runs one store
// transaction that reads state, decides with the pure rules of the area
// packages and writes everything the decision implies: records, index
// entries, balanced ledger postings, outbox events, intents and the
// idempotency record with its answer. Transaction functions read the clock
// and draw ids from values fixed before the transaction and do no I/O, so a
// store may run them more than once. After commit, intents are handed over
// (payments to the rail, codes to the CodeSender) and events delivered, at
// least once, each on its own worker.
//
// # Idempotency
//
// Engine.WithIdempotency returns a handle whose write operations run at most
// once per key: the same key and request replay the recorded answer, another
// request is CONFLICT, and a request that never committed runs when retried.
// This holds across crashes, because the key is written in the operation's
// own transaction.
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
//
// # Where rules live
//
// The engine's operations are grouped by area (eng.Customers, eng.Quotes,
// eng.Accounts, ...; areas.go). The rules they apply are pure functions of
// the area packages, each testable without a store; the root files are the
// transactional shell that reads state, calls them and writes the result.
//
//	area                  group                    package      rules there                             root files
//	customers, KYC/KYB    Customers, Documents     customers    validation, requirements, status machine  customers*.go, verifications.go, kyc.go, documents.go
//	accounts, ledger      Accounts                 accounts     postings, balance checks, identifiers   internal_accounts*.go, external_accounts*.go, ledger.go
//	quotes, payments      Quotes, Transactions     quotes       pricing, TTLs, status machines, legs    quotes*.go, quote_pull.go, settlement.go, transfers.go
//	rails, intents        Rails                    rails        the Rail contract and railtest          rail.go, intents.go, otp.go, due.go
//	agents                Agents                   agents       policy, permissions, limits             agents*.go
//	cards                 Cards                    cards        card state machine, limits, postings    cards*.go
//	stablecoins           Stablecoins              stablecoins  enablement, decimals, mint and burn     stablecoin*.go
//	signatures, passkeys  Accounts                 walletauth   wallet signatures, WebAuthn             ownership.go
//	embedded wallets      Wallets                  walletauth   stamps, HPKE bundles, OIDC checks       wallet*.go, auth_*.go
//	money, currencies     Quotes                   money        currencies, minor units                 rates.go
//	SCA                   SCA, Quotes              customers    factor preference, lockout, TOTP, resets  sca*.go, quotes_sca.go, external_accounts_trust.go
package payments
