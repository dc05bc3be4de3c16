package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/paygrid/payments"
)

// scaRoutes serve the Strong Customer Authentication tag: factors and their
// reset, logins, security events and quote challenge resends (the quote's
// authorization itself is POST /quotes/{quoteId}/authorize, in quotes.go).
// Every /sca route names its customer in the customerId query parameter, as
// the reference does, and answers CONFLICT for a customer outside an SCA
// region. Proofs that fail are counted towards the login lockout
// (ACCOUNT_LOCKED), and codes are rate limited (429 RATE_LIMITED with
// Retry-After).
func scaRoutes() []route {
	return []route{
		{method: "GET", path: "/sca/factors", fn: listScaFactors},
		{method: "POST", path: "/sca/factors", perm: manage, fn: enrollScaFactor},
		{method: "POST", path: "/sca/factors/confirm", perm: manage, fn: confirmScaFactor},
		{method: "DELETE", path: "/sca/factors/{credentialId}", perm: manage, fn: deleteScaFactor},
		{method: "POST", path: "/sca/login/start", perm: manage, fn: startScaLogin},
		{method: "POST", path: "/sca/login/complete", perm: manage, fn: completeScaLogin},
		{method: "POST", path: "/sca/record-event", perm: manage, fn: recordSecurityEvent},
		{method: "POST", path: "/sca/factors/reset", perm: manage, fn: startTwoFactorReset},
		{method: "GET", path: "/sca/factors/reset/{resetId}", fn: getTwoFactorReset},
		{method: "POST", path: "/sca/factors/reset/{resetId}/complete", perm: manage, fn: completeTwoFactorReset},
		{method: "POST", path: "/quotes/{quoteId}/authorize/resend", perm: transact, fn: resendQuoteScaCode},
	}
}

// customerID is the customerId query parameter every SCA operation names.
func (r *request) customerID() string { return r.URL.Query().Get("customerId") }

// listScaFactors is GET /sca/factors: the customer's factors, SMS_OTP
// always, then TOTP and PASSKEY when enrolled.
func listScaFactors(r *request) (int, any, error) {
	return answer(r.eng.SCA.Factors(r.ctx(), r.customerID()))
}

// enrollScaFactor is POST /sca/factors with {"type"} (TOTP or PASSKEY): 200
// with a TOTP secret or passkey registration options, confirmed with POST
// /sca/factors/confirm.
func enrollScaFactor(r *request) (int, any, error) {
	var in struct {
		Type string `json:"type"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.Enroll(r.ctx(), r.customerID(), in.Type))
}

// confirmScaFactor is POST /sca/factors/confirm: the enrollment finished
// with its first TOTP code (answering recovery codes, shown once) or the
// device's passkey registration; 200.
func confirmScaFactor(r *request) (int, any, error) {
	var in payments.ScaFactorConfirm
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.Confirm(r.ctx(), r.customerID(), in))
}

// deleteScaFactor is DELETE /sca/factors/{credentialId}: the customer's
// passkey removed, 204.
func deleteScaFactor(r *request) (int, any, error) {
	if err := r.eng.SCA.DeleteFactor(r.ctx(), r.customerID(), r.path("credentialId")); err != nil {
		return fail(err)
	}
	return noContent()
}

// startScaLogin is POST /sca/login/start with {"factor"}: an SMS code sent
// after commit, nothing for TOTP, assertion options for PASSKEY; 200.
func startScaLogin(r *request) (int, any, error) {
	var in struct {
		Factor string `json:"factor"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.StartLogin(r.ctx(), r.customerID(), in.Factor))
}

// completeScaLogin is POST /sca/login/complete: the login's proof opens an
// SCA session, which quote authorizations require; a wrong proof is
// INVALID_INPUT, then ACCOUNT_LOCKED.
func completeScaLogin(r *request) (int, any, error) {
	var in payments.ScaLoginComplete
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.CompleteLogin(r.ctx(), r.customerID(), in))
}

// recordSecurityEvent is POST /sca/record-event with {"eventType"}: a
// client-side password reset or failed login, 200 with the security state
// after it.
func recordSecurityEvent(r *request) (int, any, error) {
	var in struct {
		EventType string `json:"eventType"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.RecordEvent(r.ctx(), r.customerID(), in.EventType))
}

// startTwoFactorReset is POST /sca/factors/reset with {"factor"}: 201 with
// the reset and its liveness check; a few resets a day per customer
// (RATE_LIMITED).
func startTwoFactorReset(r *request) (int, any, error) {
	var in struct {
		Factor string `json:"factor"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	out, err := r.eng.SCA.StartReset(r.ctx(), r.customerID(), in.Factor)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, out)
}

// getTwoFactorReset is GET /sca/factors/reset/{resetId}: where the reset and
// its liveness check stand.
func getTwoFactorReset(r *request) (int, any, error) {
	return answer(r.eng.SCA.Reset(r.ctx(), r.customerID(), r.path("resetId")))
}

// completeTwoFactorReset is POST /sca/factors/reset/{resetId}/complete, with
// {"mobile"} for an SMS_OTP reset: the lost factor cleared for re-enrollment
// once the liveness check passed, 204.
func completeTwoFactorReset(r *request) (int, any, error) {
	var in struct {
		Mobile *payments.Mobile `json:"mobile"`
	}
	if err := r.decodeOptional(&in); err != nil {
		return fail(err)
	}
	if err := r.eng.SCA.CompleteReset(r.ctx(), r.customerID(), r.path("resetId"), in.Mobile); err != nil {
		return fail(err)
	}
	return noContent()
}

// resendQuoteScaCode is POST /quotes/{quoteId}/authorize/resend (TRANSACT):
// a new code for the quote's SMS_OTP challenge, 204. The challenge keeps its
// id and expiry; only the latest code authorizes.
func resendQuoteScaCode(r *request) (int, any, error) {
	if err := r.eng.SCA.Resend(r.ctx(), r.path("quoteId")); err != nil {
		return fail(err)
	}
	return noContent()
}

// answer is the 200 of an operation's result, or its error.
func answer[T any](v T, err error) (int, any, error) {
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, v)
}

// setRetryAfter turns the retryAfterSeconds detail of a 429 or 503 error
// body into the Retry-After header (engine limits and an unavailable store
// report how long to wait there, so an idempotent replay carries it too). A
// 503 without the detail (a provider that is down) says to retry after one
// second.
func setRetryAfter(h http.Header, status int, body []byte) {
	if status == http.StatusServiceUnavailable {
		h.Set("Retry-After", "1")
	} else if status != http.StatusTooManyRequests {
		return
	}
	var b struct {
		Details struct {
			RetryAfterSeconds *int `json:"retryAfterSeconds"`
		} `json:"details"`
	}
	if json.Unmarshal(body, &b) == nil && b.Details.RetryAfterSeconds != nil {
		h.Set("Retry-After", strconv.Itoa(*b.Details.RetryAfterSeconds))
	}
}
