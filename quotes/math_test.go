package quotes_test

import (
	"testing"

	"github.com/paygrid/payments/quotes"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompute_WorkedExamples are wire-facts 2.4's examples: 100000 cents
// with a 500-cent fee.
func TestCompute_WorkedExamples(t *testing.T) {
	for _, tc := range []struct {
		rate      string
		recvDec   int
		receiving int64
	}{
		{"1.08695652", 2, 91540},       // USD -> EUR
		{"0.05797101", 2, 1716375},     // USD -> MXN
		{"120048.01920768", 8, 828835}, // USD -> BTC (sats)
	} {
		a, err := quotes.Compute(quotes.Input{LockedSide: quotes.Sending, Amount: 100000, Rate: decimal.RequireFromString(tc.rate),
			SendingDecimals: 2, ReceivingDecimals: tc.recvDec, Fees: quotes.Fees{ServiceFixed: 500}})
		require.NoError(t, err)
		assert.Equal(t, int64(500), a.FeesIncluded)
		assert.Equal(t, tc.receiving, a.Receiving, tc.rate)
	}
}

// TestCompute_FeeComposition is the assessing-fees example: 1000 cents,
// platform 30 bps + 50 cents, service 100 bps; each part rounded on its own.
func TestCompute_FeeComposition(t *testing.T) {
	a, err := quotes.Compute(quotes.Input{LockedSide: quotes.Sending, Amount: 1000, Rate: decimal.NewFromInt(1),
		SendingDecimals: 2, ReceivingDecimals: 2, Fees: quotes.Fees{PlatformFixed: 50, PlatformBps: 30, ServiceRate: decimal.RequireFromString("0.01")}})
	require.NoError(t, err)
	assert.Equal(t, int64(3), a.PlatformVariable)
	assert.Equal(t, int64(10), a.ServiceVariable)
	assert.Equal(t, int64(53), a.PlatformFees)
	assert.Equal(t, int64(63), a.FeesIncluded)
	assert.Equal(t, int64(937), a.Receiving)
}

func TestCompute_ReceivingLocked(t *testing.T) {
	in := quotes.Input{LockedSide: quotes.Receiving, Amount: 91540, Rate: decimal.RequireFromString("1.08695652"),
		SendingDecimals: 2, ReceivingDecimals: 2, Fees: quotes.Fees{PlatformFixed: 50, PlatformBps: 30, ServiceFixed: 25}}
	a, err := quotes.Compute(in)
	require.NoError(t, err)
	assert.Equal(t, int64(91540), a.Receiving)
	// The smallest sending amount that delivers: one cent less does not.
	in.LockedSide, in.Amount = quotes.Sending, a.Sending
	back, err := quotes.Compute(in)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, back.Receiving, int64(91540))
	in.Amount = a.Sending - 1
	less, err := quotes.Compute(in)
	require.NoError(t, err)
	assert.Less(t, less.Receiving, int64(91540))
}

func TestCompute_Errors(t *testing.T) {
	_, err := quotes.Compute(quotes.Input{LockedSide: quotes.Sending, Amount: 100, Rate: decimal.NewFromInt(1), Fees: quotes.Fees{PlatformFixed: 100}})
	assert.ErrorIs(t, err, quotes.ErrTooSmall)
	_, err = quotes.Compute(quotes.Input{LockedSide: quotes.Sending, Amount: 100})
	assert.ErrorIs(t, err, quotes.ErrRate)
	assert.Less(t, quotes.TTL("LIGHTNING"), quotes.TTL("SWIFT"))
}
