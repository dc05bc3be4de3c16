package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// customerRoutes serve customers, their verification, documents, beneficial
// owners, contact verification and bulk import; the handlers of
// /verifications and /beneficial-owners are in customers_verifications.go,
// those of /documents in customers_documents.go. Reads take any token,
// writes MANAGE. Two answers differ from a plain 201/200: a CSV import is
// 202 (its rows are created afterwards, as due work), and a PATCH that
// changes a contact tied to an embedded wallet's OTP credential is a signed
// flow, 202 with the challenge until the signed retry (wallets.go).
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

// createCustomer is POST /customers: 201 with the customer (and its
// internal accounts opened), INVALID_INPUT naming every bad member, CONFLICT
// for a taken platformCustomerId, UMA_ADDRESS_EXISTS for a taken umaAddress.
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

// listCustomers is GET /customers, oldest first, filtered by
// platformCustomerId, customerType (INDIVIDUAL or BUSINESS, checked here),
// region, currency, umaAddress, kycStatus, kybStatus and the created/updated
// date-time bounds; deleted customers only with isIncludingDeleted=true.
// Paged by limit and cursor.
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

// getEndUserTerms is GET /customers/end-user-terms: the current terms, read
// from no store, so it never fails.
func getEndUserTerms(r *request) (int, any, error) {
	return ok(http.StatusOK, r.eng.Customers.CurrentTerms())
}

// getCustomer is GET /customers/{customerId}, a deleted customer included
// (isDeleted).
func getCustomer(r *request) (int, any, error) {
	c, err := r.eng.Customers.Get(r.ctx(), r.path("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

// updateCustomer is PATCH /customers/{customerId}. It goes through the
// wallets area: an email or phone change tied to an embedded wallet's OTP
// credential answers 202 with a SignedChallenge and applies on the signed
// retry; any other update applies at once, 200.
func updateCustomer(r *request) (int, any, error) {
	var in payments.CustomerInput
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	c, ch, err := r.eng.Wallets.UpdateCustomer(r.ctx(), r.path("customerId"), in, r.signature())
	return signedAnswer(http.StatusOK, c, ch, err)
}

// deleteCustomer is DELETE /customers/{customerId}: 200 with the customer
// marked deleted (not 204: the reference returns the record); a second
// delete is CUSTOMER_DELETED.
func deleteCustomer(r *request) (int, any, error) {
	c, err := r.eng.Customers.Delete(r.ctx(), r.path("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

// importCustomers is POST /customers/bulk/csv, a multipart upload whose file
// part holds the CSV.
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

// getBulkJob is GET /customers/bulk/jobs/{jobId}: an import's progress, its
// per-row errors and, once the last batch ran, COMPLETED or FAILED.
func getBulkJob(r *request) (int, any, error) {
	job, err := r.eng.Customers.BulkJob(r.ctx(), r.path("jobId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, job)
}

// sendContactCode serves POST /customers/{customerId}/verify-email and
// verify-phone: 204 once a one-time code is issued; it is sent after commit,
// through the engine's CodeSender.
func sendContactCode(channel string) handlerFunc {
	return func(r *request) (int, any, error) {
		if err := r.eng.Customers.SendContactCode(r.ctx(), r.path("customerId"), channel); err != nil {
			return fail(err)
		}
		return noContent()
	}
}

// confirmContactCode serves the .../confirm routes of verify-email and
// verify-phone: {"code"} checks the one-time code of channel, 200 with the
// customer. A wrong code is INVALID_INPUT on code, and counted: past the
// limit the code is spent (RATE_LIMITED) and a new one must be sent.
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

// createKYCLink is POST /customers/{customerId}/kyc-link, with an optional
// {"redirectUri"}: 201 with a hosted-flow link valid 24 hours. Each call
// makes a new link; none is stored.
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
