package payments_test

import (
	"context"
	"fmt"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
)

// Example_onboardIndividual takes an individual from creation to APPROVED on
// the default (unregulated) sandbox platform: create, upload an identity
// document, submit. A name without a sandbox suffix is approved once the
// packet is complete.
func Example_onboardIndividual() {
	ctx := context.Background()
	eng, _ := payments.New(payments.Config{Store: memstore.New(), KYC: sandbox.KYC{}, Sandbox: true})
	defer eng.Close()

	c, err := eng.Customers.Create(ctx, payments.CustomerInput{
		CustomerType: payments.CustomerIndividual,
		Identifier:   "123-45-6789",
		Profile: payments.CustomerProfile{FullName: "Jane Doe", BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
			Address: &payments.Address{Line1: "1 Main St", City: "Austin", PostalCode: "78701", Country: "US"}},
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms,
			TermsVersion: payments.CurrentEndUserTerms.Version, AcceptedAt: time.Now(), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("created:", c.KYCStatus)

	_, err = eng.Documents.Upload(ctx, payments.DocumentUpload{DocumentHolder: c.ID, DocumentType: "PASSPORT", Country: "US",
		Content: []byte("%PDF-1.7 passport scan")})
	if err != nil {
		panic(err)
	}
	v, _ := eng.Customers.SubmitVerification(ctx, c.ID)
	c, _ = eng.Customers.Get(ctx, c.ID)
	fmt.Println("submitted:", v.VerificationStatus, c.KYCStatus)
	// Output:
	// created: UNVERIFIED
	// submitted: APPROVED APPROVED
}
