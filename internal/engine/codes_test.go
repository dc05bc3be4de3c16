package engine_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodes_EveryCodeHasAStatus(t *testing.T) {
	for _, c := range payments.Codes() {
		s := c.Status()
		assert.True(t, s >= 400 && s < 600, "%s -> %d", c, s)
	}
	assert.Equal(t, 500, payments.Code("NO_SUCH_CODE").Status())
	assert.Equal(t, 409, payments.CodeConflict.Status())
	assert.Equal(t, payments.CodeNotFound, payments.CodeOf(payments.ErrNotFound))
	assert.Equal(t, payments.CodeInternalError, payments.CodeOf(errors.New("boom")))
	assert.Equal(t, "an internal error occurred", payments.MessageOf(errors.New("secret internals")))
}

// TestCodes_AreasRegisterTheirCodes: the codes an area declares in its
// own package (AreaDef.Codes) are listed by Codes and keep the status
// they had in the kernel's table, once an engine is built; the 120 codes
// (116 of the kernel's list and the wallets' 4) are all there, once each.
func TestCodes_AreasRegisterTheirCodes(t *testing.T) {
	eng, err := payments.New(payments.Config{Store: memstore.New()})
	require.NoError(t, err)
	defer eng.Close()
	seen := map[payments.Code]int{}
	for _, c := range payments.Codes() {
		seen[c]++
		assert.Equal(t, 1, seen[c], "%s listed twice", c)
		s := c.Status()
		assert.True(t, s >= 400 && s < 600, "%s -> %d", c, s)
	}
	assert.Len(t, seen, 120)
	for c, want := range map[payments.Code]int{
		payments.CodeCardLimitReached: 409, payments.CodeFundingSourceIneligible: 400,
		payments.CodeStablecoinNotFound: 404, payments.CodeStablecoinProviderError: 400,
		payments.CodeSelfPayment: 400, payments.CodeInvitationNotFound: 404, payments.CodeScaSessionRequired: 409,
		payments.CodeWalletSignatureInvalid: 401, payments.CodeEmailOtpEmailAlreadyExists: 409,
		payments.CodeCustomerDeleted: 410, payments.CodeAccountLocked: 423, payments.CodeEndUserTermsNotAccepted: 403,
		payments.CodeCustomerNotFound: 404, payments.CodeWalletSignatureMissing: 401,
	} {
		assert.Equal(t, 1, seen[c], "%s not listed", c)
		assert.Equal(t, want, c.Status(), c)
	}
}
