package cards

import (
	"errors"
	"fmt"
)

// State is a card's lifecycle state (reference CardState).
type State string

// Card states.
const (
	PendingKYC State = "PENDING_KYC" // cardholder has not completed KYC; cannot transact
	Processing State = "PROCESSING"  // being provisioned by the issuer
	Active     State = "ACTIVE"      // live: authorizations are decided
	Frozen     State = "FROZEN"      // paused by the platform: new authorizations declined
	Closed     State = "CLOSED"      // terminal
)

// States lists every card state, in lifecycle order.
var States = []State{PendingKYC, Processing, Active, Frozen, Closed}

// Valid reports whether s is one of States (a filter naming another is
// INVALID_INPUT).
func (s State) Valid() bool {
	for _, x := range States {
		if s == x {
			return true
		}
	}
	return false
}

// Live reports whether a card in state s occupies a live-card slot: every
// state but CLOSED does, so closing a card frees its slot.
func (s State) Live() bool { return s != Closed }

// Reason is why a card reached a terminal or non-active state (reference
// CardStateReason, with the maker's name replaced by SERVICE).
type Reason string

// State reasons.
const (
	IssuerRejected   Reason = "ISSUER_REJECTED"    // the issuer refused provisioning
	ClosedByPlatform Reason = "CLOSED_BY_PLATFORM" // closed through PATCH /cards/{id}
	ClosedByService  Reason = "CLOSED_BY_SERVICE"  // closed by the service operator
)

// Refusals of the state machine. Service.Update maps each to the API's
// code of the same name (cardRefusal).
var (
	// ErrInvalidTransition: the requested move is not one of ACTIVE ⇄
	// FROZEN or ACTIVE|FROZEN → CLOSED (INVALID_STATE_TRANSITION).
	ErrInvalidTransition = errors.New("cards: invalid state transition")
	// ErrAlreadyClosed: CLOSED was requested for a closed card
	// (CARD_ALREADY_CLOSED).
	ErrAlreadyClosed = errors.New("cards: card already closed")
	// ErrNotMutable: any other change of a closed card (CARD_NOT_MUTABLE).
	ErrNotMutable = errors.New("cards: card is closed and cannot change")
)

// Transition decides a requested state move:
//
//   - ACTIVE → FROZEN, FROZEN → ACTIVE, ACTIVE → CLOSED, FROZEN → CLOSED
//     are permitted;
//   - CLOSED → CLOSED is ErrAlreadyClosed;
//   - any other move of a CLOSED card is ErrNotMutable (changing a closed
//     card);
//   - every other move, staying in the same state included, is
//     ErrInvalidTransition.
//
// Moves made by the issuer (PROCESSING → ACTIVE, PROCESSING → CLOSED with
// ISSUER_REJECTED) are not requested moves; see Provisioned.
func Transition(from, to State) error {
	switch {
	case from == Closed && to == Closed:
		return ErrAlreadyClosed
	case from == Closed:
		return ErrNotMutable
	case from == Active && (to == Frozen || to == Closed),
		from == Frozen && (to == Active || to == Closed):
		return nil
	}
	return fmt.Errorf("%w: %s to %s", ErrInvalidTransition, from, to)
}

// CheckUpdate decides a whole update request on a card in state from: to is
// the requested state ("" when none) and settings reports whether funding
// sources or the spending limit are to change. A closed card refuses every
// change (CLOSED requested again is ErrAlreadyClosed); settings cannot be
// combined with closing (ErrCloseWithSettings, a bad request); a requested
// state follows Transition.
func CheckUpdate(from, to State, settings bool) error {
	if from == Closed {
		if to == Closed {
			return ErrAlreadyClosed
		}
		return ErrNotMutable
	}
	if to == Closed && settings {
		return ErrCloseWithSettings
	}
	if to != "" {
		return Transition(from, to)
	}
	return nil
}

// ErrCloseWithSettings: fundingSources or maxSpendPerTransaction were sent
// together with state CLOSED, which the reference forbids (a bad request).
var ErrCloseWithSettings = errors.New("cards: fundingSources and maxSpendPerTransaction cannot be combined with state CLOSED")

// Provisioning is the issuer's answer to a card request
// (CardIssue.Provisioning).
type Provisioning string

// Provisioning outcomes.
const (
	ProvisionActive   Provisioning = "ACTIVE"   // activated at once
	ProvisionDelayed  Provisioning = "DELAYED"  // activated after a delay
	ProvisionPending  Provisioning = "PENDING"  // stays PROCESSING until the issuer reports
	ProvisionRejected Provisioning = "REJECTED" // the issuer refused the card
)

// Provisioned returns the state and reason a new card takes for the
// issuer's answer p: ACTIVE, CLOSED with ISSUER_REJECTED, or PROCESSING
// (pending or delayed activation).
func Provisioned(p Provisioning) (State, Reason) {
	switch p {
	case ProvisionActive:
		return Active, ""
	case ProvisionRejected:
		return Closed, IssuerRejected
	}
	return Processing, ""
}
