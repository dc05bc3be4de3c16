package payments_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxKYC_Individuals has one case per row of spec 3.3's individual
// table, per platform kind, with a complete packet submitted once.
func TestSandboxKYC_Individuals(t *testing.T) {
	cases := []struct {
		kind, name      string
		atCreation      payments.KYCStatus
		submit          payments.VerificationStatus // "" means 400 (final)
		after           payments.KYCStatus
		firstErrorTypes []string
	}{
		{unregulated, "Ann 001", payments.KYCUnverified, payments.VerificationPendingManualReview, payments.KYCPending, nil},
		{unregulated, "Ann 002", payments.KYCUnverified, payments.VerificationRejected, payments.KYCRejected, nil},
		{unregulated, "Ann 003", payments.KYCUnverified, payments.VerificationResolveErrors, payments.KYCUnverified, []string{"POOR_QUALITY_DOCUMENT"}},
		{unregulated, "Ann Smith", payments.KYCUnverified, payments.VerificationApproved, payments.KYCApproved, nil},
		{paperless, "Ann 001", payments.KYCPending, payments.VerificationPendingManualReview, payments.KYCPending, nil},
		{paperless, "Ann 003", payments.KYCUnverified, payments.VerificationResolveErrors, payments.KYCUnverified, []string{"POOR_QUALITY_DOCUMENT"}},
		{paperless, "Ann 002", payments.KYCRejected, "", payments.KYCRejected, nil},
		{paperless, "Ann Smith", payments.KYCApproved, "", payments.KYCApproved, nil},
		{regulated, "Ann 001", payments.KYCPending, payments.VerificationPendingManualReview, payments.KYCPending, nil},
		{regulated, "Ann 003", payments.KYCUnverified, payments.VerificationResolveErrors, payments.KYCUnverified, []string{"POOR_QUALITY_DOCUMENT"}},
		{regulated, "Ann 002", payments.KYCRejected, "", payments.KYCRejected, nil},
		{regulated, "Ann Smith", payments.KYCApproved, "", payments.KYCApproved, nil},
	}
	for _, tc := range cases {
		t.Run(tc.kind+"/"+tc.name, func(t *testing.T) {
			e := kycEnv(t, tc.kind)
			c, err := e.eng.Customers.Create(ctx, fullIndividual(tc.name))
			require.NoError(t, err)
			assert.Equal(t, tc.atCreation, c.KYCStatus)
			e.upload(t, c.ID, "PASSPORT")
			v, err := e.eng.Customers.SubmitVerification(ctx, c.ID)
			if tc.submit == "" {
				requireCode(t, err, payments.CodeInvalidInput)
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
			got, err := e.eng.Customers.Get(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, tc.after, got.KYCStatus)
		})
	}
}

// TestSandboxKYC_ResolveErrorsLoop is the spec's loop: an incomplete packet
// lists one error per missing item; fixed and resubmitted it goes to manual
// review; a final status is never recomputed.
func TestSandboxKYC_ResolveErrorsLoop(t *testing.T) {
	for _, kind := range []string{unregulated, paperless, regulated} {
		t.Run(kind, func(t *testing.T) {
			e := kycEnv(t, kind)
			c, err := e.eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
				AgreementConsents: []payments.AgreementConsent{consent()}, Profile: fullIndividual("Bo 001").Profile})
			require.NoError(t, err)
			c, err = e.eng.Customers.Update(ctx, c.ID, payments.CustomerInput{CustomerType: payments.CustomerIndividual})
			require.NoError(t, err)
			v, err := e.eng.Customers.SubmitVerification(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, payments.VerificationResolveErrors, v.VerificationStatus)
			var problems []string
			for _, ve := range v.Errors {
				problems = append(problems, ve.Type+":"+ve.Field)
			}
			assert.ElementsMatch(t, []string{"MISSING_FIELD:identifier", "MISSING_IDENTITY_DOCUMENT:"}, problems)

			_, err = e.eng.Customers.Update(ctx, c.ID, payments.CustomerInput{CustomerType: payments.CustomerIndividual, Identifier: "123-45-6789"})
			require.NoError(t, err)
			e.upload(t, c.ID, "PASSPORT")
			v, err = e.eng.Customers.SubmitVerification(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, payments.VerificationPendingManualReview, v.VerificationStatus)
			got, _ := e.eng.Customers.Get(ctx, c.ID)
			assert.Equal(t, payments.KYCPending, got.KYCStatus)
		})
	}
	t.Run("unregulated: final statuses stay final, renaming recomputes nothing", func(t *testing.T) {
		e := kycEnv(t, unregulated)
		c, err := e.eng.Customers.Create(ctx, fullIndividual("Cy 002"))
		require.NoError(t, err)
		e.upload(t, c.ID, "NATIONAL_ID")
		v, err := e.eng.Customers.SubmitVerification(ctx, c.ID)
		require.NoError(t, err)
		require.Equal(t, payments.VerificationRejected, v.VerificationStatus)
		renamed, err := e.eng.Customers.Update(ctx, c.ID, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
			Profile: fullIndividual("Cy Smith").Profile})
		require.NoError(t, err)
		assert.Equal(t, payments.KYCRejected, renamed.KYCStatus)
		_, err = e.eng.Customers.SubmitVerification(ctx, c.ID)
		requireCode(t, err, payments.CodeInvalidInput)
		assert.Equal(t, []string{"VERIFICATION.REJECTED", "CUSTOMER.KYC_REJECTED"}, flushTypes(t, e))
	})
}

