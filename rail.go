package payments

import (
	"context"
	"time"
)

// Rail moves money between the platform and the world outside it: it checks
// new external accounts the way the payment networks would, delivers
// outgoing payments and reports how they settle. The sandbox package
// implements one steered by the spec's account suffixes (sandbox.Rail).
//
// A nil Config.Rail gives the engine's default rail, which checks nothing
// (beneficiary names UNSUPPORTED, no micro-entry validation) and settles
// every payment at once.
type Rail interface {
	// Name identifies the rail in ledger account names and logs.
	Name() string
	// CheckAccount runs the network checks on a new external account:
	// beneficiary-name verification and bank-account validation. An *Error
	// rejects the account (such as INVALID_BANK_ACCOUNT).
	CheckAccount(ctx context.Context, a *ExternalAccount) (AccountCheck, error)
	// Send plans the delivery of an outgoing payment. It is called inside
	// the transaction that executes the payment and must not block on the
	// network: it returns the settlement steps, which the engine applies on
	// its clock (steps due at once in the same transaction). A production
	// rail returns no steps and reports outcomes through Engine.Settle.
	Send(ctx context.Context, p OutgoingPayment) ([]SettlementStep, error)
}

// Settlement outcomes of a step.
const (
	SettleCompleted = "COMPLETED" // delivered
	SettleFailed    = "FAILED"    // not delivered; the sender is refunded
	SettleReturned  = "RETURNED"  // delivered, then sent back; the sender is refunded
)

// SettlementStep is one future state change of an outgoing payment.
type SettlementStep struct {
	After         time.Duration `json:"after"`
	Outcome       string        `json:"outcome"`
	FailureReason string        `json:"failureReason,omitempty"`
	RefundReason  string        `json:"refundReason,omitempty"`
	RefundFails   bool          `json:"refundFails,omitempty"`
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
	TransactionID string
	Currency      string
	Amount        int64
	Rail          string
	Destination   *ExternalAccount // nil for UMA payments
	UmaAddress    string
	// Transfer marks a same-currency transfer (the deprecated POST
	// /transfer-out), which sandbox rails steer by their own table.
	Transfer bool
}

// defaultRail is the rail of an engine configured without one.
type defaultRail struct{}

func (defaultRail) Name() string { return "default" }

func (defaultRail) CheckAccount(context.Context, *ExternalAccount) (AccountCheck, error) {
	return AccountCheck{BeneficiaryStatus: "UNSUPPORTED"}, nil
}

func (defaultRail) Send(context.Context, OutgoingPayment) ([]SettlementStep, error) {
	return []SettlementStep{{Outcome: SettleCompleted}}, nil
}
