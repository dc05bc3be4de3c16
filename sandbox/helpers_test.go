package sandbox_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// customerBody is a new individual customer in the United States who
// accepted the provider's end-user terms.
func customerBody(name string) map[string]any {
	return map[string]any{
		"customerType": "INDIVIDUAL", "fullName": name, "birthDate": "1990-01-15", "nationality": "US",
		"currencies": []string{"USD"},
		"address":    map[string]any{"line1": "1 Main St", "city": "Austin", "state": "TX", "postalCode": "78701", "country": "US"},
		"agreementConsents": []any{map[string]any{"type": "PROVIDER_END_USER_TERMS", "termsVersion": "2025-10-13",
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}},
	}
}

// usdBank is a US bank account of customer; the last three digits of
// number pick the sandbox outcome (003 settles after six minutes, 005 is
// returned after ten, others settle at once).
func usdBank(customer, number string) map[string]any {
	return map[string]any{"customerId": customer, "currency": "USD", "accountInfo": map[string]any{
		"accountType": "USD_ACCOUNT", "accountNumber": number, "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe"}}}
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// httptestServer serves h for the test.
func httptestServer(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
