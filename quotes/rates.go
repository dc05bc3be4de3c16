package quotes

import (
	"context"
	"sync"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// RateSource supplies exchange rates. The sandbox package has a
// deterministic one (sandbox.Rates); a production adapter calls a
// liquidity provider. A nil Options.Rates (payments.Config.Rates) quotes
// only same-currency pairs.
//
// The engine asks it through Rate, which caches each pair for RateCacheTTL,
// and never from a write transaction; it must be safe for concurrent use.
type RateSource interface {
	// Rate returns the mid-market rate of a pair as units of from per one
	// unit of to (a quote's exchangeRate direction), or QUOTE_RATE_UNAVAILABLE. The
	// error reaches the caller as is: an *engine.Error keeps its code, any
	// other error answers INTERNAL_ERROR.
	Rate(ctx context.Context, from, to string) (money.Rate, error)
}

// RateCacheTTL is how long a rate is reused before the source is asked again.
const RateCacheTTL = 5 * time.Minute

// cachedRate is a rate and when, on the engine clock, it was fetched.
type cachedRate struct {
	rate money.Rate
	at   time.Time
}

// rateCache memoizes a RateSource on the engine clock. The lock guards
// only the map, never a call to the source: concurrent misses on one pair
// may each ask the source, and the last answer is kept.
type rateCache struct {
	mu sync.Mutex
	m  map[[2]string]cachedRate
}

// Rate returns the (cached) rate of a pair and when it was fetched: 1 for a
// currency to itself, else the RateSource's answer of the last
// RateCacheTTL. Without a RateSource a pair is QUOTE_RATE_UNAVAILABLE; the
// source's own errors pass through. Other areas (agents) call it before
// their transaction; it may call the network.
func Rate(e *engine.Handle, ctx context.Context, from, to string) (money.Rate, time.Time, error) {
	if r, at, ok, err := knownRate(e, from, to); ok || err != nil {
		return r, at, err
	}
	r, err := quotesSlot.Of(e).Rates.Rate(ctx, from, to)
	if err != nil {
		return money.Rate{}, time.Time{}, err
	}
	c := cachedRate{rate: r, at: e.Now()}
	quotesSlot.Of(e).rates.mu.Lock()
	if quotesSlot.Of(e).rates.m == nil {
		quotesSlot.Of(e).rates.m = map[[2]string]cachedRate{}
	}
	quotesSlot.Of(e).rates.m[[2]string{from, to}] = c
	quotesSlot.Of(e).rates.mu.Unlock()
	return r, c.at, nil
}

// knownRate is Rate without asking the RateSource: ok is false when only
// the source can answer (the pair is not cached, or its rate is older
// than RateCacheTTL).
func knownRate(e *engine.Handle, from, to string) (_ money.Rate, _ time.Time, ok bool, _ error) {
	if from == to {
		return money.MustRate("1"), e.Now(), true, nil
	}
	if quotesSlot.Of(e).Rates == nil {
		return money.Rate{}, time.Time{}, false, engine.Errorf(engine.CodeQuoteRateUnavailable, "no rate source is configured for %s to %s", from, to)
	}
	quotesSlot.Of(e).rates.mu.Lock()
	c, cached := quotesSlot.Of(e).rates.m[[2]string{from, to}]
	quotesSlot.Of(e).rates.mu.Unlock()
	if cached && e.Now().Sub(c.at) < RateCacheTTL {
		return c.rate, c.at, true, nil
	}
	return money.Rate{}, time.Time{}, false, nil
}

// pricingRate is the rate of a pair for pricing req, which happens inside
// a transaction and so never asks the RateSource, which may call the
// network: it takes the rate Create fetched for req, or a cached one, or
// stops the transaction with rateNeeded (marked engine.Missing) so that
// Create's Prefetch fetches the rate outside and prices again.
func pricingRate(e *engine.Handle, req *Request, from, to string) (money.Rate, error) {
	if f := req.fetched; f != nil && f.from == from && f.to == to {
		return f.rate, nil
	}
	r, _, ok, err := knownRate(e, from, to)
	if !ok && err == nil {
		err = engine.Missing(&rateNeeded{from: from, to: to})
	}
	return r, err
}

// rateNeeded stops a quote's write transaction whose pricing needs a rate
// only the RateSource can give; rate is what Create fetched outside.
type rateNeeded struct {
	from, to string
	rate     money.Rate
}

func (r *rateNeeded) Error() string {
	return "quotes: the rate of " + r.from + " to " + r.to + " must be fetched before the transaction"
}

// ExchangeRate is a quoted rate for sending SendingAmount (reference
// ExchangeRate): the rate is fee-exclusive, the amounts include the
// platform's fees.
type ExchangeRate struct {
	SourceCurrency         accounts.CurrencyInfo `json:"sourceCurrency"`
	SendingAmount          int64                 `json:"sendingAmount"`
	MinSendingAmount       int64                 `json:"minSendingAmount"`
	MaxSendingAmount       int64                 `json:"maxSendingAmount"`
	DestinationCurrency    accounts.CurrencyInfo `json:"destinationCurrency"`
	DestinationPaymentRail PaymentRail           `json:"destinationPaymentRail"`
	ReceivingAmount        int64                 `json:"receivingAmount"`
	ExchangeRate           money.Rate            `json:"exchangeRate"`
	Fees                   RateFees              `json:"fees"`
	UpdatedAt              time.Time             `json:"updatedAt"`
}

// RateFees are the fees of an ExchangeRate, in sending minor units.
type RateFees struct {
	Fixed int64 `json:"fixed"`
	Total int64 `json:"total"`
}

// platformFees returns the platform's configured fees on transfers from
// source to another currency: the CROSS_CURRENCY_TRANSACTION fee
// configuration of the source currency (the last one when several match).
// A same-currency transfer carries no platform fee.
func platformFees(p *platform.Config, source, dest string) Fees {
	var f Fees
	if source == dest {
		return f
	}
	for _, fc := range p.FeeConfigs {
		if fc.SourceCurrency == source && fc.FeeType == "CROSS_CURRENCY_TRANSACTION" {
			f.PlatformFixed, f.PlatformBps = fc.FixedFee.Amount, int64(fc.VariableFeeBps)
		}
	}
	return f
}

// payoutRail names the destination rail a currency is paid out on when the
// request names none; crypto currencies go out on their usual network.
func payoutRail(currency string) PaymentRail {
	switch currency {
	case "USD":
		return PaymentRailACH
	case "EUR":
		return PaymentRailSEPAInstant
	case "MXN":
		return PaymentRailSPEI
	case "GBP":
		return PaymentRailFasterPayments
	case "INR":
		return PaymentRailUPI
	case "BRL":
		return PaymentRailPIX
	case "BTC":
		return PaymentRailLightning
	case "USDC", "USDT":
		return PaymentRailSolana
	case "USDB":
		return PaymentRailSpark
	}
	return PaymentRailBankTransfer
}

// PaymentRails are the reference's PaymentRail values: what a quote's or
// transfer's destination.paymentRail may name (and then only a rail of the
// destination account) and what a transaction's paymentRail reports.
// The list holds strings (validation takes strings, and programs compared
// them before PaymentRail existed); a PaymentRail constant names each.
var PaymentRails = []string{"ACH", "ACH_COLOMBIA", "BANK_TRANSFER", "BRE_B", "CIPS", "FAST", "FASTER_PAYMENTS", "FEDNOW",
	"INSTAPAY", "MOBILE_MONEY", "NEFT", "PAYNOW", "PESONET", "PIX", "RTGS", "RTP", "SEPA", "SEPA_INSTANT", "SPEI", "SWIFT",
	"UNIONPAY", "UPI", "WIRE"}

// fiatRail reports whether rail is one of the reference's PaymentRail
// values (crypto networks are not).
func fiatRail(rail PaymentRail) bool {
	return rail != PaymentRailLightning && rail != PaymentRailSolana && rail != PaymentRailSpark
}

// RateQuery narrows Quotes.ExchangeRates; every member is optional.
type RateQuery struct {
	Source        string   // sending currency; "" quotes every platform currency
	Destinations  []string // receiving currencies; none: every other one
	SendingAmount int64    // minor units; 0 means 10000
}

// ExchangeRates quotes each source to each destination for the sending
// amount, including the platform's fees (GET /exchange-rates). An
// unsupported currency or an amount outside 1..MaxAmount is INVALID_INPUT
// naming each; a pair the RateSource cannot price fails the whole answer
// with its error (QUOTE_RATE_UNAVAILABLE). It writes nothing: the rates are
// indicative, and a quote prices again.
func (qs Service) ExchangeRates(ctx context.Context, rq RateQuery) (_ []ExchangeRate, err error) {
	ctx, op := begin(ctx, qs.e, "ExchangeRates")
	defer op.End(&err)
	e := qs.e
	source, destinations, sendingAmount := rq.Source, rq.Destinations, rq.SendingAmount
	p, err := platform.NewService(e).Config(ctx)
	if err != nil {
		return nil, err
	}
	var fe validate.Errors
	supported := map[string]platform.CurrencyConfig{}
	for _, c := range p.SupportedCurrencies {
		supported[c.CurrencyCode] = c
	}
	if source != "" {
		if _, ok := supported[source]; !ok {
			fe.Add("sourceCurrency", nil, "sourceCurrency %q is not supported by this platform", source)
		}
	}
	if sendingAmount == 0 {
		sendingAmount = 10_000
	}
	if sendingAmount < 0 || sendingAmount > money.MaxAmount {
		fe.Add("sendingAmount", nil, "sendingAmount must be between 1 and %d", money.MaxAmount)
	}
	for i, d := range destinations {
		if _, ok := supported[d]; !ok {
			fe.Add(validate.Index("destinationCurrency", i), nil, "destinationCurrency %q is not supported by this platform", d)
		}
	}
	if err := engine.Invalid(fe.Err()); err != nil {
		return nil, err
	}
	// Every filter is optional: no source means every supported currency,
	// no destination every other supported currency.
	sources := []string{source}
	if source == "" {
		sources = p.CurrencyCodes()
	}
	var out []ExchangeRate
	for _, source := range sources {
		dests := destinations
		if len(dests) == 0 {
			// The unfiltered list holds the fiat corridors: the reference's
			// destinationPaymentRail names no crypto network. A crypto
			// destination asked for by name is still quoted.
			for _, c := range p.SupportedCurrencies {
				if c.CurrencyCode != source && fiatRail(payoutRail(c.CurrencyCode)) {
					dests = append(dests, c.CurrencyCode)
				}
			}
		}
		rates, err := ratesFrom(e, ctx, p, supported[source], dests, sendingAmount)
		if err != nil {
			return nil, err
		}
		out = append(out, rates...)
	}
	if out == nil {
		out = []ExchangeRate{}
	}
	return out, nil
}

// ratesFrom prices sendingAmount of src in each of destinations. An amount
// the fees swallow is not an error here: its rate is listed with
// receivingAmount 0 and only the fixed fee.
func ratesFrom(e *engine.Handle, ctx context.Context, p *platform.Config, src platform.CurrencyConfig, destinations []string, sendingAmount int64) ([]ExchangeRate, error) {
	source := src.CurrencyCode
	out := make([]ExchangeRate, 0, len(destinations))
	sc, _ := money.Lookup(source)
	for _, d := range destinations {
		if d == source {
			continue
		}
		r, at, err := Rate(e, ctx, source, d)
		if err != nil {
			return nil, err
		}
		dc, _ := money.Lookup(d)
		fees := platformFees(p, source, d)
		a, err := Compute(Input{LockedSide: Sending, Amount: sendingAmount, Rate: r.Decimal(),
			SendingDecimals: sc.Decimals, ReceivingDecimals: dc.Decimals, Fees: fees})
		if err != nil {
			a = Amounts{FeesIncluded: fees.PlatformFixed}
		}
		out = append(out, ExchangeRate{SourceCurrency: accounts.AmountOf(source, 0).Currency, SendingAmount: sendingAmount, MinSendingAmount: src.MinAmount,
			MaxSendingAmount: src.MaxAmount, DestinationCurrency: accounts.AmountOf(d, 0).Currency, DestinationPaymentRail: payoutRail(d),
			ReceivingAmount: a.Receiving, ExchangeRate: r, Fees: RateFees{Fixed: fees.PlatformFixed, Total: a.FeesIncluded}, UpdatedAt: at})
	}
	return out, nil
}
