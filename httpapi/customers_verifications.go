package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

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

func getVerification(r *request) (int, any, error) {
	v, err := r.eng.Customers.Verification(r.ctx(), r.path("verificationId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, v)
}

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

func getOwner(r *request) (int, any, error) {
	o, err := r.eng.Customers.BeneficialOwner(r.ctx(), r.path("beneficialOwnerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, o)
}

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
