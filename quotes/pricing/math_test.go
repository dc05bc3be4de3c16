package pricing_test

import (
	"testing"

	"github.com/paygrid/payments/quotes/pricing"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usd prices from US cents into a currency with recvDec decimals.
func usd(side pricing.LockedSide, amount int64, rate string, recvDec int, fees pricing.Fees) pricing.Input {
	return pricing.Input{LockedSide: side, Amount: amount, Rate: decimal.RequireFromString(rate),
		SendingDecimals: 2, ReceivingDecimals: recvDec, Fees: fees}
}

// TestCompute_WorkedExamples are the reference's worked quote examples at
// the rates it prints: 100000 cents with a 500-cent fee, sending locked, deliver
// the documented amount; locking that amount costs 100000 cents.
func TestCompute_WorkedExamples(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rate      string
		recvDec   int
		receiving int64
	}{
		{"USD-EUR", "1.08695652", 2, 91540},
		{"USD-MXN", "0.05797101", 2, 1716375},
		{"USD-BTC", "120048.01920768", 8, 828835}, // satoshis
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := pricing.Amounts{Sending: 100_000, Receiving: tc.receiving, FeesIncluded: 500}
			a, err := pricing.Compute(usd(pricing.Sending, 100_000, tc.rate, tc.recvDec, pricing.Fees{ServiceFixed: 500}))
			require.NoError(t, err)
			assert.Equal(t, want, a)
			a, err = pricing.Compute(usd(pricing.Receiving, tc.receiving, tc.rate, tc.recvDec, pricing.Fees{ServiceFixed: 500}))
			require.NoError(t, err)
			assert.Equal(t, want, a)
		})
	}
}

// TestCompute_FeeComposition is the assessing-fees example: 1000 cents,
// platform 30 bps + 50 cents, service 100 bps; each part rounded on its own.
func TestCompute_FeeComposition(t *testing.T) {
	fees := pricing.Fees{PlatformFixed: 50, PlatformBps: 30, ServiceRate: decimal.RequireFromString("0.01")}
	a, err := pricing.Compute(usd(pricing.Sending, 1000, "1", 2, fees))
	require.NoError(t, err)
	assert.Equal(t, pricing.Amounts{Sending: 1000, Receiving: 937, FeesIncluded: 63, PlatformFees: 53, ServiceVariable: 10, PlatformVariable: 3}, a)
	// Locking the 937 it delivers costs one cent less: at 999 cents the
	// service's 1% of 949 rounds down to 9.
	a, err = pricing.Compute(usd(pricing.Receiving, 937, "1", 2, fees))
	require.NoError(t, err)
	assert.Equal(t, pricing.Amounts{Sending: 999, Receiving: 937, FeesIncluded: 62, PlatformFees: 53, ServiceVariable: 9, PlatformVariable: 3}, a)
}

// TestCompute_ReceivingLocked: the sending amount is the smallest that
// delivers; one cent less does not.
func TestCompute_ReceivingLocked(t *testing.T) {
	for name, fees := range map[string]pricing.Fees{
		"Fixed and bps":      {PlatformFixed: 50, PlatformBps: 30, ServiceFixed: 25},
		"Service rate":       {ServiceRate: decimal.RequireFromString("0.0035")},
		"Both variable":      {PlatformBps: 30, ServiceRate: decimal.RequireFromString("0.003")},
		"9999 bps":           {PlatformBps: 9999},
		"Both, two thirds":   {PlatformBps: 3333, ServiceRate: decimal.RequireFromString("0.3333")},
		"Fixed above amount": {PlatformFixed: 1_000_000},
	} {
		t.Run(name, func(t *testing.T) {
			in := usd(pricing.Receiving, 91540, "1.08695652", 2, fees)
			a, err := pricing.Compute(in)
			require.NoError(t, err)
			assert.Equal(t, int64(91540), a.Receiving)
			in.LockedSide, in.Amount = pricing.Sending, a.Sending
			back, err := pricing.Compute(in)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, back.Receiving, int64(91540))
			assert.Equal(t, a.FeesIncluded, back.FeesIncluded, "the fees are those of the sending amount")
			in.Amount = a.Sending - 1
			if less, err := pricing.Compute(in); err == nil {
				assert.Less(t, less.Receiving, int64(91540))
			}
		})
	}
}

