package accounts_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/require"
)

// TestAccountViewEncoding holds the hand-written encoding of balance events
// to encoding/json's, for accounts of every kind of funding instructions
// (bank, wallet, SWIFT; customer and platform), funded and not, and again
// from the cached instructions.
func TestAccountViewEncoding(t *testing.T) {
	e := enginetest.NewEnv(t)
	in := enginetest.FullIndividual("Ann <Enc> & Co")
	in.Currencies = []string{"USD", "EUR", "MXN", "GBP", "USDC", "BTC", "INR"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	var ids []string
	for _, scope := range []payments.Scope{payments.CustomerScope, payments.PlatformScope} {
		page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: map[payments.Scope]string{payments.CustomerScope: c.ID}[scope]}, scope, payments.ListParams{Limit: payments.MaxLimit})
		require.NoError(t, err)
		for _, a := range page.Data {
			ids = append(ids, a.ID)
		}
	}
	require.Greater(t, len(ids), 7, "the customer's accounts and the platform's")
	_, err = e.Eng.Sandbox.Fund(ctx, ids[0], 12345)
	require.NoError(t, err)
	for range 2 {
		for _, id := range ids {
			fast, model, err := enginetest.AccountViewEncodings(ctx, e.Eng, id)
			require.NoError(t, err)
			require.Equal(t, string(model), string(fast), id)
		}
	}
}