// TestSandboxKYC_Businesses has one case per business rule of spec 3.3, per
// platform kind, with and without a complete packet; owners resolve with
// their business by their lastName suffix.
func TestSandboxKYC_Businesses(t *testing.T) {
	cases := []struct {
		kind, reg string
		complete  bool
		want      payments.VerificationStatus
		owners    []payments.KYCStatus // for owners "Doe 001", "Doe 002", "Doe"
	}{
		{unregulated, "REG-002", false, payments.VerificationResolveErrors, nil},
		{unregulated, "REG-777", false, payments.VerificationResolveErrors, nil},
		{unregulated, "REG-002", true, payments.VerificationRejected, []payments.KYCStatus{payments.KYCPending, payments.KYCRejected, payments.KYCApproved}},
		{unregulated, "REG-777", true, payments.VerificationApproved, []payments.KYCStatus{payments.KYCPending, payments.KYCRejected, payments.KYCApproved}},
		{unregulated, "REG-003", true, payments.VerificationPendingManualReview, nil},
		{paperless, "REG-002", false, payments.VerificationRejected, nil},
		{paperless, "REG-777", false, payments.VerificationApproved, nil},
		{paperless, "REG-001", false, payments.VerificationResolveErrors, nil},
		{paperless, "REG-003", true, payments.VerificationPendingManualReview, nil},
		{regulated, "REG-002", false, payments.VerificationRejected, nil},
		{regulated, "REG-777", true, payments.VerificationApproved, []payments.KYCStatus{payments.KYCPending, payments.KYCRejected, payments.KYCApproved}},
		{regulated, "REG-003", false, payments.VerificationResolveErrors, nil},
		{regulated, "REG-001", true, payments.VerificationPendingManualReview, nil},
	}
	for _, tc := range cases {
		name := tc.kind + "/" + tc.reg
		if tc.complete {
			name += "/complete"
		}
		t.Run(name, func(t *testing.T) {
			e := kycEnv(t, tc.kind)
			c, err := e.eng.Customers.Create(ctx, fullBusiness(tc.reg))
			require.NoError(t, err)
			assert.Equal(t, payments.KYCUnverified, c.KYBStatus)
			var owners []*payments.BeneficialOwner
			if tc.complete {
				e.upload(t, c.ID, "CERTIFICATE_OF_INCORPORATION")
				for _, ln := range []string{"Doe 001", "Doe 002", "Doe"} {
					owners = append(owners, e.owner(t, c.ID, ln))
				}
			}
			v, err := e.eng.Customers.SubmitVerification(ctx, c.ID)
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
				o, err := e.eng.Customers.BeneficialOwner(ctx, owners[i].ID)
				require.NoError(t, err)
				assert.Equal(t, want, o.KYCStatus, "owner %s", o.PersonalInfo.LastName)
			}
			if tc.want == payments.VerificationApproved || tc.want == payments.VerificationRejected {
				_, err := e.eng.Customers.SubmitVerification(ctx, c.ID)
				requireCode(t, err, payments.CodeInvalidInput)
			}
		})
	}
}

// flushTypes delivers the outbox and returns the event types delivered.
func flushTypes(t testing.TB, e *env) []string {
	t.Helper()
	_, err := e.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	return e.rec.types()
}
