package quotes

import (
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/invitations"
)

// The UMA invitations live in package quotes/invitations, which owns their
// table and codes; these are their names as this package has always
// spelled them (the root re-exports them from here).

// InvitationURLBase prefixes an invitation's code in its URL.
const InvitationURLBase = invitations.URLBase

// Invitation states (reference UmaInvitation.status).
const (
	InvitationPending   = invitations.Pending
	InvitationClaimed   = invitations.Claimed
	InvitationExpired   = invitations.Expired
	InvitationCancelled = invitations.Cancelled
)

// Invitation is a UMA invitation (reference UmaInvitation): an
// invitations.Invitation.
type Invitation = invitations.Invitation

// InvitationRequest creates an invitation (reference
// UmaInvitationCreateRequest): an invitations.Request.
type InvitationRequest = invitations.Request

// Invitations is the UMA invitations area: a customer invites someone by
// link; claiming it tells the platform (INVITATION.CLAIMED) so that it can
// send the promised amount. Reach it as eng.Invitations. It is an
// invitations.Service.
type Invitations = invitations.Service

// NewInvitations returns the Invitations group of h (invitations.New).
func NewInvitations(h *engine.Handle) Invitations { return invitations.New(h) }
