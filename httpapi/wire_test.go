package httpapi_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file pin the wire-fidelity fixes of issue 16: where the
// server differed from the reference, each exchange here goes through the
// wire check (the helpers' client) as well as these assertions.

func TestWire_TakenPlatformCustomerIDIsConflict(t *testing.T) {
	s := newServer(t)
	require.Equal(t, 201, s.do("POST", "/customers", individual(set("platformCustomerId", "p-1"))).Status)
	r := s.do("POST", "/customers", individual(set("platformCustomerId", "p-1"), set("email", "other@example.com")))
	requireError(t, r, 409, payments.CodeConflict, "platformCustomerId")
}

func TestWire_TermsVersionV1(t *testing.T) {
	s := newServer(t)
	consent := func(v string) func(map[string]any) {
		return set("agreementConsents", []any{map[string]any{"type": "PROVIDER_END_USER_TERMS", "termsVersion": v,
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}})
	}
	r := s.do("POST", "/customers", individual(set("platformCustomerId", "v1"), consent("V1")))
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	terms := s.do("GET", "/customers/end-user-terms", nil)
	require.Equal(t, 200, terms.Status)
	r = s.do("POST", "/customers", individual(set("platformCustomerId", "cur"), consent(terms.Body["version"].(string))))
	require.Equal(t, 201, r.Status, "the version GET /customers/end-user-terms names is accepted: %s", r.Raw)
	requireError(t, s.do("POST", "/customers", individual(set("platformCustomerId", "bad"), consent("V0"))),
		400, payments.CodeEndUserTermsVersionNotFound, "agreementConsents.0.termsVersion")
}

func TestWire_PatchEmailAndPhoneTogether(t *testing.T) {
	s := newServer(t)
	id := s.do("POST", "/customers", individual(set("platformCustomerId", "ep"))).Body["id"].(string)
	r := s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "email": "new@example.com", "phoneNumber": "+14155550999"})
	requireError(t, r, 400, payments.CodeInvalidInput, "phoneNumber")
	got := s.do("GET", "/customers/"+id, nil)
	assert.Equal(t, "jane@example.com", got.Body["email"], "a refused PATCH changes nothing")
	r = s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "email": "new@example.com"})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	r = s.do("PATCH", "/customers/"+id, map[string]any{"customerType": "INDIVIDUAL", "phoneNumber": "+14155550999"})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
}
