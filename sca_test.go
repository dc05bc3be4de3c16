package payments_test

import (
	"encoding/json"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// euCustomer creates a customer in an SCA region with a funded USD
// account and an EUR payee; it returns the three ids.
func (e *env) euCustomer(t *testing.T, funds int64) (string, string, string) {
	t.Helper()
	in := fullIndividual("Erika Mustermann")
	in.Region, in.Email, in.PhoneNumber, in.Currencies = "DE", "erika@example.com", "+4915112345678", []string{"USD", "EUR"}
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID, Currency: "USD"}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	acct := page.Data[0].ID
	_, err = e.eng.Sandbox.Fund(ctx, acct, funds)
	require.NoError(t, err)
	info := json.RawMessage(`{"accountType":"EUR_ACCOUNT","iban":"DE89370400440532013000","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Jo","countryOfResidence":"DE"}}`)
	payee, err := e.eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID, Currency: "EUR", AccountInfo: info}, payments.CustomerScope)
	require.NoError(t, err)
	return c.ID, acct, payee.ID
}

func (e *env) scaLogin(t *testing.T, customerID string) {
	t.Helper()
	st, err := e.eng.SCA.StartLogin(ctx, customerID, "SMS_OTP")
	require.NoError(t, err)
	_, err = e.eng.SCA.CompleteLogin(ctx, customerID, payments.ScaLoginComplete{Factor: "SMS_OTP", ChallengeID: st.ChallengeID,
		ScaAuthorization: payments.ScaAuthorization{Code: sandbox.ContactCode, EndUserIPAddress: "203.0.113.42"}})
	require.NoError(t, err)
}

// TestSCA_ConcurrentWrongCodes: concurrent wrong login codes are each
// counted once: four refusals, then the lock, whose count stays at five.
func TestSCA_ConcurrentWrongCodes(t *testing.T) {
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			e := moneyEnv(t, store)
			id, _, _ := e.euCustomer(t, 1)
			st, err := e.eng.SCA.StartLogin(ctx, id, "SMS_OTP")
			require.NoError(t, err)
			try := func() error {
				_, err := e.eng.SCA.CompleteLogin(ctx, id, payments.ScaLoginComplete{Factor: "SMS_OTP", ChallengeID: st.ChallengeID,
					ScaAuthorization: payments.ScaAuthorization{Code: "000000", EndUserIPAddress: "203.0.113.42"}})
				return err
			}
			codes := concurrently(20, try)
			assert.Equal(t, map[payments.Code]int{payments.CodeInvalidInput: 4, payments.CodeAccountLocked: 16}, codes)
			var pe *payments.Error
			require.ErrorAs(t, try(), &pe)
			assert.Equal(t, 5, pe.Details["failedAttempts"])
		})
	}
}

// TestSCA_ConcurrentAuthorize: an executed EU quote waits for its
// challenge; concurrent authorizations release it exactly once.
func TestSCA_ConcurrentAuthorize(t *testing.T) {
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			e := moneyEnv(t, store)
			id, acct, payee := e.euCustomer(t, 10_000)
			q, err := e.eng.Quotes.Create(ctx, transfer(acct, payee, 1000, false))
			require.NoError(t, err)
			x, err := e.eng.Quotes.Execute(ctx, q.ID)
			require.NoError(t, err)
			require.Equal(t, payments.QuotePendingAuthorization, x.Status)
			_, err = e.eng.Quotes.Authorize(ctx, q.ID, sandbox.ContactCode)
			requireCode(t, err, payments.CodeScaSessionRequired)
			e.scaLogin(t, id)
			codes := concurrently(16, func() error {
				_, err := e.eng.Quotes.Authorize(ctx, q.ID, sandbox.ContactCode)
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeConflict: 15}, codes)
			a, err := e.eng.Accounts.Internal(ctx, acct)
			require.NoError(t, err)
			assert.EqualValues(t, 9_000, a.Balance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.store))
		})
	}
}
