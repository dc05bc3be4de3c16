package money

import (
	"errors"
	"strconv"

	"github.com/shopspring/decimal"
)

// Rate is an exchange rate held as an exact decimal: sending-currency major
// units per one receiving-currency major unit, fees excluded, as a quote's
// exchangeRate states it. It marshals to JSON
// as a number.
//
// A rate made by this package keeps its decimal text: every quote priced at
// a cached rate writes it, and rendering a 24-digit decimal goes through
// math/big each time.
type Rate struct {
	d decimal.Decimal
	s string // d.String(), or "" when not yet known
}

// rateOf is the Rate of d with its text.
func rateOf(d decimal.Decimal) Rate { return Rate{d, d.String()} }

// NewRate parses a decimal string such as "0.92" or "17.0543".
func NewRate(s string) (Rate, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return Rate{}, err
	}
	if !d.IsPositive() {
		return Rate{}, errors.New("money: rate must be positive")
	}
	return rateOf(d), nil
}

// MustRate is NewRate for constants; it panics on a malformed rate.
func MustRate(s string) Rate {
	r, err := NewRate(s)
	if err != nil {
		panic(err)
	}
	return r
}

// RateOf wraps a decimal.
func RateOf(d decimal.Decimal) Rate { return rateOf(d) }

// Decimal returns the rate as a decimal.
func (r Rate) Decimal() decimal.Decimal { return r.d }

// IsZero reports whether the rate is unset.
func (r Rate) IsZero() bool { return r.d.IsZero() }

// String renders the rate without exponent.
func (r Rate) String() string {
	if r.s != "" {
		return r.s
	}
	return r.d.String()
}

// Float64 is the float64 nearest to the rate, as JSON numbers of the
// reference carry it: parsed from the rate's kept text when it has one.
func (r Rate) Float64() float64 {
	if r.s != "" {
		if f, err := strconv.ParseFloat(r.s, 64); err == nil {
			return f
		}
	}
	return Float64(r.d)
}

// Float64 is the float64 nearest to d (ties to even), as d.Float64 gives it
// through math/big.Rat; parsing d's text is exact too, and an order of
// magnitude cheaper.
func Float64(d decimal.Decimal) float64 {
	f, err := strconv.ParseFloat(d.String(), 64)
	if err != nil { // beyond float64's range: what d.Float64 gives
		f, _ = d.Float64()
	}
	return f
}

// MarshalJSON writes the rate as a JSON number.
func (r Rate) MarshalJSON() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalJSON accepts a JSON number or a numeric string.
func (r *Rate) UnmarshalJSON(b []byte) error {
	if len(b) > 1 && b[0] == '"' {
		b = b[1 : len(b)-1]
	}
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return err
	}
	*r = Rate{d: d}
	if canonical(b) { // as MarshalJSON wrote it: the text is d.String()
		r.s = string(b)
	}
	return nil
}

// canonical reports whether b is a decimal as decimal.Decimal.String
// renders one: an optional minus, an integer part without leading zeros,
// and a fraction without trailing zeros.
func canonical(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
		if len(b) == 1 && b[0] == '0' {
			return false // zero renders without its sign
		}
	}
	i := 0
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if i == 0 || (i > 1 && b[0] == '0') {
		return false
	}
	if i == len(b) {
		return true
	}
	if b[i] != '.' || i+1 == len(b) || b[len(b)-1] == '0' {
		return false
	}
	for _, c := range b[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// MinorRate converts r into a rate between minor units: how many sending minor
// units one receiving minor unit costs.
func (r Rate) MinorRate(sending, receiving Currency) decimal.Decimal {
	return r.d.Shift(int32(sending.Decimals - receiving.Decimals))
}

// RatioDigits is how many significant digits Ratio keeps, at least, of a
// quotient that has no short finite decimal form.
const RatioDigits = 24

// Ratio returns the rate num/den: exact when the quotient has a finite
// decimal form of about RatioDigits significant digits, otherwise
// truncated (never rounded up) after RatioDigits or RatioDigits+1 digits. Truncating keeps a
// conversion of an exact multiple exact in both directions: 99500 cents at
// Ratio(4, 69) USD per MXN is 1716375 centavos, rounded down, and 1716375
// centavos cost 99500 cents, rounded up. num and den must be positive.
func Ratio(num, den decimal.Decimal) (Rate, error) {
	if !num.IsPositive() || !den.IsPositive() {
		return Rate{}, errors.New("money: a ratio needs a positive numerator and denominator")
	}
	// The quotient's leading digit is at 10^(magnitude-1) or 10^(magnitude-2).
	magnitude := int64(num.NumDigits()) + int64(num.Exponent()) - int64(den.NumDigits()) - int64(den.Exponent())
	q, _ := num.QuoRem(den, int32(RatioDigits-magnitude))
	return rateOf(q), nil
}
