package sandbox

import (
	"context"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/money"
	"github.com/shopspring/decimal"
)

// usdValue is the sandbox's fixed value in US dollars of one unit of each
// currency (wire-facts 1.15: 1 USD = 0.92 EUR = 17.25 MXN = 82.5 INR, 1 BTC
// = 120,048.02 USD).
var usdValue = map[string]string{
	"USD": "1", "USDC": "1", "USDT": "1", "EUR": "1.0869565217391304", "MXN": "0.0579710144927536",
	"INR": "0.0121212121212121", "BTC": "120048.0192076831", "GBP": "1.27", "BRL": "0.18", "CAD": "0.73",
	"PHP": "0.0172", "NGN": "0.00065", "KES": "0.0077", "COP": "0.00025", "ZAR": "0.055", "SGD": "0.74",
	"HKD": "0.128", "AUD": "0.66", "JPY": "0.0067", "CNY": "0.14", "CHF": "1.13", "DKK": "0.1457",
}

// Rates is the sandbox's deterministic rate source. Pairs without a value
// are QUOTE_RATE_UNAVAILABLE.
type Rates struct{}

var _ payments.RateSource = Rates{}

// Rate implements payments.RateSource: units of from per one unit of to,
// rounded to 12 significant decimals.
func (Rates) Rate(_ context.Context, from, to string) (money.Rate, error) {
	f, okF := usdValue[from]
	t, okT := usdValue[to]
	if !okF || !okT {
		return money.Rate{}, payments.Errorf(payments.CodeQuoteRateUnavailable, "the sandbox has no rate for %s to %s", from, to)
	}
	r := decimal.RequireFromString(t).DivRound(decimal.RequireFromString(f), 12)
	return money.RateOf(r), nil
}
