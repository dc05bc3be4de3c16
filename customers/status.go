package customers

import "fmt"

// Status is the verification status of a customer (kycStatus for
// individuals, kybStatus for businesses; the same enum). It is a
// pure value: its methods decide moves and permissions without a store.
type Status string

// Verification statuses.
const (
	Unverified Status = "UNVERIFIED"
	Pending    Status = "PENDING"
	Approved   Status = "APPROVED"
	Rejected   Status = "REJECTED"
	Hold       Status = "HOLD"
)

// Final reports whether s is terminal: APPROVED and REJECTED never change
// through verification again.
func (s Status) Final() bool { return s == Approved || s == Rejected }

// statusMoves is the verification state machine: an unverified customer
// is submitted (PENDING) or resolved at once by the provider; a pending or
// held one is decided, held, or sent back for more data (UNVERIFIED);
// APPROVED and REJECTED are final.
var statusMoves = map[Status][]Status{
	Unverified: {Pending, Approved, Rejected, Hold},
	Pending:    {Unverified, Approved, Rejected, Hold},
	Hold:       {Unverified, Pending, Approved, Rejected},
}

// Check reports an error unless a customer may move from s to next.
// Staying is always allowed, and a new customer ("") may start anywhere.
// The error is a plain one, not a coded *engine.Error: a refused move is
// a provider's mistake, not the client's, and surfaces as INTERNAL_ERROR.
func (s Status) Check(next Status) error {
	if s == next || s == "" {
		return nil
	}
	for _, n := range statusMoves[s] {
		if n == next {
			return nil
		}
	}
	return fmt.Errorf("customers: a verification status cannot move from %s to %s", s, next)
}

// MaySend reports whether a customer in status s may send money from its
// accounts: any status but REJECTED and HOLD. Incoming money credits a
// customer whatever its status.
func (s Status) MaySend() bool { return s != Rejected && s != Hold }
