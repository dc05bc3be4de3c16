package sandbox

import (
	"context"
	"strings"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/money"
	"github.com/shopspring/decimal"
)

// usdValue is the sandbox's fixed value in US dollars of one unit of each
// currency, as an exact decimal or an exact ratio "num/den" (the
// reference's sandbox rates: 1 USD = 0.92 EUR = 17.25 MXN = 82.5 INR, and 833 satoshis, so that
// 1 BTC = 100000000/833 = 120,048.02 USD; the USD stablecoins USDC, USDT
// and USDB at par). Rates are derived from these ratios, so the worked
// quote examples of the reference come out to the unit.
var usdValue = map[string]string{
	"USD": "1", "USDC": "1", "USDT": "1", "USDB": "1", "EUR": "25/23", "MXN": "4/69", "INR": "2/165", "BTC": "100000000/833",
	"GBP": "1.27", "BRL": "0.18", "CAD": "0.73", "PHP": "0.0172", "NGN": "0.00065", "KES": "0.0077", "COP": "0.00025",
	"ZAR": "0.055", "SGD": "0.74", "HKD": "0.128", "AUD": "0.66", "JPY": "0.0067", "CNY": "0.14", "CHF": "1.13",
	"DKK": "0.1457",
}

// ratio parses a usdValue entry into numerator and denominator.
func ratio(s string) (num, den decimal.Decimal) {
	n, d, ok := strings.Cut(s, "/")
	if !ok {
		d = "1"
	}
	return decimal.RequireFromString(n), decimal.RequireFromString(d)
}

// Rates is the sandbox's deterministic rate source. Pairs without a value
// are QUOTE_RATE_UNAVAILABLE.
type Rates struct{}

var _ payments.RateSource = Rates{}

// Rate implements payments.RateSource: units of from per one unit of to,
// usdValue[to] / usdValue[from] as money.Ratio gives it (exact, or
// truncated after 24 significant digits).
func (Rates) Rate(_ context.Context, from, to string) (money.Rate, error) {
	f, okF := usdValue[from]
	t, okT := usdValue[to]
	if !okF || !okT {
		return money.Rate{}, payments.Errorf(payments.CodeQuoteRateUnavailable, "the sandbox has no rate for %s to %s", from, to)
	}
	fn, fd := ratio(f)
	tn, td := ratio(t)
	return money.Ratio(tn.Mul(fd), td.Mul(fn))
}
