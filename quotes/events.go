package quotes

import (
	"fmt"
	"maps"
	"slices"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/invitations"
)

// The webhook events of package quotes (reference WebhookType). A payment
// event's data is the Transaction as stored after the change
// (TransactionOf); the invitation's is the Invitation (InvitationOf).
// INTERNAL_ACCOUNT.BALANCE_UPDATED, which settlement emits for the
// accounts it moves, is package accounts'
// (accounts.EventInternalAccountBalanceUpdated); card transactions are
// package cards'.
//
// The reference's INCOMING_PAYMENT.REFUND_* are never sent: nothing
// refunds an incoming payment's sender here; one that fails, or comes
// back after completing, is INCOMING_PAYMENT.FAILED.
const (
	// An executed quote's payment: PENDING when it is created or
	// executed, PENDING_AUTHORIZATION while its SCA challenge waits,
	// PROCESSING on the rail, then COMPLETED, FAILED (followed by the
	// REFUND_ events of the money held for it) or EXPIRED (a quote never
	// executed).
	EventOutgoingPaymentPending              engine.EventType = "OUTGOING_PAYMENT.PENDING"
	EventOutgoingPaymentPendingAuthorization engine.EventType = "OUTGOING_PAYMENT.PENDING_AUTHORIZATION"
	EventOutgoingPaymentProcessing           engine.EventType = "OUTGOING_PAYMENT.PROCESSING"
	EventOutgoingPaymentCompleted            engine.EventType = "OUTGOING_PAYMENT.COMPLETED"
	EventOutgoingPaymentFailed               engine.EventType = "OUTGOING_PAYMENT.FAILED"
	EventOutgoingPaymentExpired              engine.EventType = "OUTGOING_PAYMENT.EXPIRED"
	EventOutgoingPaymentRefundPending        engine.EventType = "OUTGOING_PAYMENT.REFUND_PENDING"
	EventOutgoingPaymentRefundCompleted      engine.EventType = "OUTGOING_PAYMENT.REFUND_COMPLETED"
	EventOutgoingPaymentRefundFailed         engine.EventType = "OUTGOING_PAYMENT.REFUND_FAILED"

	// An incoming payment (a deposit, an incoming UMA payment, a transfer
	// in): PENDING when it arrives (with Config.IncomingApproval, the
	// request for the platform's decision: its answer approves or rejects
	// it), then COMPLETED or FAILED (rejected, timed out, or failed on the
	// rail).
	EventIncomingPaymentPending   engine.EventType = "INCOMING_PAYMENT.PENDING"
	EventIncomingPaymentCompleted engine.EventType = "INCOMING_PAYMENT.COMPLETED"
	EventIncomingPaymentFailed    engine.EventType = "INCOMING_PAYMENT.FAILED"

	// EventInvitationClaimed is the webhook sent when an invitation is
	// claimed; its data is the claimed Invitation (package
	// quotes/invitations sends it).
	EventInvitationClaimed = invitations.EventClaimed
)

// paymentEvents are the payment events with the type of transaction each
// announces: SaveTransaction refuses to announce one with another's.
var paymentEvents = map[engine.EventType]TxType{
	EventOutgoingPaymentPending:              TxOutgoing,
	EventOutgoingPaymentPendingAuthorization: TxOutgoing,
	EventOutgoingPaymentProcessing:           TxOutgoing,
	EventOutgoingPaymentCompleted:            TxOutgoing,
	EventOutgoingPaymentFailed:               TxOutgoing,
	EventOutgoingPaymentExpired:              TxOutgoing,
	EventOutgoingPaymentRefundPending:        TxOutgoing,
	EventOutgoingPaymentRefundCompleted:      TxOutgoing,
	EventOutgoingPaymentRefundFailed:         TxOutgoing,
	EventIncomingPaymentPending:              TxIncoming,
	EventIncomingPaymentCompleted:            TxIncoming,
	EventIncomingPaymentFailed:               TxIncoming,
}

// checkPaymentEvent reports an error unless event announces a transaction
// of tx's type. Like a refused status move, a mismatch is a code path's
// mistake (INTERNAL_ERROR) and rolls the operation back.
func checkPaymentEvent(tx *Transaction, event engine.EventType) error {
	if paymentEvents[event] != tx.Type {
		return fmt.Errorf("quotes: %s does not announce the %s transaction %s", event, tx.Type, tx.ID)
	}
	return nil
}

// TransactionOf decodes the transaction an OUTGOING_PAYMENT.* or
// INCOMING_PAYMENT.* event carries, as stored after the change; another
// event is INVALID_INPUT.
func TransactionOf(ev engine.Event) (*Transaction, error) {
	return engine.DataOf[Transaction](ev, paymentEventTypes...)
}

// paymentEventTypes are the keys of paymentEvents.
var paymentEventTypes = slices.Collect(maps.Keys(paymentEvents))

// InvitationOf decodes the invitation an INVITATION.CLAIMED event carries;
// another event is INVALID_INPUT.
func InvitationOf(ev engine.Event) (*Invitation, error) {
	return engine.DataOf[Invitation](ev, EventInvitationClaimed)
}
