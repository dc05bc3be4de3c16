package sandbox_test

import (
	"context"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/sandbox"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// price computes a quote from USD at the sandbox's own rate.
func price(t *testing.T, to string, side quotes.LockedSide, amount int64, fees quotes.Fees) quotes.Amounts {
	t.Helper()
	r, err := sandbox.Rates{}.Rate(context.Background(), "USD", to)
	require.NoError(t, err)
	usd, _ := money.Lookup("USD")
	rc, _ := money.Lookup(to)
	a, err := quotes.Compute(quotes.Input{LockedSide: side, Amount: amount, Rate: r.Decimal(),
		SendingDecimals: usd.Decimals, ReceivingDecimals: rc.Decimals, Fees: fees})
	require.NoError(t, err)
	return a
}

// TestRates_WorkedExamples are the reference's worked quote examples at the
// sandbox's rates: 100000 cents with a 500-cent fee deliver exactly the
// documented amount, and locking that amount costs exactly 100000 cents.
func TestRates_WorkedExamples(t *testing.T) {
	fee := quotes.Fees{PlatformFixed: 500}
	for _, tc := range []struct {
		to        string
		receiving int64
	}{
		{"EUR", 91540},
		{"MXN", 1716375},
		{"BTC", 828835}, // satoshis
	} {
		t.Run(tc.to, func(t *testing.T) {
			a := price(t, tc.to, quotes.Sending, 100_000, fee)
			assert.Equal(t, quotes.Amounts{Sending: 100_000, Receiving: tc.receiving, FeesIncluded: 500, PlatformFees: 500}, a)
			a = price(t, tc.to, quotes.Receiving, tc.receiving, fee)
			assert.Equal(t, quotes.Amounts{Sending: 100_000, Receiving: tc.receiving, FeesIncluded: 500, PlatformFees: 500}, a)
		})
	}
}

// TestRates_FeeComposition is the assessing-fees example (1000 cents,
// platform 30 bps + 50 cents, service 100 bps) at the sandbox's USD to EUR
// rate: 937 cents net buy 862.04 euro cents, rounded down.
func TestRates_FeeComposition(t *testing.T) {
	fees := quotes.Fees{PlatformFixed: 50, PlatformBps: 30, ServiceRate: mustDecimal("0.01")}
	a := price(t, "EUR", quotes.Sending, 1000, fees)
	assert.Equal(t, quotes.Amounts{Sending: 1000, Receiving: 862, FeesIncluded: 63, PlatformFees: 53,
		ServiceVariable: 10, PlatformVariable: 3}, a)
}

// TestRates_Exact: the documented sandbox values are exact ratios.
func TestRates_Exact(t *testing.T) {
	for pair, want := range map[[2]string]string{
		{"EUR", "USD"}: "0.92", {"MXN", "USD"}: "17.25", {"INR", "USD"}: "82.5", {"BTC", "USD"}: "0.00000833",
		{"USD", "USDC"}: "1", {"USD", "MXN"}: "0.0579710144927536231884057",
	} {
		r, err := sandbox.Rates{}.Rate(context.Background(), pair[0], pair[1])
		require.NoError(t, err)
		assert.Equal(t, want, r.String(), pair)
	}
	_, err := sandbox.Rates{}.Rate(context.Background(), "USD", "XXX")
	assert.Equal(t, payments.CodeQuoteRateUnavailable, payments.CodeOf(err))
}

func mustDecimal(s string) decimal.Decimal { return decimal.RequireFromString(s) }