// TestCompute_BothVariableFeesDip: with two variable fees the net of a
// sending amount can fall when it grows by one (both parts round up
// together); the solve still finds the smallest amount that delivers.
func TestCompute_BothVariableFeesDip(t *testing.T) {
	fees := pricing.Fees{PlatformBps: 5000, ServiceRate: decimal.RequireFromString("0.3")}
	nets := []int64{}
	for send := int64(1); send <= 5; send++ {
		a, err := pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: send, Rate: decimal.NewFromInt(1), Fees: fees})
		if err != nil {
			nets = append(nets, 0)
			continue
		}
		nets = append(nets, a.Sending-a.FeesIncluded)
	}
	assert.Equal(t, []int64{0, 0, 0, 1, 0}, nets)
	a, err := pricing.Compute(pricing.Input{LockedSide: pricing.Receiving, Amount: 1, Rate: decimal.NewFromInt(1), Fees: fees})
	require.NoError(t, err)
	assert.Equal(t, int64(4), a.Sending)
}

// TestCompute_Range: no figure beyond 9000000000000000 on either side is
// ever returned; such a quote is ErrRange, not a wrapped int64.
func TestCompute_Range(t *testing.T) {
	const max = pricing.MaxAmount
	// 0.015 USDC at a rate that makes it more pence than the limit.
	_, err := pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: 15_000, Rate: decimal.RequireFromString("0.000000000000000001"),
		SendingDecimals: 6, ReceivingDecimals: 2})
	assert.ErrorIs(t, err, pricing.ErrRange)
	for name, in := range map[string]pricing.Input{
		"Sending beyond":          {LockedSide: pricing.Sending, Amount: max + 1, Rate: decimal.NewFromInt(1)},
		"Receiving beyond":        {LockedSide: pricing.Receiving, Amount: max + 1, Rate: decimal.NewFromInt(1)},
		"Zero":                    {LockedSide: pricing.Sending, Amount: 0, Rate: decimal.NewFromInt(1)},
		"Converts beyond":         {LockedSide: pricing.Sending, Amount: max, Rate: decimal.RequireFromString("0.99999")},
		"Costs beyond":            {LockedSide: pricing.Receiving, Amount: max, Rate: decimal.RequireFromString("1.00001")},
		"Fees push beyond":        {LockedSide: pricing.Receiving, Amount: max, Rate: decimal.NewFromInt(1), Fees: pricing.Fees{PlatformFixed: 1}},
		"JPY to 8 decimals":       {LockedSide: pricing.Sending, Amount: max, Rate: decimal.RequireFromString("0.0067"), ReceivingDecimals: 8},
		"Huge rate, receiving":    {LockedSide: pricing.Receiving, Amount: 1, Rate: decimal.New(1, 100)},
		"Tiny rate, sending":      {LockedSide: pricing.Sending, Amount: 1, Rate: decimal.New(1, -100)},
		"Extreme exponent":        {LockedSide: pricing.Sending, Amount: 1, Rate: decimal.New(1, -2_000_000_000)},
		"Extreme exponent, large": {LockedSide: pricing.Receiving, Amount: 1, Rate: decimal.New(1, 2_000_000_000)},
	} {
		_, err := pricing.Compute(in)
		assert.ErrorIs(t, err, pricing.ErrRange, name)
	}
	// The limits themselves are fine.
	a, err := pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: max, Rate: decimal.NewFromInt(1)})
	require.NoError(t, err)
	assert.Equal(t, pricing.Amounts{Sending: max, Receiving: max}, a)
	a, err = pricing.Compute(pricing.Input{LockedSide: pricing.Receiving, Amount: max, Rate: decimal.NewFromInt(1)})
	require.NoError(t, err)
	assert.Equal(t, pricing.Amounts{Sending: max, Receiving: max}, a)
	// A huge rate delivers nothing; a tiny one needs one unit.
	_, err = pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: max, Rate: decimal.New(1, 100)})
	assert.ErrorIs(t, err, pricing.ErrTooSmall)
	a, err = pricing.Compute(pricing.Input{LockedSide: pricing.Receiving, Amount: 5, Rate: decimal.New(1, -100)})
	require.NoError(t, err)
	assert.Equal(t, int64(1), a.Sending)
}

