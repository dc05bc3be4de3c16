package payments_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/require"
)

// Platform kinds of spec 3.3.
const (
	unregulated = "unregulated"
	paperless   = "unregulated+skip"
	regulated   = "regulated"
)

// kycEnv is a sandbox engine with the sandbox KYC provider on a platform of
// the given kind.
func kycEnv(t testing.TB, kind string) *env {
	t.Helper()
	e := newEnv(t, func(c *payments.Config) { c.KYC = sandbox.KYC{} })
	yes := true
	u := payments.PlatformConfigUpdate{}
	switch kind {
	case paperless:
		u.SkipVerificationPaperwork = &yes
	case regulated:
		u.IsRegulatedFinancialInstitution = &yes
	}
	_, err := e.eng.Platform.UpdateConfig(ctx, u)
	require.NoError(t, err)
	return e
}

var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

// consent is an accepted PROVIDER_END_USER_TERMS entry.
func consent() payments.AgreementConsent {
	return payments.AgreementConsent{Type: payments.AgreementProviderEndUserTerms, TermsVersion: payments.CurrentEndUserTerms.Version,
		AcceptedAt: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}
}

// fullIndividual is a complete KYC packet's profile for name.
func fullIndividual(name string) payments.CustomerInput {
	return payments.CustomerInput{CustomerType: payments.CustomerIndividual, Identifier: "123-45-6789",
		AgreementConsents: []payments.AgreementConsent{consent()},
		Profile: customers.Profile{FullName: name, BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
			Address: &customers.Address{Line1: "1 Main St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}}}
}

// fullBusiness is a complete KYB packet's profile for a registration number.
func fullBusiness(reg string) payments.CustomerInput {
	return payments.CustomerInput{CustomerType: payments.CustomerBusiness,
		Profile: customers.Profile{Address: &customers.Address{Line1: "400 Commerce Way", PostalCode: "78701", Country: "US"},
			BusinessInfo: &customers.BusinessInfo{LegalName: "Acme Corp", Country: "US", TaxID: "12-3456789",
				IncorporatedOn: "2015-03-01", RegistrationNumber: reg}}}
}

func (e *env) upload(t testing.TB, holder, docType string) *payments.Document {
	t.Helper()
	d, err := e.eng.Documents.Upload(ctx, payments.DocumentUpload{DocumentHolder: holder, DocumentType: docType, Country: "US", Content: pngBytes})
	require.NoError(t, err)
	return d
}

func (e *env) owner(t testing.TB, customerID, lastName string) *payments.BeneficialOwner {
	t.Helper()
	pct := 60
	o, err := e.eng.Customers.CreateBeneficialOwner(ctx, payments.OwnerInput{CustomerID: customerID, Roles: []string{"UBO"}, OwnershipPercentage: &pct,
		PersonalInfo: payments.OwnerPersonalInfo{FirstName: "Ada", LastName: lastName, BirthDate: "1980-02-02", Nationality: "US",
			IDType: "SSN", Identifier: "111-22-3333", Address: &customers.Address{Line1: "1 Main", PostalCode: "1", Country: "US"}}})
	require.NoError(t, err)
	return o
}
