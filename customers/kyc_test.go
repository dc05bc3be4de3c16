package customers_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxKYC_Individuals has one case per row of the sandbox KYC
// table for individuals, per platform kind, with a complete packet submitted once.
func TestSandboxKYC_Individuals(t *testing.T) {
	cases := []struct {
		kind, name      string
		atCreation      payments.KYCStatus
		submit          payments.VerificationStatus // "" means 400 (final)
		after           payments.KYCStatus
		firstErrorTypes []string
	}{
		{enginetest.Unregulated, "Ann 001", payments.KYCUnverified, payments.VerificationPendingManualReview, payments.KYCPending, nil},
		{enginetest.Unregulated, "Ann 002", payments.KYCUnverified, payments.VerificationRejected, payments.KYCRejected, nil},
		{enginetest.Unregulated, "Ann 003", payments.KYCUnverified, payments.VerificationResolveErrors, payments.KYCUnverified, []string{"POOR_QUALITY_DOCUMENT"}},
		{enginetest.Unregulated, "Ann Smith", payments.KYCUnverified, payments.VerificationApproved, payments.KYCApproved, nil},
		{enginetest.Paperless, "Ann 001", payments.KYCPending, payments.VerificationPendingManualReview, payments.KYCPending, nil},
		{enginetest.Paperless, "Ann 003", payments.KYCUnverified, payments.VerificationResolveErrors, payments.KYCUnverified, []string{"POOR_QUALITY_DOCUMENT"}},
		{enginetest.Paperless, "Ann 002", payments.KYCRejected, "", payments.KYCRejected, nil},
		{enginetest.Paperless, "Ann Smith", payments.KYCApproved, "", payments.KYCApproved, nil},
		{enginetest.Regulated, "Ann 001", payments.KYCPending, payments.VerificationPendingManualReview, payments.KYCPending, nil},
		{enginetest.Regulated, "Ann 003", payments.KYCUnverified, payments.VerificationResolveErrors, payments.KYCUnverified, []string{"POOR_QUALITY_DOCUMENT"}},
		{enginetest.Regulated, "Ann 002", payments.KYCRejected, "", payments.KYCRejected, nil},
		{enginetest.Regulated, "Ann Smith", payments.KYCApproved, "", payments.KYCApproved, nil},
	}
	for _, tc := range cases {
		t.Run(tc.kind+"/"+tc.name, func(t *testing.T) {
			e := enginetest.KYCEnv(t, tc.kind)
			c, err := e.Eng.Customers.Create(ctx, enginetest.FullIndividual(tc.name))
			require.NoError(t, err)
			assert.Equal(t, tc.atCreation, c.KYCStatus)
			e.Upload(t, c.ID, "PASSPORT")
			v, err := e.Eng.Customers.SubmitVerification(ctx, c.ID)
			if tc.submit == "" {
				enginetest.RequireCode(t, err, payments.CodeInvalidInput)
			} else {
				require.NoError(t, err)
				assert.Equal(t, tc.submit, v.VerificationStatus)
				var types []string
				for _, ve := range v.Errors {
					types = append(types, ve.Type)
					assert.Equal(t, c.ID, ve.ResourceID)
				}
				assert.Equal(t, tc.firstErrorTypes, types)
			}
			got, err := e.Eng.Customers.Get(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, tc.after, got.KYCStatus)
		})
	}
}

// TestSandboxKYC_ResolveErrorsLoop is the resolve-errors loop: an incomplete packet
// lists one error per missing item; fixed and resubmitted it goes to manual
// review; a final status is never recomputed.
func TestSandboxKYC_ResolveErrorsLoop(t *testing.T) {
	for _, kind := range []string{enginetest.Unregulated, enginetest.Paperless, enginetest.Regulated} {
		t.Run(kind, func(t *testing.T) {
			e := enginetest.KYCEnv(t, kind)
			c, err := e.Eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
				AgreementConsents: []payments.AgreementConsent{enginetest.Consent()}, Profile: enginetest.FullIndividual("Bo 001").Profile})
			require.NoError(t, err)
			c, err = e.Eng.Customers.Update(ctx, c.ID, payments.CustomerInput{CustomerType: payments.CustomerIndividual})
			require.NoError(t, err)
			v, err := e.Eng.Customers.SubmitVerification(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, payments.VerificationResolveErrors, v.VerificationStatus)
			var problems []string
			for _, ve := range v.Errors {
				problems = append(problems, ve.Type+":"+ve.Field)
			}
			assert.ElementsMatch(t, []string{"MISSING_FIELD:identifier", "MISSING_IDENTITY_DOCUMENT:"}, problems)

			_, err = e.Eng.Customers.Update(ctx, c.ID, payments.CustomerInput{CustomerType: payments.CustomerIndividual, Identifier: "123-45-6789"})
			require.NoError(t, err)
			e.Upload(t, c.ID, "PASSPORT")
			v, err = e.Eng.Customers.SubmitVerification(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, payments.VerificationPendingManualReview, v.VerificationStatus)
			got, _ := e.Eng.Customers.Get(ctx, c.ID)
			assert.Equal(t, payments.KYCPending, got.KYCStatus)
		})
	}
	t.Run("unregulated: final statuses stay final, renaming recomputes nothing", func(t *testing.T) {
		e := enginetest.KYCEnv(t, enginetest.Unregulated)
		c, err := e.Eng.Customers.Create(ctx, enginetest.FullIndividual("Cy 002"))
		require.NoError(t, err)
		e.Upload(t, c.ID, "NATIONAL_ID")
		v, err := e.Eng.Customers.SubmitVerification(ctx, c.ID)
		require.NoError(t, err)
		require.Equal(t, payments.VerificationRejected, v.VerificationStatus)
		renamed, err := e.Eng.Customers.Update(ctx, c.ID, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
			Profile: enginetest.FullIndividual("Cy Smith").Profile})
		require.NoError(t, err)
		assert.Equal(t, payments.KYCRejected, renamed.KYCStatus)
		_, err = e.Eng.Customers.SubmitVerification(ctx, c.ID)
		enginetest.RequireCode(t, err, payments.CodeInvalidInput)
		assert.Equal(t, []string{"VERIFICATION.REJECTED", "CUSTOMER.KYC_REJECTED"}, e.FlushTypes(t))
	})
}

