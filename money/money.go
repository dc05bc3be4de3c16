// Package money holds the platform's money vocabulary: currencies with their
// minor-unit exponents, amounts as int64 minor units with overflow-checked
// arithmetic, and exchange rates as exact decimals. It is pure: no I/O, no
// floats anywhere on the money path.
//
//	usd, _ := money.Lookup("USD")
//	fee, err := money.Add(250, 100) // 3.50 USD in cents, overflow-checked
//	s := usd.Format(fee)            // "3.50"
package money

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// ErrOverflow is returned when an amount computation leaves the int64 range.
var ErrOverflow = errors.New("money: amount overflows int64")

// MaxAmount is the largest amount the API accepts in a request.
const MaxAmount int64 = 9_000_000_000_000_000

// Currency describes one currency: an ISO 4217 code or a crypto ticker.
type Currency struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"` // exponent of the minor unit
	Crypto   bool   `json:"-"`
}

// Lookup returns the currency for code (upper case), and whether it is known.
func Lookup(code string) (Currency, bool) {
	c, ok := table[code]
	return c, ok
}

// Known reports whether code names a supported currency.
func Known(code string) bool {
	_, ok := table[code]
	return ok
}

// Codes returns every known currency code, sorted.
func Codes() []string { return sortedCodes }

// Add returns a+b, or ErrOverflow.
func Add(a, b int64) (int64, error) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, ErrOverflow
	}
	return s, nil
}

// Sub returns a-b, or ErrOverflow.
func Sub(a, b int64) (int64, error) {
	if b == math.MinInt64 {
		return 0, ErrOverflow
	}
	return Add(a, -b)
}

// Mul returns a*b, or ErrOverflow.
func Mul(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	neg := (a < 0) != (b < 0)
	ua, ub := abs(a), abs(b)
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || (!neg && lo > math.MaxInt64) || (neg && lo > 1<<63) {
		return 0, ErrOverflow
	}
	if neg {
		return int64(-lo), nil //nolint:gosec // range checked above
	}
	return int64(lo), nil
}

func abs(a int64) uint64 {
	if a < 0 {
		return uint64(-(a + 1)) + 1
	}
	return uint64(a)
}

// Sum adds amounts, or returns ErrOverflow.
func Sum(amounts ...int64) (int64, error) {
	var t int64
	for _, a := range amounts {
		var err error
		if t, err = Add(t, a); err != nil {
			return 0, err
		}
	}
	return t, nil
}

// Format renders amount (in minor units) as a decimal string with the
// currency's number of decimals: USD 1234 -> "12.34", JPY 5 -> "5".
func (c Currency) Format(amount int64) string {
	neg := amount < 0
	digits := strconv.FormatUint(abs(amount), 10)
	if c.Decimals > 0 {
		if len(digits) <= c.Decimals {
			digits = strings.Repeat("0", c.Decimals-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-c.Decimals] + "." + digits[len(digits)-c.Decimals:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}
