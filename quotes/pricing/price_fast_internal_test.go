package pricing

import (
	"math/big"
	"math/rand/v2"
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
		{"19-digit rate", func(in Input) Input { in.Rate = decimal.RequireFromString("1.086956521739130434"); return in }, true},
		{"24-digit rate (the sandbox's 25/23)", func(in Input) Input { in.Rate = decimal.RequireFromString("1.08695652173913043478261"); return in }, true},
		{"24-digit rate to BTC", func(in Input) Input {
			in.Rate, in.ReceivingDecimals = decimal.RequireFromString("0.000120048019207683073229292"), 8
			return in
		}, true},
		{"39-digit rate", func(in Input) Input {
			in.Rate = decimal.RequireFromString("1.08695652173913043478260869565217391304")
			return in
		}, false},
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
	f.Add(int64(100_000), int64(108695652173913043), int8(-25), uint8(2), uint8(2), int64(0), int64(0), int64(0), int64(0), uint8(0))
	f.Fuzz(func(t *testing.T, amount, rateCoef int64, rateExp int8, sd, rd uint8, platformFixed, serviceFixed, bps, serviceCoef int64, serviceExp uint8) {
		// The coefficient is widened to up to 37 digits (rateCoef * 10^18 +
		// its low digits again) so that rates beyond 64 bits are searched.
		rate := decimal.New(rateCoef, int32(rateExp))
		if rateExp < -20 {
			rate = decimal.NewFromBigInt(new(big.Int).Add(new(big.Int).Mul(big.NewInt(rateCoef), big.NewInt(1e18)), big.NewInt(rateCoef%1e18)), int32(rateExp))
		}
		in := Input{LockedSide: Sending, Amount: amount, Rate: rate,
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

// TestQuo128 checks quo128 and mul128 against math/big on random operands
// of every width, divisors above 64 bits included.
func TestQuo128(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	toBig := func(x u128) *big.Int {
		return new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(x.hi), 64), new(big.Int).SetUint64(x.lo))
	}
	random := func() u128 {
		x := u128{r.Uint64(), r.Uint64()}
		switch w := r.IntN(129); {
		case w == 0:
			return u128{}
		case w <= 64:
			return u128{lo: x.lo >> (64 - w)}
		default:
			return u128{x.hi >> (128 - w), x.lo}
		}
	}
	limit := new(big.Int).Lsh(big.NewInt(1), 64)
	for range 200_000 {
		n, d := random(), random()
		x := r.Uint64() >> r.IntN(64)
		p, ok := mul128(x, d)
		want := new(big.Int).Mul(new(big.Int).SetUint64(x), toBig(d))
		if fits := want.BitLen() <= 128; ok != fits || (ok && toBig(p).Cmp(want) != 0) {
			t.Fatalf("mul128(%d, %v) = %v, %v; want %v", x, d, p, ok, want)
		}
		if d == (u128{}) {
			continue
		}
		q, ok := quo128(n, d)
		wantQ := new(big.Int).Quo(toBig(n), toBig(d))
		if fits := wantQ.Cmp(limit) < 0; ok != fits || (ok && wantQ.Uint64() != q) {
			t.Fatalf("quo128(%v, %v) = %d, %v; want %v", n, d, q, ok, wantQ)
		}
	}
}