// TestSandboxKYC_Businesses has one case per business rule of the sandbox, per
// platform kind, with and without a complete packet; owners resolve with
// their business by their lastName suffix.
func TestSandboxKYC_Businesses(t *testing.T) {
	cases := []struct {
		kind, reg string
		complete  bool
		want      payments.VerificationStatus
		owners    []payments.KYCStatus // for owners "Doe 001", "Doe 002", "Doe"
	}{
		{enginetest.Unregulated, "REG-002", false, payments.VerificationResolveErrors, nil},
		{enginetest.Unregulated, "REG-777", false, payments.VerificationResolveErrors, nil},
		{enginetest.Unregulated, "REG-002", true, payments.VerificationRejected, []payments.KYCStatus{payments.KYCPending, payments.KYCRejected, payments.KYCApproved}},
		{enginetest.Unregulated, "REG-777", true, payments.VerificationApproved, []payments.KYCStatus{payments.KYCPending, payments.KYCRejected, payments.KYCApproved}},
		{enginetest.Unregulated, "REG-003", true, payments.VerificationPendingManualReview, nil},
		{enginetest.Paperless, "REG-002", false, payments.VerificationRejected, nil},
		{enginetest.Paperless, "REG-777", false, payments.VerificationApproved, nil},
		{enginetest.Paperless, "REG-001", false, payments.VerificationResolveErrors, nil},
		{enginetest.Paperless, "REG-003", true, payments.VerificationPendingManualReview, nil},
		{enginetest.Regulated, "REG-002", false, payments.VerificationRejected, nil},
		{enginetest.Regulated, "REG-777", true, payments.VerificationApproved, []payments.KYCStatus{payments.KYCPending, payments.KYCRejected, payments.KYCApproved}},
		{enginetest.Regulated, "REG-003", false, payments.VerificationResolveErrors, nil},
		{enginetest.Regulated, "REG-001", true, payments.VerificationPendingManualReview, nil},
	}
	for _, tc := range cases {
		name := tc.kind + "/" + tc.reg
		if tc.complete {
			name += "/complete"
		}
		t.Run(name, func(t *testing.T) {
			e := enginetest.KYCEnv(t, tc.kind)
			c, err := e.Eng.Customers.Create(ctx, enginetest.FullBusiness(tc.reg))
			require.NoError(t, err)
			assert.Equal(t, payments.KYCUnverified, c.KYBStatus)
			var owners []*payments.BeneficialOwner
			if tc.complete {
				e.Upload(t, c.ID, "CERTIFICATE_OF_INCORPORATION")
				for _, ln := range []string{"Doe 001", "Doe 002", "Doe"} {
					owners = append(owners, e.Owner(t, c.ID, ln))
				}
			}
			v, err := e.Eng.Customers.SubmitVerification(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, tc.want, v.VerificationStatus)
			if !tc.complete && tc.want == payments.VerificationResolveErrors {
				var types []string
				for _, ve := range v.Errors {
					types = append(types, ve.Type)
				}
				assert.Contains(t, types, "MISSING_LEGAL_PRESENCE_DOCUMENT")
				assert.Contains(t, types, "MISSING_BENEFICIAL_OWNER")
			}
			for i, want := range tc.owners {
				o, err := e.Eng.Customers.BeneficialOwner(ctx, owners[i].ID)
				require.NoError(t, err)
				assert.Equal(t, want, o.KYCStatus, "owner %s", o.PersonalInfo.LastName)
			}
			if tc.want == payments.VerificationApproved || tc.want == payments.VerificationRejected {
				_, err := e.Eng.Customers.SubmitVerification(ctx, c.ID)
				enginetest.RequireCode(t, err, payments.CodeInvalidInput)
			}
		})
	}
}
