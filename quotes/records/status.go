package records

import "fmt"

// Status is a quote's lifecycle state (the transaction statuses of the
// reference's OUTGOING_PAYMENT webhooks).
type Status string

// Quote statuses (payments.QuotePending, ...). A quote ends COMPLETED,
// FAILED or EXPIRED; only a completed one can still move, to FAILED, when
// its payout comes back.
const (
	Pending              Status = "PENDING"
	PendingAuthorization Status = "PENDING_AUTHORIZATION"
	Processing           Status = "PROCESSING"
	Completed            Status = "COMPLETED"
	Failed               Status = "FAILED"
	Expired              Status = "EXPIRED"
)

// quoteMoves is the quote state machine: the states each state may move to.
// A quote waits (PENDING, or PENDING_AUTHORIZATION for SCA) until it is
// executed or lapses; an executed quote is PROCESSING until its payment
// completes or fails. A completed payment that the rail later returns
// fails the quote.
var quoteMoves = map[Status][]Status{
	Pending:              {PendingAuthorization, Processing, Completed, Failed, Expired},
	PendingAuthorization: {Pending, Processing, Failed, Expired},
	Processing:           {Completed, Failed},
	Completed:            {Failed},
}

// Check reports an error unless a quote may move from s to next. Staying in
// a state is always allowed.
func (s Status) Check(next Status) error {
	return check("quote", quoteMoves, s, next)
}

// TxStatus is a transaction's lifecycle state (reference
// TransactionStatus).
type TxStatus string

// Transaction statuses (payments.TxPending, ...). Card transactions carry
// the card statuses instead (CardTxStatus), outside this state machine.
const (
	TxPending              TxStatus = "PENDING"
	TxPendingAuthorization TxStatus = "PENDING_AUTHORIZATION"
	TxProcessing           TxStatus = "PROCESSING"
	TxCompleted            TxStatus = "COMPLETED"
	TxFailed               TxStatus = "FAILED"
	TxExpired              TxStatus = "EXPIRED"
	TxRejected             TxStatus = "REJECTED"
)

// txMoves is the transaction state machine. A transaction waits PENDING
// (for execution, funding, or the platform's approval of an incoming
// payment) or PENDING_AUTHORIZATION (its quote's SCA challenge), runs
// PROCESSING on the rail, and ends COMPLETED, FAILED, EXPIRED or REJECTED;
// a completed payment the rail returns later fails.
var txMoves = map[TxStatus][]TxStatus{
	TxPending:              {TxPendingAuthorization, TxProcessing, TxCompleted, TxFailed, TxExpired, TxRejected},
	TxPendingAuthorization: {TxPending, TxProcessing, TxFailed, TxExpired},
	TxProcessing:           {TxCompleted, TxFailed},
	TxCompleted:            {TxFailed},
}

// Check reports an error unless a transaction may move from s to next.
// Staying in a state is always allowed.
func (s TxStatus) Check(next TxStatus) error {
	return check("transaction", txMoves, s, next)
}

// check is the state machines' rule: from may stay, move along moves, or
// be "" (a record not read in this transaction: nothing to check against).
func check[S ~string](what string, moves map[S][]S, from, to S) error {
	if from == to || from == "" {
		return nil
	}
	for _, n := range moves[from] {
		if n == to {
			return nil
		}
	}
	return fmt.Errorf("quotes: a %s cannot move from %s to %s", what, from, to)
}
