package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/paygrid/payments"
)

// scaRoutes serve the Strong Customer Authentication tag: factors and their
// reset, logins, security events and quote challenge resends.
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

func listScaFactors(r *request) (int, any, error) {
	return answer(r.eng.SCA.Factors(r.ctx(), r.customerID()))
}

func enrollScaFactor(r *request) (int, any, error) {
	var in struct {
		Type string `json:"type"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.Enroll(r.ctx(), r.customerID(), in.Type))
}

func confirmScaFactor(r *request) (int, any, error) {
	var in payments.ScaFactorConfirm
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.Confirm(r.ctx(), r.customerID(), in))
}

func deleteScaFactor(r *request) (int, any, error) {
	if err := r.eng.SCA.DeleteFactor(r.ctx(), r.customerID(), r.path("credentialId")); err != nil {
		return fail(err)
	}
	return noContent()
}

func startScaLogin(r *request) (int, any, error) {
	var in struct {
		Factor string `json:"factor"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.StartLogin(r.ctx(), r.customerID(), in.Factor))
}

func completeScaLogin(r *request) (int, any, error) {
	var in payments.ScaLoginComplete
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.CompleteLogin(r.ctx(), r.customerID(), in))
}

func recordSecurityEvent(r *request) (int, any, error) {
	var in struct {
		EventType string `json:"eventType"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	return answer(r.eng.SCA.RecordEvent(r.ctx(), r.customerID(), in.EventType))
}

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

func getTwoFactorReset(r *request) (int, any, error) {
	return answer(r.eng.SCA.Reset(r.ctx(), r.customerID(), r.path("resetId")))
}

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

// setRetryAfter turns the retryAfterSeconds detail of a 429 error body into
// the Retry-After header (engine limits report how long to wait there, so
// an idempotent replay carries it too).
func setRetryAfter(h http.Header, status int, body []byte) {
	if status != http.StatusTooManyRequests {
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
