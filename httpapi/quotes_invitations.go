package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// invitationRoutes serve UMA invitations, and the crypto withdrawal-fee
// estimate. An invitation is addressed by its code, not an id: the code is
// what the inviter shares. Invitations report their claims by webhook, so
// they need the platform's webhook endpoint (INVITATIONS_NOT_CONFIGURED
// without one).
func invitationRoutes() []route {
	return []route{
		{method: "POST", path: "/invitations", perm: transact, fn: createInvitation},
		{method: "GET", path: "/invitations/{invitationCode}", fn: getInvitation},
		{method: "POST", path: "/invitations/{invitationCode}/claim", perm: transact, fn: claimInvitation},
		{method: "POST", path: "/invitations/{invitationCode}/cancel", perm: transact, fn: cancelInvitation},
		{method: "POST", path: "/crypto/estimate-withdrawal-fee", fn: estimateWithdrawalFee},
	}
}

// createInvitation is POST /invitations: 201 with a PENDING invitation from
// the customer holding inviterUma (INVALID_UMA_ADDRESS when nobody does).
func createInvitation(r *request) (int, any, error) {
	var in payments.InvitationRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	inv, err := r.eng.Invitations.Create(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, inv)
}

// getInvitation is GET /invitations/{invitationCode}, or
// INVITATION_NOT_FOUND.
func getInvitation(r *request) (int, any, error) {
	inv, err := r.eng.Invitations.Get(r.ctx(), r.path("invitationCode"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, inv)
}

// claimInvitation is POST /invitations/{invitationCode}/claim with
// {"inviteeUma"}: 200 with the invitation CLAIMED, and INVITATION.CLAIMED
// sent to the platform, its cue to send the promised amount. An invitation
// is claimed once: later claims are INVITATION_ALREADY_CLAIMED.
func claimInvitation(r *request) (int, any, error) {
	var in struct {
		InviteeUma string `json:"inviteeUma"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	inv, err := r.eng.Invitations.Claim(r.ctx(), r.path("invitationCode"), in.InviteeUma)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, inv)
}

// cancelInvitation is POST /invitations/{invitationCode}/cancel: 200 with
// the invitation CANCELLED; refused as a claim is once it is claimed,
// cancelled or expired.
func cancelInvitation(r *request) (int, any, error) {
	inv, err := r.eng.Invitations.Cancel(r.ctx(), r.path("invitationCode"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, inv)
}

// estimateWithdrawalFee is POST /crypto/estimate-withdrawal-fee: the fees
// and net amount of a withdrawal from an internal account to a wallet,
// priced as a quote would price it, 200. It is a POST for its body but only
// reads, so any token may ask and it needs no idempotency key.
func estimateWithdrawalFee(r *request) (int, any, error) {
	var in payments.WithdrawalFeeRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	fee, err := r.eng.Crypto.EstimateWithdrawalFee(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, fee)
}
