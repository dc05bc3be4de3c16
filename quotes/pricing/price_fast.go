package pricing

import (
	"encoding/binary"
	"math/bits"

	"github.com/shopspring/decimal"
)

// sendingFast is sendingLocked in 64- and 128-bit integers, for the usual
// quote: the sending side locked, a rate of at most 38 digits (the
// sandbox's have 24) and a service fee rate of at most 18, the minor rate
// within the magnitude window. It reports false for any other input, and
// for any input that sendingLocked refuses, which Compute then prices (or
// refuses) in math/big as before. What it returns is sendingLocked's
// figures exactly (FuzzSendingFast): the same products, the same half-up
// and floor divisions, never truncated. It is kept beside the math/big
// path because it is most of the quotes: without it an engine quote
// create and execute makes 138 allocations instead of 121.
func sendingFast(in Input) (Amounts, bool) {
	f := in.Fees
	if in.LockedSide == Receiving || in.Amount < 1 || in.Amount > MaxAmount ||
		in.SendingDecimals < 0 || in.SendingDecimals > MaxDecimals || in.ReceivingDecimals < 0 || in.ReceivingDecimals > MaxDecimals ||
		f.PlatformFixed < 0 || f.PlatformFixed > MaxAmount || f.ServiceFixed < 0 || f.ServiceFixed > MaxAmount ||
		f.PlatformBps < 0 || f.PlatformBps > 10_000 || !in.Rate.IsPositive() {
		return Amounts{}, false
	}
	service, ok := serviceRate64(f)
	if !ok {
		return Amounts{}, false
	}
	// The minor rate num/den, as newPricer makes it.
	digits := int64(in.Rate.NumDigits())
	exp := int64(in.Rate.Exponent()) + int64(in.SendingDecimals) - int64(in.ReceivingDecimals)
	if m := digits + exp; m > hugeMagnitude || m < tinyMagnitude || digits > 38 {
		return Amounts{}, false
	}
	num, ok := coefficient128(in.Rate)
	den := u128{lo: 1}
	switch {
	case !ok:
		return Amounts{}, false
	case exp >= 0: // num * 10^exp < 10^hugeMagnitude
		num.lo *= pow10u64[exp]
	case -exp < 2*int64(len(pow10u64))-1: // 10^-exp = 10^a * 10^b, each at most 10^19
		a := min(-exp, int64(len(pow10u64))-1)
		if den, ok = mul128(pow10u64[-exp-a], u128{lo: pow10u64[a]}); !ok {
			return Amounts{}, false
		}
	default:
		return Amounts{}, false
	}
	base := in.Amount - f.PlatformFixed - f.ServiceFixed
	if base <= 0 {
		return Amounts{}, false
	}
	pv := halfUp(uint64(base), uint64(f.PlatformBps), 10_000)
	sv := halfUp(uint64(base), service, 1_000_000_000_000_000_000)
	net := base - pv - sv // pv, sv <= base
	if net <= 0 {
		return Amounts{}, false
	}
	n, ok := mul128(uint64(net), den)
	if !ok {
		return Amounts{}, false
	}
	recv, ok := quo128(n, num)
	if !ok || recv == 0 || recv > uint64(MaxAmount) {
		return Amounts{}, false
	}
	return Amounts{
		Sending:          in.Amount,
		Receiving:        int64(recv),
		FeesIncluded:     f.PlatformFixed + f.ServiceFixed + pv + sv,
		PlatformFees:     f.PlatformFixed + pv,
		ServiceVariable:  sv,
		PlatformVariable: pv,
	}, true
}

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

// coefficient128 returns d's coefficient, when it is positive and fits.
func coefficient128(d decimal.Decimal) (u128, bool) {
	if d.NumDigits() <= 18 {
		c := d.CoefficientInt64()
		return u128{lo: uint64(c)}, c > 0
	}
	c := d.Coefficient()
	if c.Sign() <= 0 || c.BitLen() > 128 {
		return u128{}, false
	}
	var b [16]byte
	c.FillBytes(b[:])
	return u128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}, true
}

// mul128 returns x*y, and whether it fits 128 bits.
func mul128(x uint64, y u128) (u128, bool) {
	h, l := bits.Mul64(x, y.lo)
	hh, hl := bits.Mul64(x, y.hi)
	hi, carry := bits.Add64(h, hl, 0)
	return u128{hi, l}, hh == 0 && carry == 0
}

// quo128 returns floor(n/d) for d > 0, and whether the quotient fits 64
// bits. A divisor of more than 64 bits is normalized to its top 64 bits,
// which gives a quotient at most one too large after the first step
// (Hacker's Delight, 9-5), corrected from the remainder.
func quo128(n, d u128) (uint64, bool) {
	if d.hi == 0 {
		if n.hi >= d.lo {
			return 0, false
		}
		q, _ := bits.Div64(n.hi, n.lo, d.lo)
		return q, true
	}
	s := uint(bits.LeadingZeros64(d.hi))
	top := d.hi<<s | d.lo>>(64-s) // the divisor's top 64 bits (d.lo>>64 is 0)
	q, _ := bits.Div64(n.hi>>1, n.hi<<63|n.lo>>1, top)
	q >>= 63 - s
	if q != 0 {
		q--
	}
	// r = n - q*d, which fits: q*d <= n.
	p, _ := mul128(q, d)
	lo, borrow := bits.Sub64(n.lo, p.lo, 0)
	hi, _ := bits.Sub64(n.hi, p.hi, borrow)
	if hi > d.hi || (hi == d.hi && lo >= d.lo) {
		q++
	}
	return q, true
}

// serviceRate64 is serviceRate as a uint64 (the rate over feeScale), for a
// rate of at most 18 digits whose scaled value is a whole number: false
// otherwise, and for any rate serviceRate refuses.
func serviceRate64(f Fees) (uint64, bool) {
	r := f.ServiceRate
	if r.IsZero() {
		return 0, true
	}
	if r.IsNegative() || r.NumDigits() > 18 {
		return 0, false
	}
	c, e := uint64(r.CoefficientInt64()), int64(r.Exponent())
	if e > 0 || e < -18 || c > pow10u64[-e] { // above 1, or not whole over feeScale
		return 0, false
	}
	return c * pow10u64[18+e], true
}

// pow10u64 holds 10^0 to 10^19.
var pow10u64 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// halfUp returns floor((2*x*r + scale) / (2*scale)), variableFees's
// rounding of x*r/scale, for x < 2^63 and r <= scale <= 10^18: 2*x*r +
// scale stays below 2^125 and the quotient below x, so neither the 128-bit
// sum nor the division overflows.
func halfUp(x, r, scale uint64) int64 {
	hi, lo := bits.Mul64(x, r)
	hi, lo = hi<<1|lo>>63, lo<<1
	var carry uint64
	lo, carry = bits.Add64(lo, scale, 0)
	q, _ := bits.Div64(hi+carry, lo, 2*scale)
	return int64(q)
}
