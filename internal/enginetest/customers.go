package enginetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/require"
)

// Platform kinds the sandbox KYC rules tell apart, for KYCEnv.
const (
	// Unregulated is the default platform: verification needs paperwork.
	Unregulated = "unregulated"
	// Paperless is an unregulated platform with SkipVerificationPaperwork.
	Paperless = "unregulated+skip"
	// Regulated is a platform that is a regulated financial institution.
	Regulated = "regulated"
)

// KYCEnv is a sandbox engine with the sandbox KYC provider on a platform of
// the given kind (Unregulated, Paperless or Regulated).
func KYCEnv(t testing.TB, kind string) *Env {
	t.Helper()
	e := NewEnv(t, func(c *payments.Config) { c.KYC = sandbox.KYC{} })
	yes := true
	u := payments.PlatformConfigUpdate{}
	switch kind {
	case Paperless:
		u.SkipVerificationPaperwork = &yes
	case Regulated:
		u.IsRegulatedFinancialInstitution = &yes
	}
	_, err := e.Eng.Platform.UpdateConfig(ctx, u)
	require.NoError(t, err)
	return e
}

// pngBytes is the start of a PNG file: an upload's content.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

// Consent is an accepted PROVIDER_END_USER_TERMS entry.
func Consent() payments.AgreementConsent {
	return payments.AgreementConsent{Type: payments.AgreementProviderEndUserTerms, TermsVersion: payments.CurrentEndUserTerms.Version,
		AcceptedAt: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}
}

// FullIndividual is a complete KYC packet's profile for name (the sandbox
// KYC provider decides by the name's suffix: 001 pending, 002 rejected,
// 003 errors to resolve).
func FullIndividual(name string) payments.CustomerInput {
	return payments.CustomerInput{CustomerType: payments.CustomerIndividual, Identifier: "123-45-6789",
		AgreementConsents: []payments.AgreementConsent{Consent()},
		Profile: customers.Profile{FullName: name, BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
			Address: &customers.Address{Line1: "1 Main St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}}}
}

// FullBusiness is a complete KYB packet's profile for a registration number
// (whose suffix the sandbox KYC provider decides by).
func FullBusiness(reg string) payments.CustomerInput {
	return payments.CustomerInput{CustomerType: payments.CustomerBusiness,
		Profile: customers.Profile{Address: &customers.Address{Line1: "400 Commerce Way", PostalCode: "78701", Country: "US"},
			BusinessInfo: &customers.BusinessInfo{LegalName: "Acme Corp", Country: "US", TaxID: "12-3456789",
				IncorporatedOn: "2015-03-01", RegistrationNumber: reg}}}
}

// Upload uploads a US document of docType (a PNG) for holder.
func (e *Env) Upload(t testing.TB, holder, docType string) *payments.Document {
	t.Helper()
	d, err := e.Eng.Documents.Upload(ctx, payments.DocumentUpload{DocumentHolder: holder, DocumentType: docType, Country: "US", Content: pngBytes})
	require.NoError(t, err)
	return d
}

// Owner adds a 60% ultimate beneficial owner "Ada <lastName>" to the
// business customerID.
func (e *Env) Owner(t testing.TB, customerID, lastName string) *payments.BeneficialOwner {
	t.Helper()
	pct := 60
	o, err := e.Eng.Customers.CreateBeneficialOwner(ctx, payments.OwnerInput{CustomerID: customerID, Roles: []string{"UBO"}, OwnershipPercentage: &pct,
		PersonalInfo: payments.OwnerPersonalInfo{FirstName: "Ada", LastName: lastName, BirthDate: "1980-02-02", Nationality: "US",
			IDType: "SSN", Identifier: "111-22-3333", Address: &customers.Address{Line1: "1 Main", PostalCode: "1", Country: "US"}}})
	require.NoError(t, err)
	return o
}

// USDAccount creates a customer using USD and returns its USD account.
func (e *Env) USDAccount(t testing.TB, name string) string {
	t.Helper()
	in := FullIndividual(name)
	in.Currencies = []string{"USD"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	return page.Data[0].ID
}

// EUCustomer creates a customer in an SCA region with a funded USD
// account and an EUR payee; it returns the three ids.
func (e *Env) EUCustomer(t testing.TB, funds int64) (customer, account, payee string) {
	t.Helper()
	in := FullIndividual("Erika Mustermann")
	in.Region, in.Email, in.PhoneNumber, in.Currencies = "DE", "erika@example.com", "+4915112345678", []string{"USD", "EUR"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID, Currency: "USD"}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	acct := page.Data[0].ID
	_, err = e.Eng.Sandbox.Fund(ctx, acct, funds)
	require.NoError(t, err)
	info := json.RawMessage(`{"accountType":"EUR_ACCOUNT","iban":"DE89370400440532013000","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Jo","countryOfResidence":"DE"}}`)
	p, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "EUR", AccountInfo: info}, payments.CustomerScope)
	require.NoError(t, err)
	return c.ID, acct, p.ID
}
