package quotes_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_WorkedExamples: the reference's worked quote example through
// CreateQuote at the sandbox's own rates: sending 100000 cents with a
// 500-cent fee delivers exactly 1716375 centavos, and locking 1716375
// centavos costs exactly 100000 cents.
func TestEngine_WorkedExamples(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{FeeConfigs: []payments.FeeConfig{{
		FeeType: "CROSS_CURRENCY_TRANSACTION", SourceCurrency: "USD", FixedFee: payments.FixedFee{Amount: 500, Currency: "USD"}}}})
	require.NoError(t, err)
	usd := e.USDAccount(t, "Sender")
	in := enginetest.FullIndividual("Receiver")
	in.Currencies = []string{"MXN"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	mxn := page.Data[0].ID

	for _, tc := range []struct {
		side   payments.LockedSide
		amount int64
	}{{"SENDING", 100_000}, {"RECEIVING", 1_716_375}} {
		t.Run(string(tc.side), func(t *testing.T) {
			q, err := e.Eng.Quotes.Create(ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: usd},
				Destination:        payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: mxn},
				LockedCurrencySide: tc.side, LockedCurrencyAmount: tc.amount})
			require.NoError(t, err)
			assert.EqualValues(t, 100_000, q.TotalSendingAmount)
			assert.EqualValues(t, 1_716_375, q.TotalReceivingAmount)
			assert.EqualValues(t, 500, q.FeesIncluded)
			f, _ := q.ExchangeRate.Decimal().Float64()
			assert.InDelta(t, 0.05797101, f, 1e-8, "sending units per receiving unit")
		})
	}
}
