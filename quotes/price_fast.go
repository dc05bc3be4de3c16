package quotes

import "math/bits"

// sendingFast is sendingLocked in 64- and 128-bit integers, for the usual
// quote: the sending side locked, a rate and a service fee rate of at most
// 18 digits, the minor rate within the magnitude window. It reports false
// for any other input, and for any input that sendingLocked refuses, which
// Compute then prices (or refuses) in math/big as before. What it returns
// is sendingLocked's figures exactly (FuzzSendingFast): the same products,
// the same half-up and floor divisions, never truncated.
func sendingFast(in Input) (Amounts, bool) {
	f := in.Fees
	if in.LockedSide == Receiving || in.Amount < 1 || in.Amount > MaxAmount ||
		in.SendingDecimals < 0 || in.SendingDecimals > MaxDecimals || in.ReceivingDecimals < 0 || in.ReceivingDecimals > MaxDecimals ||
		f.PlatformFixed < 0 || f.PlatformFixed > MaxAmount || f.ServiceFixed < 0 || f.ServiceFixed > MaxAmount ||
		f.PlatformBps < 0 || f.PlatformBps > 10_000 || !in.Rate.IsPositive() || in.Rate.NumDigits() > 18 {
		return Amounts{}, false
	}
	service, ok := serviceRate64(f)
	if !ok {
		return Amounts{}, false
	}
	// The minor rate num/den, as newPricer makes it.
	exp := int64(in.Rate.Exponent()) + int64(in.SendingDecimals) - int64(in.ReceivingDecimals)
	if m := int64(in.Rate.NumDigits()) + exp; m > hugeMagnitude || m < tinyMagnitude {
		return Amounts{}, false
	}
	num, den := uint64(in.Rate.CoefficientInt64()), uint64(1)
	switch {
	case exp >= 0: // num * 10^exp < 10^hugeMagnitude
		num *= pow10u64[exp]
	case -exp < int64(len(pow10u64)):
		den = pow10u64[-exp]
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
	hi, lo := bits.Mul64(uint64(net), den)
	if hi >= num { // the quotient would not fit 64 bits: far above MaxAmount
		return Amounts{}, false
	}
	recv, _ := bits.Div64(hi, lo, num)
	if recv == 0 || recv > uint64(MaxAmount) {
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
