package httpapi

// The handlers of /verifications (KYC for individuals, KYB for businesses)
// and /beneficial-owners (the owners a business declares for KYB), routed
// in customerRoutes. A submission is decided by the KYC provider, asked
// before the engine's transaction; its outcome also arrives as
// CUSTOMER.KYC_* / KYB_* and VERIFICATION.* webhooks.

import (
	"net/http"

	"github.com/paygrid/payments"
)

// submitVerification is POST /verifications with {"customerId"}: 200, as
// the reference answers, with the submission and the provider's decision.
// INVALID_INPUT for a customer whose status is final or whose packet lacks
// something, CONFLICT while its contact details are unverified.
func submitVerification(r *request) (int, any, error) {
	var in struct {
		CustomerID string `json:"customerId"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	v, err := r.eng.Customers.SubmitVerification(r.ctx(), in.CustomerID)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, v)
}

// listVerifications is GET /verifications, oldest first, filtered by
// customerId and verificationStatus, paged by limit and cursor.
func listVerifications(r *request) (int, any, error) {
	q := r.query()
	customerID, status := q.str("customerId"), payments.VerificationStatus(q.str("verificationStatus"))
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Customers.ListVerifications(r.ctx(), customerID, status, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getVerification is GET /verifications/{verificationId}.
func getVerification(r *request) (int, any, error) {
	v, err := r.eng.Customers.Verification(r.ctx(), r.path("verificationId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, v)
}

// createOwner is POST /beneficial-owners: 201 with the owner, UNVERIFIED
// until its business is decided; INVALID_INPUT for a customer that is not a
// business.
func createOwner(r *request) (int, any, error) {
	var in payments.OwnerInput
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	o, err := r.eng.Customers.CreateBeneficialOwner(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, o)
}

// listOwners is GET /beneficial-owners?customerId=..., oldest first,
// identifiers masked; customerId is required.
func listOwners(r *request) (int, any, error) {
	q := r.query()
	customerID := q.str("customerId")
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Customers.ListBeneficialOwners(r.ctx(), customerID, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getOwner is GET /beneficial-owners/{beneficialOwnerId}.
func getOwner(r *request) (int, any, error) {
	o, err := r.eng.Customers.BeneficialOwner(r.ctx(), r.path("beneficialOwnerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, o)
}

// updateOwner is PATCH /beneficial-owners/{beneficialOwnerId}: the members
// given change, and the merged owner is validated as a whole; 200.
func updateOwner(r *request) (int, any, error) {
	var in payments.OwnerInput
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	o, err := r.eng.Customers.UpdateBeneficialOwner(r.ctx(), r.path("beneficialOwnerId"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, o)
}
