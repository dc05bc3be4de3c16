package quotes_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func scaLogin(t *testing.T, e *enginetest.Env, customerID string) {
	t.Helper()
	st, err := e.Eng.SCA.StartLogin(ctx, customerID, "SMS_OTP")
	require.NoError(t, err)
	_, err = e.Eng.SCA.CompleteLogin(ctx, customerID, payments.ScaLoginComplete{Factor: "SMS_OTP", ChallengeID: st.ChallengeID,
		ScaAuthorization: payments.ScaAuthorization{Code: sandbox.ContactCode, EndUserIPAddress: "203.0.113.42"}})
	require.NoError(t, err)
}

// TestSCA_ConcurrentAuthorize: an executed EU quote waits for its
// challenge; concurrent authorizations release it exactly once.
func TestSCA_ConcurrentAuthorize(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			id, acct, payee := e.EUCustomer(t, 10_000)
			q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(acct, payee, 1000, false))
			require.NoError(t, err)
			x, err := e.Eng.Quotes.Execute(ctx, q.ID)
			require.NoError(t, err)
			require.Equal(t, payments.QuotePendingAuthorization, x.Status)
			_, err = e.Eng.Quotes.Authorize(ctx, q.ID, sandbox.ContactCode)
			enginetest.RequireCode(t, err, payments.CodeScaSessionRequired)
			scaLogin(t, e, id)
			codes := enginetest.Concurrently(16, func() error {
				_, err := e.Eng.Quotes.Authorize(ctx, q.ID, sandbox.ContactCode)
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeConflict: 15}, codes)
			a, err := e.Eng.Accounts.Internal(ctx, acct)
			require.NoError(t, err)
			assert.EqualValues(t, 9_000, a.Balance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Store))
		})
	}
}
