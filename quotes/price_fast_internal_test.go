package quotes

import (
	"testing"

	"github.com/shopspring/decimal"
)

// bigSending is sendingLocked through newPricer, what Compute ran before
// sendingFast.
func bigSending(in Input) (Amounts, error) {
	p, err := newPricer(in)
	if err != nil {
		return Amounts{}, err
	}
	return p.sendingLocked(in.Amount)
}

// TestSendingFast: the usual quotes take the fast path with the figures of
// math/big, and what it leaves to math/big is left.
func TestSendingFast(t *testing.T) {
	usual := Input{Amount: 100_000, Rate: decimal.New(108695652, -8), SendingDecimals: 2, ReceivingDecimals: 2,
		Fees: Fees{ServiceFixed: 500, PlatformBps: 25, ServiceRate: decimal.New(3, -3)}}
	for _, c := range []struct {
		name string
		in   func(Input) Input
		fast bool
	}{
		{"usual", func(in Input) Input { return in }, true},
		{"no fees", func(in Input) Input { in.Fees = Fees{}; return in }, true},
		{"BTC", func(in Input) Input { in.Rate, in.ReceivingDecimals = decimal.New(12004801920768, -8), 8; return in }, true},
		{"receiving locked", func(in Input) Input { in.LockedSide = Receiving; return in }, false},
		{"19-digit rate", func(in Input) Input { in.Rate = decimal.RequireFromString("1.086956521739130434"); return in }, false},
		{"fees take it all", func(in Input) Input { in.Fees.ServiceFixed = 100_000; return in }, false},
		{"service rate above 1", func(in Input) Input { in.Fees.ServiceRate = decimal.New(11, -1); return in }, false},
		{"negative service rate", func(in Input) Input { in.Fees.ServiceRate = decimal.New(-1, -3); return in }, false},
		{"service rate past 18 decimals", func(in Input) Input { in.Fees.ServiceRate = decimal.New(1, -19); return in }, false},
		{"huge rate", func(in Input) Input { in.Rate = decimal.New(1, 20); return in }, false},
	} {
		in := c.in(usual)
		got, ok := sendingFast(in)
		if ok != c.fast {
			t.Errorf("%s: fast path %v, want %v", c.name, ok, c.fast)
			continue
		}
		if ok {
			want, err := bigSending(in)
			if err != nil || got != want {
				t.Errorf("%s: fast %+v, math/big %+v (%v)", c.name, got, want, err)
			}
		}
	}
}

// FuzzSendingFast: whatever sendingFast prices, math/big prices the same,
// figure for figure.
func FuzzSendingFast(f *testing.F) {
	f.Add(int64(100_000), int64(108695652), int8(-8), uint8(2), uint8(2), int64(0), int64(500), int64(25), int64(3), uint8(3))
	f.Add(int64(MaxAmount), int64(1), int8(-17), uint8(0), uint8(18), int64(MaxAmount/3), int64(7), int64(10_000), int64(999_999_999_999_999_999), uint8(18))
	f.Add(int64(1), int64(999_999_999_999_999_999), int8(-2), uint8(18), uint8(0), int64(0), int64(0), int64(1), int64(1), uint8(18))
	f.Fuzz(func(t *testing.T, amount, rateCoef int64, rateExp int8, sd, rd uint8, platformFixed, serviceFixed, bps, serviceCoef int64, serviceExp uint8) {
		in := Input{LockedSide: Sending, Amount: amount, Rate: decimal.New(rateCoef, int32(rateExp)),
			SendingDecimals: int(sd), ReceivingDecimals: int(rd),
			Fees: Fees{PlatformFixed: platformFixed, ServiceFixed: serviceFixed, PlatformBps: bps,
				ServiceRate: decimal.New(serviceCoef, -int32(serviceExp))}}
		got, ok := sendingFast(in)
		if !ok {
			return
		}
		want, err := bigSending(in)
		if err != nil || got != want {
			t.Fatalf("%+v: fast %+v, math/big %+v (%v)", in, got, want, err)
		}
	})
}
