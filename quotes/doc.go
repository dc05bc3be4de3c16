// Package quotes is the money-movement area of the platform: it prices
// transfers into quotes, executes them into transactions, settles those
// transactions with the rails, and answers the reads around them (exchange
// rates, receiver lookups, the directory lists, crypto withdrawal fees,
// UMA invitations and incoming-payment approval).
//
// The root package payments re-exports this vocabulary (payments.Quote is
// Quote, payments.QuoteRequest is Request, payments.Quotes is Service, ...)
// and wires the area in payments.New; most programs reach it as eng.Quotes,
// eng.Transactions, eng.Lookups, eng.Rails, eng.Invitations and eng.Crypto.
//
// # Vocabulary and rules
//
// A Request asks to move LockedCurrencyAmount from a Source (an internal
// account, an external account that supports direct pull, or a payment the
// payer makes later: REALTIME_FUNDING) to a Destination (an internal or
// external account, or a UMA address resolved by a Lookup). Pricing turns
// it into a Quote: a locked exchange rate, the fees and both totals, valid
// for TTL(rail). Every quote carries an OUTGOING Transaction from the
// start: the record that Transactions reads and the payment webhooks carry.
// Incoming
// payments (sandbox receipts, transfer-in pulls) are transactions without a
// quote, and card transactions (CardTransaction, written by package cards)
// are listed with them. These records, their words (SourceType, TxType,
// PaymentRail, ...), their state machines and their JSON codecs are
// package quotes/records, a leaf this package re-exports under the names
// it has always used (quotes.Quote is records.Quote, ...): the areas above
// read the records through it, this package stores, moves and settles
// them.
//
// The rules are pure functions, callable without a store:
//
//   - Compute is the amount, fee and rate arithmetic of a quote. The
//     exchange rate is fee-exclusive and counts sending-currency units per
//     one receiving-currency unit: (totalSendingAmount - feesIncluded),
//     converted at the rate, gives totalReceivingAmount. Each fee part is
//     rounded half up on its own; the receiving amount is rounded down, so
//     the receiver is never promised more than was paid for. Every product
//     is exact (math/big) and range-checked against MaxAmount before it is
//     returned, and nothing loops on an input value: a quote whose figures
//     do not fit is refused (ErrRange, ErrTooSmall, ErrRate, ErrFees), never
//     wrapped around.
//   - TTL is how long a quote keeps its rate on a rail.
//   - Status.Check and TxStatus.Check (package quotes/records) are the
//     quote and transaction state machines; every save goes through them, so no code path can move a
//     payment other than they allow.
//   - Settlement.CompletionLegs and Settlement.ReturnLegs are the ledger
//     legs of a payment that completes and of one that comes back.
//   - Network and Networks describe the crypto networks a withdrawal uses.
//
// # How an operation runs
//
// Each write operation runs as ARCHITECTURE.md describes ("How one
// operation runs"): validate every field at once
// (INVALID_INPUT naming each), then gather what the outside world must say
// before any write transaction (the exchange rate through the RateSource
// and its RateCacheTTL cache, a receiver from the Directory, the secrets of
// an SCA challenge, record ids), then run one store transaction: each
// operation is declared as an engine.Op and carried out by engine.Run,
// which gathers in Prefetch, outside every transaction. That transaction
// reads state, decides with the pure rules
// above and writes everything the decision implies: the quote and
// transaction records with their index entries, balanced ledger entries,
// outbox events, rail intents and the idempotency record with the answer.
// Transaction functions do no I/O and may be run more than once by a store,
// so they start again from the drafts and values fixed before the
// transaction.
//
// Idempotency is part of the operation: on a handle from
// Engine.WithIdempotency, a retry with the same key and request replays the
// recorded answer (engine.Run answers it before any rate is fetched), a
// retry with another request is CONFLICT, and a request that never
// committed simply runs. Refusals that must still commit their writes (a
// quote found expired, a failed SCA attempt counted) are returned as
// engine.Keep(err) and recorded as the answer; any other error rolls the
// whole operation back.
//
// Concurrency is left to the store, whose transactions are serializable
// (one writer, SERIALIZABLE with retry, or row locks): of two concurrent
// executions of one quote one commits and the other, run again, reads the
// quote PROCESSING and answers CONFLICT, so a quote moves money once.
// Payments from one account contend on its balance rows; an execution names
// them up front (its Op.Contended) so that a store can lock them before
// the first attempt instead of retrying.
//
// # Settlement, rails and due work
//
// Executing a payment to anything but an internal account writes a send
// intent (a pull intent for a pull-funded quote or a transfer-in). After
// commit the engine hands it to the configured rails.Rail (Send, or
// rails.Puller's Pull), at least once and keyed by the payment id. The rail
// reports outcomes through Rails.Report, each applied once per payment id
// and rail reference in its own transaction. An outcome the rail dates in
// the future (the sandbox rail's six-minute payout) waits as due work and
// is applied when its time comes. That boundary (the intents, the reports
// and the waiting outcomes, with their tables) is package quotes/railside,
// below this one: Area registers its state, tables, intents and due work,
// and gives it the two functions through which an outcome reaches its
// payment (txStored and settle); what an outcome does to the quote, the
// transaction and the ledger (applyStep, settlePull, settleTransferIn) is
// decided here.
//
// Due work is per item, each in its own transaction: settlement outcomes,
// quote expiries (a PENDING quote becomes EXPIRED, one whose SCA challenge
// lapsed FAILED with SCA_NOT_COMPLETED), delayed sandbox receipts, and
// approval windows that close (PAYMENT_APPROVAL_TIMED_OUT). Deadlines are
// judged by due time, not by when a worker ran: operations that depend on
// one (Execute, Authorize, Sandbox.Send, Transactions.Cancel and Decide)
// apply what is already due first, in their own transaction.
//
// # Money
//
// Every movement is one balanced ledger entry posted in the operation's
// transaction. Executing moves the sending total from the source to its
// held sub-account (INSUFFICIENT_FUNDS when the balance does not cover
// it); a pull-funded quote waits in inflight:<transaction> once the rail
// collected it. Completion pays the platform's fee to its internal account,
// the service's fee to external:service-fees and the net amount to the
// destination, through external:fx when the currency changes. A failure
// refunds the hold to where the money came from. A bank return after
// completion runs every leg backwards as an overdraft entry: a platform
// that already spent its fee bears the shortfall as a negative balance; the
// sender is refunded in full. A pull returned after its payout left is the
// customer's debt (external:receivable:<customer>), and a returned
// transfer-in may leave the customer's internal account negative. No
// system account ever hides a shortfall.
//
// # Events
//
// Transactions announce each status they reach as
// OUTGOING_PAYMENT.<status> or INCOMING_PAYMENT.<status> (PENDING,
// PENDING_AUTHORIZATION, PROCESSING, COMPLETED, FAILED, EXPIRED and, for
// refunds, REFUND_PENDING, REFUND_COMPLETED, REFUND_FAILED), with the
// transaction as data. A changed internal balance emits
// INTERNAL_ACCOUNT.BALANCE_UPDATED (CreditEvent); a claimed invitation
// INVITATION.CLAIMED. INCOMING_PAYMENT.PENDING doubles as the approval
// request of Options.IncomingApproval: its delivery's HTTP answer decides
// the payment (see incoming_approval.go). Each type is a constant
// (EventOutgoingPaymentCompleted, ..., events.go), the one a call site
// passes to SaveTransaction; TransactionOf and InvitationOf decode the
// data.
//
// # Ports and hooks
//
// The area owns two ports, each with a working default: RateSource
// supplies exchange rates (nil: same-currency quotes only) and Directory
// knows receivers and lists beyond the platform (nil: nobody). It also
// uses rails.Rail (nil: rails.Default). payments.New passes them in
// Options, with two hooks that package wallets, which sits above this one,
// implements: Options.WalletPayload (the payloadToSign of a quote paid from
// an embedded wallet) and Options.CheckWalletSignature (its check on
// execution). Every port is called outside write transactions; errors it
// returns reach the caller as is (an *engine.Error keeps its code).
//
// # Functions for other areas
//
// Areas above quotes (agents, cards, wallets) act inside their own
// transaction with these functions, which take the caller's *engine.Txn:
// Get and GetTransaction read a quote or transaction (and remember the
// status read, for the state machine); InsertTransaction and
// SaveTransaction write one; Execute and ExpireIfDue move a quote; TransferIn
// starts a pull; CreditEvent announces a balance. Create and ExecuteWith run
// a whole operation for a caller that needs its own answer (an agent's
// action, a wallet-signed execution); Rate reads the cached rate before a
// transaction.
//
// # Use
//
// Through the root facade (see the root package's Example functions and
// package sandbox for a ready engine):
//
//	q, err := eng.Quotes.Create(ctx, payments.QuoteRequest{
//		Source:               payments.QuoteSource{SourceType: payments.SourceAccount, AccountID: from},
//		Destination:          payments.QuoteDestination{DestinationType: payments.DestinationAccount, AccountID: to},
//		LockedCurrencySide:   payments.LockedSending,
//		LockedCurrencyAmount: 10_000, // minor units: 100.00
//	})
//	if err != nil {
//		return err // payments.CodeOf(err) is the API's code
//	}
//	q, err = eng.Quotes.Execute(ctx, q.ID) // PROCESSING; the rail reports the rest
//
// The pure rules need nothing but their inputs:
//
//	amt, err := quotes.Compute(quotes.Input{LockedSide: quotes.Sending, Amount: 10_000,
//		Rate: decimal.RequireFromString("0.92"), SendingDecimals: 2, ReceivingDecimals: 2,
//		Fees: quotes.Fees{PlatformFixed: 50}})
package quotes
