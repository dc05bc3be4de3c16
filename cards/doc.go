// Package cards is the debit-card area of the platform: it issues virtual
// cards bound to a cardholder's internal accounts, runs their state machine
// and reveals their details, and, in the sandbox, runs the card network
// whose authorizations, clearings, advices and returns move the money.
//
// The root package payments re-exports the vocabulary (payments.Card is
// Card, payments.Cards is Service, payments.CardAuthorization, ...) and
// wires the area in payments.New; programs reach it as eng.Cards.
//
// # Vocabulary and rules
//
// The rules are plain functions a test can call without a store, an issuer
// or a clock, so every card rule lives here, in one place:
//
//   - Transition and CheckUpdate are the card state machine:
//     ACTIVE and FROZEN move to each other and to CLOSED, CLOSED is final
//     (ErrAlreadyClosed, ErrNotMutable, ErrInvalidTransition). Provisioned
//     gives the state the issuer's answer leaves a new card in.
//   - Limits bound live cards (every state but CLOSED) per platform and per
//     cardholder (CARD_LIMIT_REACHED); closing a card frees its slot.
//   - Eligible names the currencies cards are issued in; WithinSpendLimit
//     is the per-transaction spending limit.
//   - Position and Movement are the arithmetic of a card transaction's
//     life: Authorize, FinancialAuthorize and CreditAuthorize open one;
//     Clear, Advise, Return and ReverseReturn act on it (ErrNotApplicable
//     when they do not fit). Each returns the new position and the money the
//     event moves; none reads a balance, the caller passes it in.
//
// Card transactions are transactions (quotes.CardTransaction): they are
// listed and read with the others through eng.Transactions, so their record
// and statuses belong to package quotes and TxStatus here is an alias.
//
// # How an operation runs
//
// Every operation is a declaration (engine.Op) that engine.Run carries out.
// Each write validates its request field by field (INVALID_INPUT naming
// each), asks the CardIssuer what only it knows in its Prefetch, outside
// every transaction (a new card's provisioning, a funding source's
// eligibility, a simulated network event's steering), then decides and
// writes in one store transaction: the card or card transaction, its index
// entries, the live-card counters, the ledger entry of the money moved and
// the events. On a handle with an idempotency key a retry replays the
// recorded answer; Create replays it before the issuer is asked again and
// asks for the same card id on a retry that never committed (see
// CardIssuer). Reveal is the exception: it writes an audit record only and
// is never replayed, since its answer is a bearer URL.
//
// Concurrent authorizations on one funding source are serialized by the
// store on the source's balance: each decides on the balance it read and
// the ledger refuses an overdraft, so a card never spends more than its
// source holds.
//
// Due work is per item, each in its own transaction: delayed activations
// (a card PROCESSING until the issuer's delay passes) and delayed funding
// pulls (an authorization announced once its pull confirms).
//
// # Money
//
// Every event's Movement becomes one balanced ledger entry (moveCardMoney)
// between the funding account, its held sub-account, the card network
// (external:card-network) and the funding account's receivable
// (external:card-receivable:<account>). An authorization holds its amount
// on the source; a clearing captures from the hold and pulls any excess
// from the source. The network is always paid what it settled: a pull the
// source cannot cover is booked as owed on the receivable (the
// cardholder's debt) and the transaction becomes an EXCEPTION, and a later
// credit on that transaction repays the debt before it reaches the source.
// No platform account absorbs a shortfall.
//
// # Events
//
// CARD.STATE_CHANGE on every change of a card's state (and at creation for
// a card that does not start PROCESSING),
// CARD.FUNDING_SOURCE_CHANGE when its sources are replaced,
// CARD_TRANSACTION.<status> on every change of a card transaction, and
// INTERNAL_ACCOUNT.BALANCE_UPDATED for a funding account whose available
// balance moved. events.go names each type (EventCardStateChange,
// EventCardTransactionSettled, ...) and decodes the data (CardOf,
// CardTransactionOf).
//
// # Ports and hooks
//
// CardIssuer is the port to the issuer of record and its processor; a nil
// Options.Issuer (payments.Config.CardIssuer) makes every card operation
// NOT_IMPLEMENTED. CardSimulator is the optional capability of an issuer
// with a sandbox network, found by type assertion. Options carries the
// issuer and the Limits; the area declares no hooks for areas above it.
// Get reads a card inside another area's transaction.
//
// The area stands on package quotes for the transaction records
// (quotes.InsertTransaction, quotes.GetTransaction) and balance events
// (quotes.CreditEvent), and on packages accounts and customers for the
// funding sources and the cardholder.
//
// # Use
//
// Through the root facade, on a sandbox engine (sandbox.New):
//
//	card, err := eng.Cards.Create(ctx, payments.CreateCardRequest{
//		CardholderID: customerID, Form: "VIRTUAL", FundingSources: []string{accountID}})
//	amount := int64(1500)
//	res, err := eng.Cards.Simulate(ctx, card.ID, payments.CardAuthorization, payments.CardSimulation{
//		Amount: &amount, Currency: &payments.CurrencyCode{Code: "USD"},
//		Merchant: &payments.CardMerchant{Descriptor: "COFFEE"}})
//	// res.Transaction is AUTHORIZED with 1500 held, or res.Decline says why not.
//
// The rules alone:
//
//	if err := cards.Transition(cards.Active, cards.Frozen); err != nil { ... }
//	pos, mv, err := cards.Clear(pos, 1500, available)
//	// mv.Capture moves from the hold to the network, mv.Pull from the
//	// account, mv.Shortfall from the cardholder's receivable.
package cards
