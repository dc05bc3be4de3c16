package customers_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSCA_ConcurrentWrongCodes: concurrent wrong login codes are each
// counted once: four refusals, then the lock, whose count stays at five.
func TestSCA_ConcurrentWrongCodes(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			id, _, _ := e.EUCustomer(t, 1)
			st, err := e.Eng.SCA.StartLogin(ctx, id, "SMS_OTP")
			require.NoError(t, err)
			try := func() error {
				_, err := e.Eng.SCA.CompleteLogin(ctx, id, payments.ScaLoginComplete{Factor: "SMS_OTP", ChallengeID: st.ChallengeID,
					ScaAuthorization: payments.ScaAuthorization{Code: "000000", EndUserIPAddress: "203.0.113.42"}})
				return err
			}
			codes := enginetest.Concurrently(20, try)
			assert.Equal(t, map[payments.Code]int{payments.CodeInvalidInput: 4, payments.CodeAccountLocked: 16}, codes)
			var pe *payments.Error
			require.ErrorAs(t, try(), &pe)
			assert.Equal(t, 5, pe.Details["failedAttempts"])
		})
	}
}
