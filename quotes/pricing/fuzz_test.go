package pricing_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/paygrid/payments/quotes/pricing"
	"github.com/shopspring/decimal"
)

// FuzzCompute prices random quotes and checks them against an independent
// big.Rat model: no panic, every figure within 0..MaxAmount, fees and totals
// never negative, each fee part the half-up rounding of its rate, and the
// figures consistent with the rate within one minor unit.
func FuzzCompute(f *testing.F) {
	f.Add(false, int64(100_000), int64(105797101), int8(-8), uint8(2), uint8(2), int64(500), int64(0), int64(0), int64(0), uint8(0))
	f.Fuzz(func(t *testing.T, receiving bool, amount, rateCoef int64, rateExp int8, sd, rd uint8,
		platformFixed, serviceFixed, bps, serviceCoef int64, serviceExp uint8) {
		in := pricing.Input{LockedSide: pricing.Sending, Amount: amount, Rate: decimal.New(rateCoef, int32(rateExp)),
			SendingDecimals: int(sd), ReceivingDecimals: int(rd),
			Fees: pricing.Fees{PlatformFixed: platformFixed, ServiceFixed: serviceFixed, PlatformBps: bps,
				ServiceRate: decimal.New(serviceCoef, -int32(serviceExp))}}
		if receiving {
			in.LockedSide = pricing.Receiving
		}
		a, err := pricing.Compute(in)
		m, valid := newModel(in)
		if !valid {
			if err == nil {
				t.Fatalf("invalid input priced: %+v -> %+v", in, a)
			}
			return
		}
		if err != nil {
			if !errors.Is(err, pricing.ErrTooSmall) && !errors.Is(err, pricing.ErrRange) {
				t.Fatalf("valid input refused with %v: %+v", err, in)
			}
			m.checkRefusal(t, in, err)
			return
		}
		m.check(t, in, a)
	})
}

// model is Compute's definition in exact rationals.
type model struct {
	rate            *big.Rat // sending minor units per receiving minor unit
	platform, svc   *big.Rat // the variable fee rates
	fixed, platFix  int64
	bothVariableBig bool // both variable fees, together above two thirds
}

func rat(d decimal.Decimal) *big.Rat { return d.Rat() }

func newModel(in pricing.Input) (model, bool) {
	f := in.Fees
	if in.Amount < 1 || in.Amount > pricing.MaxAmount || !in.Rate.IsPositive() ||
		in.SendingDecimals > pricing.MaxDecimals || in.ReceivingDecimals > pricing.MaxDecimals ||
		f.PlatformFixed < 0 || f.PlatformFixed > pricing.MaxAmount || f.ServiceFixed < 0 || f.ServiceFixed > pricing.MaxAmount ||
		f.PlatformBps < 0 || f.PlatformBps > 10_000 || f.ServiceRate.IsNegative() || f.ServiceRate.GreaterThan(decimal.NewFromInt(1)) ||
		!f.ServiceRate.Shift(18).IsInteger() {
		return model{}, false
	}
	r := rat(in.Rate.Shift(int32(in.SendingDecimals - in.ReceivingDecimals)))
	m := model{rate: r, platform: big.NewRat(f.PlatformBps, 10_000), svc: rat(f.ServiceRate),
		fixed: f.PlatformFixed + f.ServiceFixed, platFix: f.PlatformFixed}
	v := new(big.Rat).Add(m.platform, m.svc)
	m.bothVariableBig = f.PlatformBps > 0 && m.svc.Sign() > 0 && v.Cmp(big.NewRat(2, 3)) > 0
	return m, true
}

// halfUp rounds x >= 0 half up.
func halfUp(x *big.Rat) *big.Int {
	y := new(big.Rat).Add(x, big.NewRat(1, 2))
	return new(big.Int).Quo(y.Num(), y.Denom())
}

// fees returns the variable fee parts of a sending amount.
func (m model) fees(send int64) (pv, sv *big.Int) {
	base := new(big.Rat).SetInt64(send - m.fixed)
	return halfUp(new(big.Rat).Mul(base, m.platform)), halfUp(new(big.Rat).Mul(base, m.svc))
}

// net returns what converts out of a sending amount.
func (m model) net(send int64) *big.Rat {
	if send-m.fixed <= 0 {
		return new(big.Rat)
	}
	pv, sv := m.fees(send)
	n := new(big.Int).Sub(big.NewInt(send-m.fixed), pv)
	return new(big.Rat).SetInt(n.Sub(n, sv))
}

