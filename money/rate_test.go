package money_test

import (
	"testing"

	"github.com/paygrid/payments/money"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRatio: a terminating quotient is exact, another is truncated so that
// converting exact multiples comes out to the unit both ways.
func TestRatio(t *testing.T) {
	r, err := money.Ratio(decimal.NewFromInt(92), decimal.NewFromInt(100))
	require.NoError(t, err)
	assert.Equal(t, "0.92", r.String())

	r, err = money.Ratio(decimal.NewFromInt(4), decimal.NewFromInt(69))
	require.NoError(t, err)
	assert.Equal(t, "0.0579710144927536231884057", r.String(), "24 significant digits, truncated")
	assert.True(t, r.Decimal().Mul(decimal.NewFromInt(69)).LessThan(decimal.NewFromInt(4)), "never rounded up")
	assert.Equal(t, int64(1716375), decimal.NewFromInt(99500).Div(r.Decimal()).Floor().IntPart())
	assert.Equal(t, int64(99500), decimal.NewFromInt(1716375).Mul(r.Decimal()).Ceil().IntPart())

	r, err = money.Ratio(decimal.NewFromInt(100_000_000), decimal.NewFromInt(833))
	require.NoError(t, err)
	assert.Equal(t, "120048.019207683073229291", r.String())

	_, err = money.Ratio(decimal.Zero, decimal.NewFromInt(1))
	assert.Error(t, err)
}
