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

// FuzzRateText checks a rate's kept text and its float against the decimal
// they stand for: decoding any accepted number keeps the text only when it
// is what String renders, and Float64 is the float math/big.Rat rounds to.
func FuzzRateText(f *testing.F) {
	for _, s := range []string{"0.92", "17.25", "0", "-0", "-0.5", "1.50", "007", "1e5", "0.0579710144927536231884057",
		"120048.019207683073229291", "1e400", "-1e-400", "12.", ".5", `"0.92"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var r money.Rate
		if err := r.UnmarshalJSON([]byte(s)); err != nil {
			return
		}
		d := r.Decimal()
		if r.String() != d.String() {
			t.Fatalf("String() = %q, want %q", r.String(), d.String())
		}
		want, _ := d.Float64()
		if got := r.Float64(); got != want {
			t.Fatalf("Float64() = %v, want %v", got, want)
		}
		if b, _ := r.MarshalJSON(); string(b) != d.String() {
			t.Fatalf("MarshalJSON() = %s, want %s", b, d.String())
		}
	})
}

// TestRateText: rates made here render as their decimal does, and decoding
// keeps a canonical text as it is.
func TestRateText(t *testing.T) {
	r, err := money.NewRate("17.2500")
	require.NoError(t, err)
	assert.Equal(t, "17.25", r.String())
	assert.Equal(t, 17.25, r.Float64())
	var back money.Rate
	require.NoError(t, back.UnmarshalJSON([]byte("0.0579710144927536231884057")))
	assert.Equal(t, "0.0579710144927536231884057", back.String())
	want, _ := back.Decimal().Float64()
	assert.Equal(t, want, back.Float64())
	assert.Equal(t, "0", money.RateOf(decimal.Zero).String())
}
