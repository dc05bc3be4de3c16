// Package rates is what a quote's price starts from: the RateSource and
// its cache on the engine clock (Rate, Known), the platform's fee settings
// for a pair (PlatformFees), the crypto networks' fees (Network) and the
// estimate of a crypto withdrawal (Crypto), priced as a quote to a wallet
// would be. Package quotes registers its state (State) and re-exports
// these names.
package rates

import (
	"context"
	"sync"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes/pricing"
)

// state is the rates' state on an engine: the source and its cache.
type state struct {
	source RateSource
	cache  rateCache
}

var slot engine.Slot[state]

// State is the rates' state for an engine whose exchange rates come from
// source (nil: same-currency pairs only), for the quotes area to register
// (engine.AreaDef.State).
func State(source RateSource) engine.SlotEntry { return slot.With(&state{source: source}) }

// RateSource supplies exchange rates. The sandbox package has a
// deterministic one (sandbox.Rates); a production adapter calls a
// liquidity provider. A nil source (payments.Config.Rates) quotes only
// same-currency pairs.
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
	st := slot.Of(e)
	if r, at, ok, err := Known(e, from, to); ok || err != nil {
		return r, at, err
	}
	r, err := st.source.Rate(ctx, from, to)
	if err != nil {
		return money.Rate{}, time.Time{}, err
	}
	c := cachedRate{rate: r, at: e.Now()}
	st.cache.mu.Lock()
	if st.cache.m == nil {
		st.cache.m = map[[2]string]cachedRate{}
	}
	st.cache.m[[2]string{from, to}] = c
	st.cache.mu.Unlock()
	return r, c.at, nil
}

// Known is Rate without asking the RateSource: ok is false when only
// the source can answer (the pair is not cached, or its rate is older
// than RateCacheTTL).
func Known(e *engine.Handle, from, to string) (_ money.Rate, _ time.Time, ok bool, _ error) {
	st := slot.Of(e)
	if from == to {
		return money.MustRate("1"), e.Now(), true, nil
	}
	if st.source == nil {
		return money.Rate{}, time.Time{}, false, engine.Errorf(engine.CodeQuoteRateUnavailable, "no rate source is configured for %s to %s", from, to)
	}
	st.cache.mu.Lock()
	c, cached := st.cache.m[[2]string{from, to}]
	st.cache.mu.Unlock()
	if cached && e.Now().Sub(c.at) < RateCacheTTL {
		return c.rate, c.at, true, nil
	}
	return money.Rate{}, time.Time{}, false, nil
}

// PlatformFees returns the platform's configured fees on transfers from
// source to another currency: the CROSS_CURRENCY_TRANSACTION fee
// configuration of the source currency (the last one when several match).
// A same-currency transfer carries no platform fee.
func PlatformFees(p *platform.Config, source, dest string) pricing.Fees {
	var f pricing.Fees
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
