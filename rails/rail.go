package rails

import (
	"context"
	"time"
)

// Rail moves money between the platform and the world outside it: it checks
// new external accounts the way the payment networks would, and delivers
// outgoing payments. The rails package documents the contract and holds its
// conformance suite (rails/railtest); the sandbox package implements a rail
// steered by the sandbox's account suffixes (sandbox.Rail).
//
// The engine never calls CheckAccount, Send or Pull inside a store
// transaction (an Instant rail's pure Outcomes is the exception).
// CheckAccount is consulted before the transaction that creates an external
// account. Send is an intent: the transaction that executes a payment
// records it, and after commit the engine hands the payment to Send, at
// least once (again after a crash or an error), so Send must be idempotent
// on OutgoingPayment.ID. The rail reports what became of the payment through
// the Reporter it is given or, later, through Engine.Rails.Report (from a
// webhook of its network, a poller, ...): one entry point, idempotent on the
// report's reference.
//
// A nil Config.Rail gives the engine's default rail, which checks nothing
// (beneficiary names UNSUPPORTED, no micro-entry validation) and completes
// every payment at once.
type Rail interface {
	// Name identifies the rail in ledger account names and logs.
	Name() string
	// CheckAccount runs the network checks on a new external account:
	// beneficiary-name verification and bank-account validation. An *Error
	// rejects the account (such as INVALID_BANK_ACCOUNT).
	CheckAccount(ctx context.Context, a *ExternalAccount) (AccountCheck, error)
	// Send hands an outgoing payment to the rail. A nil error means the rail
	// owns the payment: it reports its outcome through r, now or later. An
	// error means the payment was not taken; the engine tries again with
	// backoff and, after its last attempt, parks the payment in the dead
	// letters (Engine.DeadLetters) for an operator, still PROCESSING: a
	// payment the rail may have received is never failed by guesswork.
	// A report for p made through r while Send runs also says the rail
	// took p, whatever Send returns afterwards: p is not handed over again.
	Send(ctx context.Context, p OutgoingPayment, r Reporter) error
}

// Puller is the optional capability of a Rail that pulls money from
// external accounts (ACH debits), used by transfer-in and by quotes funded
// by a direct pull. Pull follows Send's contract: called after commit, at
// least once, idempotent on PullRequest.ID, outcomes reported through r
// (COMPLETED collected the money, FAILED refused the pull, RETURNED takes a
// collected one back). A rail without it completes every pull at once.
type Puller interface {
	Pull(ctx context.Context, p PullRequest, r Reporter) error
}

// Instant is the optional capability of a Rail whose outcomes for a payout
// are decided by the payment alone, in the process, the moment it is made: a
// simulated rail such as the sandbox's, never one that reaches a network.
// The engine asks Outcomes inside the transaction that sends the payment and
// applies the reports there, as if the rail had reported them through Send's
// Reporter at once: no intent is written, Send is not called, and the
// payment's outcome commits with its execution. Outcomes is a pure function
// of p: it may be called more than once (the transaction may run again), and
// must not change p. Each report names p.ID; one whose At is later than
// p.SubmittedAt waits as due work, as any report does; one that applies at
// once is recorded by the payment's state rather than marked applied (a
// payout's steps apply only from the state before them), so Report given
// it again changes nothing. Pulls (Puller) are handed over after commit
// whatever the rail.
type Instant interface {
	Rail
	Outcomes(p OutgoingPayment) []Report
}

// Reporter is the entry point through which a rail reports what became of
// a payment it was given. Engine.Rails implements it.
type Reporter interface {
	// Report applies one outcome. It is idempotent: a report whose
	// (PaymentID, Reference) was applied before changes nothing and returns
	// nil. An unknown PaymentID is TRANSACTION_NOT_FOUND.
	Report(ctx context.Context, r Report) error
}

// RailOutcome is what a rail reports about a payment.
type Outcome string

// Rail outcomes.
const (
	Accepted  Outcome = "ACCEPTED"  // taken by the network; nothing moves
	Completed Outcome = "COMPLETED" // delivered (a payout) or collected (a pull)
	Failed    Outcome = "FAILED"    // not delivered; the sender is refunded
	Returned  Outcome = "RETURNED"  // delivered, then sent back; the sender is refunded
)

// RailReport is one outcome of a payment, as a rail reports it.
type Report struct {
	// PaymentID is OutgoingPayment.ID or PullRequest.ID.
	PaymentID string `json:"paymentId"`
	// Reference is the rail's own reference of this outcome (its event or
	// trace id). Reports are applied once per (PaymentID, Reference); empty
	// means the outcome itself is the reference.
	Reference string  `json:"reference,omitempty"`
	Outcome   Outcome `json:"outcome"`
	// At is when the outcome takes effect on the engine's clock. Zero means
	// when it is received; a future instant waits as due work, so the
	// sandbox rail can announce a payment that settles in six minutes.
	At time.Time `json:"at,omitzero"`
	// FailureReason is the transaction's failureReason (FAILED, RETURNED).
	FailureReason string `json:"failureReason,omitempty"`
	// RefundReason is the refund's reason, when the sender is refunded.
	RefundReason string `json:"refundReason,omitempty"`
	// RefundFails reports that the refund itself could not be made: the
	// money stays held (REFUND_FAILED).
	RefundFails bool `json:"refundFails,omitempty"`
}

// AccountCheck is what a rail learned about a new external account.
type AccountCheck struct {
	// BeneficiaryStatus is the name-match result (MATCHED, PARTIAL_MATCH,
	// NOT_MATCHED, UNSUPPORTED, CHECKED_BY_RECEIVING_FI, PENDING), or "".
	BeneficiaryStatus string
	// VerifiedName is the holder's name as the rail returned it, if any.
	VerifiedName string
	// ValidationPeriod is how long micro-entry validation takes; the account
	// cannot receive money before it ends (BANK_ACCOUNT_VALIDATION_PENDING).
	ValidationPeriod time.Duration
}

// OutgoingPayment is what a Rail is asked to deliver: Amount of Currency
// to an external account or a UMA address.
type OutgoingPayment struct {
	// ID identifies the payment to the rail; reports name it.
	ID            string
	TransactionID string
	Currency      string
	Amount        int64
	Rail          string
	Destination   *ExternalAccount // nil for UMA payments
	UmaAddress    string
	// Transfer marks a same-currency transfer (the deprecated POST
	// /transfer-out), which sandbox rails steer by their own table.
	Transfer bool
	// SubmittedAt is when the payment was executed on the engine's clock.
	SubmittedAt time.Time
}

// PullRequest is what a Puller is asked to collect: Amount of Currency
// from an external account.
type PullRequest struct {
	// ID identifies the pull to the rail; reports name it.
	ID            string
	TransactionID string
	From          *ExternalAccount
	Currency      string
	Amount        int64
	// SubmittedAt is when the pull was requested on the engine's clock.
	SubmittedAt time.Time
}

// Default is the rail of an engine configured without one.
type Default struct{}

func (Default) Name() string { return "default" }

func (Default) CheckAccount(context.Context, *ExternalAccount) (AccountCheck, error) {
	return AccountCheck{BeneficiaryStatus: "UNSUPPORTED"}, nil
}

func (Default) Send(ctx context.Context, p OutgoingPayment, r Reporter) error {
	return r.Report(ctx, Report{PaymentID: p.ID, Outcome: Completed})
}