func (m model) check(t *testing.T, in pricing.Input, a pricing.Amounts) {
	t.Helper()
	for _, v := range []int64{a.Sending, a.Receiving, a.FeesIncluded, a.PlatformFees, a.PlatformVariable, a.ServiceVariable} {
		if v < 0 || v > pricing.MaxAmount {
			t.Fatalf("figure out of range: %+v from %+v", a, in)
		}
	}
	if a.Sending < 1 || a.Receiving < 1 || a.FeesIncluded >= a.Sending || a.PlatformFees > a.FeesIncluded {
		t.Fatalf("inconsistent totals: %+v from %+v", a, in)
	}
	pv, sv := m.fees(a.Sending)
	if pv.Int64() != a.PlatformVariable || sv.Int64() != a.ServiceVariable ||
		a.FeesIncluded != m.fixed+a.PlatformVariable+a.ServiceVariable || a.PlatformFees != m.platFix+a.PlatformVariable {
		t.Fatalf("fee parts %+v, want platform %v service %v, from %+v", a, pv, sv, in)
	}
	net := new(big.Rat).SetInt64(a.Sending - a.FeesIncluded)
	if in.LockedSide == pricing.Sending {
		// receiving = floor(net / rate): receiving <= net/rate < receiving + 1.
		got := new(big.Rat).Quo(net, m.rate)
		if a.Sending != in.Amount || got.Cmp(new(big.Rat).SetInt64(a.Receiving)) < 0 || got.Cmp(new(big.Rat).SetInt64(a.Receiving+1)) >= 0 {
			t.Fatalf("sending-locked %+v: net/rate = %s, from %+v", a, got.FloatString(6), in)
		}
		return
	}
	// net pays for the receiving amount, within one unit (three when the
	// correction step is not exhaustive), and one unit less does not.
	cost := new(big.Rat).Mul(new(big.Rat).SetInt64(a.Receiving), m.rate)
	over := new(big.Rat).Sub(net, cost)
	limit := int64(1)
	if m.bothVariableBig {
		limit = 3
	}
	if a.Receiving != in.Amount || over.Sign() < 0 || over.Cmp(new(big.Rat).SetInt64(limit)) >= 0 {
		t.Fatalf("receiving-locked %+v: net - cost = %s, from %+v", a, over.FloatString(6), in)
	}
	if !m.bothVariableBig && m.net(a.Sending-1).Cmp(cost) >= 0 {
		t.Fatalf("receiving-locked %+v: one unit less also delivers, from %+v", a, in)
	}
}

// checkRefusal: ErrTooSmall and ErrRange only where the model agrees.
func (m model) checkRefusal(t *testing.T, in pricing.Input, err error) {
	t.Helper()
	one := new(big.Rat).SetInt64(1)
	if in.LockedSide == pricing.Sending {
		net := m.net(in.Amount)
		recv := new(big.Rat).Quo(net, m.rate)
		switch {
		case net.Sign() <= 0 || recv.Cmp(one) < 0:
			if !errors.Is(err, pricing.ErrTooSmall) {
				t.Fatalf("want ErrTooSmall, got %v: %+v", err, in)
			}
		case recv.Cmp(new(big.Rat).SetInt64(pricing.MaxAmount+1)) >= 0:
			if !errors.Is(err, pricing.ErrRange) {
				t.Fatalf("want ErrRange, got %v: %+v", err, in)
			}
		default:
			t.Fatalf("refused with %v a quote the model prices: %+v", err, in)
		}
		return
	}
	v := new(big.Rat).Add(m.platform, m.svc)
	if v.Cmp(one) >= 0 {
		return // nothing can be delivered: either refusal is right
	}
	if errors.Is(err, pricing.ErrTooSmall) {
		t.Fatalf("ErrTooSmall with variable fees %s < 1: %+v", v.FloatString(6), in)
	}
	// The sending amount is at most fixed + (cost + 2)/(1 - v) + 1.
	cost := new(big.Rat).Mul(new(big.Rat).SetInt64(in.Amount), m.rate)
	most := new(big.Rat).Add(cost, big.NewRat(2, 1))
	most.Quo(most, new(big.Rat).Sub(one, v)).Add(most, new(big.Rat).SetInt64(m.fixed+1))
	if most.Cmp(new(big.Rat).SetInt64(pricing.MaxAmount)) <= 0 {
		t.Fatalf("ErrRange though at most %s is needed: %+v", most.FloatString(2), in)
	}
}
