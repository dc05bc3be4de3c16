package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// invitationRoutes serve UMA invitations, and the crypto withdrawal-fee
// estimate.
func invitationRoutes() []route {
	return []route{
		{method: "POST", path: "/invitations", perm: transact, fn: createInvitation},
		{method: "GET", path: "/invitations/{invitationCode}", fn: getInvitation},
		{method: "POST", path: "/invitations/{invitationCode}/claim", perm: transact, fn: claimInvitation},
		{method: "POST", path: "/invitations/{invitationCode}/cancel", perm: transact, fn: cancelInvitation},
		{method: "POST", path: "/crypto/estimate-withdrawal-fee", fn: estimateWithdrawalFee},
	}
}

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

func getInvitation(r *request) (int, any, error) {
	inv, err := r.eng.Invitations.Get(r.ctx(), r.path("invitationCode"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, inv)
}

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

func cancelInvitation(r *request) (int, any, error) {
	inv, err := r.eng.Invitations.Cancel(r.ctx(), r.path("invitationCode"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, inv)
}

// estimateWithdrawalFee only reads, so any token may ask.
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
