package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// customerRoutes serve customers, their verification, documents, beneficial
// owners, contact verification and bulk import.
func customerRoutes() []route {
	return []route{
		{method: "POST", path: "/customers", perm: manage, fn: createCustomer},
		{method: "GET", path: "/customers", fn: listCustomers},
		{method: "GET", path: "/customers/end-user-terms", fn: getEndUserTerms},
		{method: "GET", path: "/customers/{customerId}", fn: getCustomer},
		{method: "PATCH", path: "/customers/{customerId}", perm: manage, fn: updateCustomer},
		{method: "DELETE", path: "/customers/{customerId}", perm: manage, fn: deleteCustomer},
		{method: "POST", path: "/customers/bulk/csv", perm: manage, fn: importCustomers, upload: true},
		{method: "GET", path: "/customers/bulk/jobs/{jobId}", fn: getBulkJob},
		{method: "POST", path: "/customers/{customerId}/verify-email", perm: manage, fn: sendContactCode(payments.ChannelEmail)},
		{method: "POST", path: "/customers/{customerId}/verify-email/confirm", perm: manage, fn: confirmContactCode(payments.ChannelEmail)},
		{method: "POST", path: "/customers/{customerId}/verify-phone", perm: manage, fn: sendContactCode(payments.ChannelPhone)},
		{method: "POST", path: "/customers/{customerId}/verify-phone/confirm", perm: manage, fn: confirmContactCode(payments.ChannelPhone)},
		{method: "POST", path: "/customers/{customerId}/kyc-link", perm: manage, fn: createKYCLink},
		{method: "POST", path: "/verifications", perm: manage, fn: submitVerification},
		{method: "GET", path: "/verifications", fn: listVerifications},
		{method: "GET", path: "/verifications/{verificationId}", fn: getVerification},
		{method: "POST", path: "/beneficial-owners", perm: manage, fn: createOwner},
		{method: "GET", path: "/beneficial-owners", fn: listOwners},
		{method: "GET", path: "/beneficial-owners/{beneficialOwnerId}", fn: getOwner},
		{method: "PATCH", path: "/beneficial-owners/{beneficialOwnerId}", perm: manage, fn: updateOwner},
		{method: "POST", path: "/documents", perm: manage, fn: uploadDocument, upload: true},
		{method: "GET", path: "/documents", fn: listDocuments},
		{method: "GET", path: "/documents/{documentId}", fn: getDocument},
		{method: "PUT", path: "/documents/{documentId}", perm: manage, fn: replaceDocument, upload: true},
		{method: "DELETE", path: "/documents/{documentId}", perm: manage, fn: deleteDocument},
	}
}

func createCustomer(r *request) (int, any, error) {
	var in payments.CustomerInput
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	c, err := r.eng.Customers.Create(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, c)
}

func listCustomers(r *request) (int, any, error) {
	q := r.query()
	f := payments.CustomerFilter{
		PlatformCustomerID: q.str("platformCustomerId"), CustomerType: payments.CustomerType(q.str("customerType")),
		Region: q.str("region"), Currency: q.str("currency"), UmaAddress: q.str("umaAddress"),
		KYCStatus: payments.KYCStatus(q.str("kycStatus")), KYBStatus: payments.KYCStatus(q.str("kybStatus")),
		CreatedAfter: q.time("createdAfter"), CreatedBefore: q.time("createdBefore"),
		UpdatedAfter: q.time("updatedAfter"), UpdatedBefore: q.time("updatedBefore"),
	}
	if b := q.boolean("isIncludingDeleted"); b != nil {
		f.IncludeDeleted = *b
	}
	q.fe.Enum("customerType", string(f.CustomerType), "INDIVIDUAL", "BUSINESS")
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Customers.List(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

func getEndUserTerms(r *request) (int, any, error) {
	return ok(http.StatusOK, r.eng.Customers.CurrentTerms())
}

func getCustomer(r *request) (int, any, error) {
	c, err := r.eng.Customers.Get(r.ctx(), r.path("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

func updateCustomer(r *request) (int, any, error) {
	var in payments.CustomerInput
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	c, ch, err := r.eng.Wallets.UpdateCustomer(r.ctx(), r.path("customerId"), in, r.signature())
	return signedAnswer(http.StatusOK, c, ch, err)
}

func deleteCustomer(r *request) (int, any, error) {
	c, err := r.eng.Customers.Delete(r.ctx(), r.path("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

func importCustomers(r *request) (int, any, error) {
	form, err := r.multipart()
	if err != nil {
		return fail(err)
	}
	job, err := r.eng.Customers.Import(r.ctx(), form.file)
	if err != nil {
		return fail(err)
	}
	// The reference's accepted shape, with the job's status as stored; the
	// rows are imported afterwards and GET /customers/bulk/jobs/{jobId}
	// reports the progress and the outcome.
	return ok(http.StatusAccepted, map[string]string{"jobId": job.ID, "status": job.Status})
}

func getBulkJob(r *request) (int, any, error) {
	job, err := r.eng.Customers.BulkJob(r.ctx(), r.path("jobId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, job)
}

func sendContactCode(channel string) handlerFunc {
	return func(r *request) (int, any, error) {
		if err := r.eng.Customers.SendContactCode(r.ctx(), r.path("customerId"), channel); err != nil {
			return fail(err)
		}
		return noContent()
	}
}

func confirmContactCode(channel string) handlerFunc {
	return func(r *request) (int, any, error) {
		var in struct {
			Code string `json:"code"`
		}
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
		c, err := r.eng.Customers.ConfirmContactCode(r.ctx(), r.path("customerId"), channel, in.Code)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, c)
	}
}

func createKYCLink(r *request) (int, any, error) {
	var in struct {
		RedirectURI string `json:"redirectUri"`
	}
	if len(r.body) > 0 {
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
	}
	link, err := r.eng.Customers.CreateKYCLink(r.ctx(), r.path("customerId"), in.RedirectURI)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, link)
}