// TestCompute_FeeSettings: fees that take everything are ErrTooSmall,
// settings outside their ranges ErrFees.
func TestCompute_FeeSettings(t *testing.T) {
	one := decimal.NewFromInt(1)
	for name, in := range map[string]pricing.Input{
		"10000 bps, sending":       {LockedSide: pricing.Sending, Amount: 1_000_000, Rate: one, Fees: pricing.Fees{PlatformBps: 10_000}},
		"10000 bps, receiving":     {LockedSide: pricing.Receiving, Amount: 1_000_000, Rate: one, Fees: pricing.Fees{PlatformBps: 10_000}},
		"Both 100%, receiving":     {LockedSide: pricing.Receiving, Amount: 1, Rate: one, Fees: pricing.Fees{PlatformBps: 5000, ServiceRate: decimal.RequireFromString("0.5")}},
		"Fixed above amount":       {LockedSide: pricing.Sending, Amount: 100, Rate: one, Fees: pricing.Fees{PlatformFixed: 60, ServiceFixed: 60}},
		"Fixed equal to amount":    {LockedSide: pricing.Sending, Amount: 100, Rate: one, Fees: pricing.Fees{PlatformFixed: 100}},
		"Less than a unit":         {LockedSide: pricing.Sending, Amount: 1, Rate: decimal.NewFromInt(2)},
		"Service rate 1, sending":  {LockedSide: pricing.Sending, Amount: 100, Rate: one, Fees: pricing.Fees{ServiceRate: one}},
		"Fixed fee at the maximum": {LockedSide: pricing.Sending, Amount: pricing.MaxAmount, Rate: one, Fees: pricing.Fees{ServiceFixed: pricing.MaxAmount}},
	} {
		_, err := pricing.Compute(in)
		assert.ErrorIs(t, err, pricing.ErrTooSmall, name)
	}
	for name, f := range map[string]pricing.Fees{
		"Negative fixed":      {PlatformFixed: -1},
		"Fixed beyond max":    {ServiceFixed: pricing.MaxAmount + 1},
		"Negative bps":        {PlatformBps: -1},
		"bps beyond 10000":    {PlatformBps: 10_001},
		"Negative rate":       {ServiceRate: decimal.RequireFromString("-0.001")},
		"Rate beyond 1":       {ServiceRate: decimal.RequireFromString("1.5")},
		"Rate too precise":    {ServiceRate: decimal.New(1, -19)},
		"Rate of huge digits": {ServiceRate: decimal.New(1, 1_000_000_000)},
	} {
		_, err := pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: 100, Rate: one, Fees: f})
		assert.ErrorIs(t, err, pricing.ErrFees, name)
	}
}

func TestCompute_Errors(t *testing.T) {
	_, err := pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: 100})
	assert.ErrorIs(t, err, pricing.ErrRate)
	_, err = pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: 100, Rate: decimal.NewFromInt(1), SendingDecimals: 19})
	assert.ErrorIs(t, err, pricing.ErrRate)
	_, err = pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: 100, Rate: decimal.NewFromInt(1), ReceivingDecimals: -1})
	assert.ErrorIs(t, err, pricing.ErrRate)
	assert.Less(t, pricing.TTL("LIGHTNING"), pricing.TTL("SWIFT"))
}
