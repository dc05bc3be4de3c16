package payments

import "github.com/paygrid/payments/internal/engine"

// The engine's operations are grouped by area: eng.Customers.Create,
// eng.Quotes.Execute, eng.Accounts.ListInternal, ... Each group is a small
// value bound to its engine handle by bindAreas (payments.go), so a handle
// made by WithIdempotency carries groups that run under its key. The rules
// each group applies live in the area packages (customers, accounts,
// quotes, ...); the groups are the transactional shell around them.

// Customers onboards customers and verifies them: records, KYC/KYB
// verifications and links, beneficial owners, contact verification, bulk
// import and the end-user terms.
type Customers struct{ e *engine.Handle }

// Documents stores verification documents for customers and beneficial
// owners.
type Documents struct{ e *engine.Handle }

// Accounts serves internal accounts (balances the platform holds) and
// external accounts (where money goes and comes from), with beneficiary
// trust and ownership proofs.
type Accounts struct{ e *engine.Handle }

// Quotes prices, executes and authorizes quotes, and answers exchange
// rates.
type Quotes struct{ e *engine.Handle }

// Transactions lists and reads transactions and moves money between a
// customer's own accounts (transfer in and out), with incoming-payment
// decisions, receipts and cancellation.
type Transactions struct{ e *engine.Handle }

// Lookups resolves receivers (UMA addresses and external accounts) and
// answers the directory lists: VASPs, UMA providers and discoveries.
type Lookups struct{ e *engine.Handle }

// Platform holds the platform's configuration and its API tokens.
type Platform struct{ e *engine.Handle }

// Scope says whose accounts an account operation addresses: the customers'
// (the /customers and /internal-accounts routes) or the platform's own (the
// /platform routes). An account of the other scope is NOT_FOUND.
type Scope uint8

const (
	// CustomerScope addresses the accounts of the platform's customers.
	CustomerScope Scope = iota
	// PlatformScope addresses the platform's own accounts.
	PlatformScope
)
