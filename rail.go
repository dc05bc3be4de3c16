package payments

import "context"

// Rail moves money between the platform and the world outside it: it
// delivers outgoing payments to external accounts and UMA addresses and
// reports how they settle. The sandbox package implements one steered by the
// spec's account suffixes and UMA test addresses; real rail adapters live in
// package rails.
//
// The money-movement area refines this port.
type Rail interface {
	// Name identifies the rail in ledger account names and logs.
	Name() string
	// Send starts delivery of an outgoing payment. It must not block on
	// settlement: outcomes arrive through the engine's settlement calls.
	Send(ctx context.Context, p OutgoingPayment) error
}

// OutgoingPayment is what a Rail is asked to deliver. The money-movement area
// fills it in.
type OutgoingPayment struct {
	TransactionID string
	Currency      string
	Amount        int64
}

// defaultRail is the rail of an engine configured without one.
type defaultRail struct{}

func (defaultRail) Name() string { return "default" }

func (defaultRail) Send(context.Context, OutgoingPayment) error { return nil }
