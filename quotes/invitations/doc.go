// Package invitations serves UMA invitations: a customer invites someone
// by link (Service.Create), the invitee claims it (Service.Claim) and the
// platform learns of the claim by webhook (INVITATION.CLAIMED), its cue to
// send the amount promised; a pending invitation can be cancelled, and one
// past its expiresAt reads EXPIRED.
//
// It is part of the quotes area, split out of package quotes because it
// shares none of its money movement: it owns its table and codes (Area,
// which payments.New registers) and reaches the areas below through their
// in-transaction functions (customers.ByUma, accounts.FirstCurrency,
// platform.Load). Package quotes re-exports its names as they were
// (quotes.Invitation, quotes.Invitations, quotes.InvitationRequest, ...),
// and so does the root (payments.Invitation, ...). Its operations are
// named under the quotes area for an Observer ("quotes",
// "Invitations.Create"), as they were before the split.
//
// Through the root facade:
//
//	inv, err := eng.Invitations.Create(ctx, payments.InvitationRequest{InviterUma: "$alice@example.com"})
//	if err != nil {
//		return err // INVITATIONS_NOT_CONFIGURED without a webhook endpoint
//	}
//	inv, err = eng.Invitations.Claim(ctx, inv.Code, "$bob@other.example")
package invitations
