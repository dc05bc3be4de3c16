package money_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/paygrid/payments/money"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLookup_Exponents(t *testing.T) {
	for code, want := range map[string]int{"USD": 2, "JPY": 0, "KWD": 3, "IDR": 2, "COP": 2, "CLF": 4, "BTC": 8, "USDC": 6, "UGX": 0} {
		c, ok := money.Lookup(code)
		require.True(t, ok, code)
		assert.Equal(t, want, c.Decimals, code)
	}
	_, ok := money.Lookup("XYZ")
	assert.False(t, ok)
	assert.True(t, money.Known("EUR"))
	assert.Contains(t, money.Codes(), "USDC")
}

func TestArithmetic_Overflow(t *testing.T) {
	_, err := money.Add(math.MaxInt64, 1)
	assert.ErrorIs(t, err, money.ErrOverflow)
	_, err = money.Sub(math.MinInt64, 1)
	assert.ErrorIs(t, err, money.ErrOverflow)
	_, err = money.Sub(0, math.MinInt64)
	assert.ErrorIs(t, err, money.ErrOverflow)
	_, err = money.Mul(math.MaxInt64/2+1, 2)
	assert.ErrorIs(t, err, money.ErrOverflow)
	v, err := money.Mul(math.MinInt64/2, 2)
	require.NoError(t, err)
	assert.Equal(t, int64(math.MinInt64), v)
	v, err = money.Mul(-3, 7)
	require.NoError(t, err)
	assert.Equal(t, int64(-21), v)
	s, err := money.Sum(1, 2, 3)
	require.NoError(t, err)
	assert.Equal(t, int64(6), s)
	_, err = money.Sum(math.MaxInt64, 1)
	assert.ErrorIs(t, err, money.ErrOverflow)
}

func TestFormat(t *testing.T) {
	usd, _ := money.Lookup("USD")
	jpy, _ := money.Lookup("JPY")
	btc, _ := money.Lookup("BTC")
	assert.Equal(t, "12.34", usd.Format(1234))
	assert.Equal(t, "0.05", usd.Format(5))
	assert.Equal(t, "-0.05", usd.Format(-5))
	assert.Equal(t, "5", jpy.Format(5))
	assert.Equal(t, "0.00000001", btc.Format(1))
}

func TestRate_JSONNumber(t *testing.T) {
	r := money.MustRate("1.0853")
	b, err := json.Marshal(struct{ R money.Rate }{r})
	require.NoError(t, err)
	assert.JSONEq(t, `{"R":1.0853}`, string(b))
	var back struct{ R money.Rate }
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, back.R.Decimal().Equal(r.Decimal()))
	_, err = money.NewRate("-1")
	assert.Error(t, err)
	usd, _ := money.Lookup("USD")
	btc, _ := money.Lookup("BTC")
	// 1 BTC costs 60000 USD: one satoshi costs 0.06 cents.
	assert.Equal(t, "0.06", money.MustRate("60000").MinorRate(usd, btc).String())
}
