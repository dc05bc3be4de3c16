package quotes

import (
	"context"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes/rates"
	"github.com/paygrid/payments/validate"
)

// pricingRate is the rate of a pair for pricing req, which happens inside
// a transaction and so never asks the RateSource, which may call the
// network: it takes the rate Create fetched for req, or a cached one, or
// stops the transaction with rateNeeded (marked engine.Missing) so that
// Create's Prefetch fetches the rate outside and prices again.
func pricingRate(e *engine.Handle, req *Request, from, to string) (money.Rate, error) {
	if f := req.fetched; f != nil && f.from == from && f.to == to {
		return f.rate, nil
	}
	r, _, ok, err := rates.Known(e, from, to)
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
func (qs Service) ExchangeRates(ctx context.Context, rq RateQuery) ([]ExchangeRate, error) {
	return engine.Run(ctx, qs.e, exchangeRates, rq)
}

// exchangeRates is Service.ExchangeRates' operation. It writes nothing and
// its figures come from the RateSource, which may call the network: the
// whole answer is made in Prefetch, outside every transaction, from the
// platform's configuration read in a snapshot, and settled there.
var exchangeRates = engine.Op[RateQuery, []ExchangeRate, []ExchangeRate]{Area: "quotes", Name: "ExchangeRates", Access: engine.Read,
	Prefetch: func(ctx context.Context, e *engine.Handle, rq *RateQuery, out *[]ExchangeRate, _ error) error {
		var err error
		if *out, err = quoteRates(ctx, e, rq); err != nil {
			return err
		}
		return engine.Settled
	},
	Decide: func(*engine.Txn, *RateQuery, *[]ExchangeRate) ([]ExchangeRate, error) {
		return nil, nil // settled by Prefetch: never called
	},
	Answer: func(_ *engine.Handle, _ *RateQuery, f *[]ExchangeRate, out []ExchangeRate, err error) ([]ExchangeRate, error) {
		if err != nil {
			return nil, err
		}
		return *f, nil
	},
}

// quoteRates prices every pair rq asks for.
func quoteRates(ctx context.Context, e *engine.Handle, rq *RateQuery) ([]ExchangeRate, error) {
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
		priced, err := ratesFrom(e, ctx, p, supported[source], dests, sendingAmount)
		if err != nil {
			return nil, err
		}
		out = append(out, priced...)
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
		fees := rates.PlatformFees(p, source, d)
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
