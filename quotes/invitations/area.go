package invitations

import "github.com/paygrid/payments/internal/engine"

// tableInvitations holds invitations by code.
const tableInvitations = "invitations"

// EventClaimed is the webhook sent when an invitation is claimed; its data
// is the claimed Invitation (quotes.InvitationOf decodes it).
const EventClaimed engine.EventType = "INVITATION.CLAIMED"

// Codes that only invitations return. A malformed or unknown UMA address
// is the kernel's engine.CodeInvalidUmaAddress, which the quotes area's
// lookups return too.
const (
	CodeAlreadyClaimed engine.Code = "INVITATION_ALREADY_CLAIMED"
	CodeNotConfigured  engine.Code = "INVITATIONS_NOT_CONFIGURED"
	CodeCancelled      engine.Code = "INVITATION_CANCELLED"
	CodeNotFound       engine.Code = "INVITATION_NOT_FOUND"
)

// Area declares what invitations keep: their table, by code, and their
// codes with their HTTP status. payments.New registers it beside the quotes
// area. Invitations need no due work: an expiry is judged when an
// invitation is read.
func Area() engine.AreaDef {
	return engine.AreaDef{
		Codes: map[engine.Code]int{
			CodeAlreadyClaimed: 400,
			CodeNotConfigured:  400,
			CodeCancelled:      400,
			CodeNotFound:       404,
		},
		Tables: []engine.TableDef{
			{Name: tableInvitations, Record: func() any { return new(Invitation) }},
		},
	}
}
