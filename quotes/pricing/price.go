package pricing

import (
	"fmt"
	"math/big"

	"github.com/shopspring/decimal"
)

// The variable fee rates are held as integers over feeScale: ServiceRate in
// 10^-18ths, basis points as bps * bpsToScale of those.
//
// These and the other shared integers below are only ever read.
var (
	feeScale   = big.NewInt(1_000_000_000_000_000_000)
	feeScale2  = big.NewInt(2_000_000_000_000_000_000) // 2 * feeScale: the half-up divisor
	bpsToScale = big.NewInt(100_000_000_000_000)
	bigMax     = big.NewInt(MaxAmount)
	bigOne     = big.NewInt(1)
	bps10k     = big.NewInt(10_000)
	bps20k     = big.NewInt(20_000)
)

// errServiceRate is a service fee rate outside 0..1 or with more than 18
// decimals.
var errServiceRate = fmt.Errorf("%w: the service's variable fee must be a fraction within 0..1 with at most 18 decimals", ErrFees)

// Beyond these magnitudes the minor rate cannot give a figure within
// 1..MaxAmount (< 10^16) from an amount within it, so it is never
// expanded into an integer: a rate of 10^17 or more per minor unit, or
// less than 10^-17.
const (
	hugeMagnitude = 17
	tinyMagnitude = -16
)

// scanLimit bounds the correction step of solveBase.
const scanLimit = 8

// pricer is an Input held as exact integers.
type pricer struct {
	// rateNum/rateDen is the minor rate: sending minor units per one
	// receiving minor unit. Both are nil when magnitude is out of window.
	rateNum, rateDen *big.Int
	// magnitude is m with 10^(m-1) <= minor rate < 10^m.
	magnitude     int64
	fixed         *big.Int // both fixed fees
	platformFixed int64
	bps           *big.Int // the platform's variable fee, basis points
	service       *big.Int // the service's variable fee over feeScale
	variable      *big.Int // both variable fees over feeScale
}

// newPricer validates in and converts its rate and fees to integers.
func newPricer(in Input) (*pricer, error) {
	if in.SendingDecimals < 0 || in.SendingDecimals > MaxDecimals || in.ReceivingDecimals < 0 || in.ReceivingDecimals > MaxDecimals {
		return nil, fmt.Errorf("%w: currency decimals must be within 0..%d", ErrRate, MaxDecimals)
	}
	if !in.Rate.IsPositive() {
		return nil, ErrRate
	}
	f := in.Fees
	if f.PlatformFixed < 0 || f.PlatformFixed > MaxAmount || f.ServiceFixed < 0 || f.ServiceFixed > MaxAmount {
		return nil, fmt.Errorf("%w: fixed fees must be within 0..%d", ErrFees, MaxAmount)
	}
	if f.PlatformBps < 0 || f.PlatformBps > 10_000 {
		return nil, fmt.Errorf("%w: the platform's variable fee must be within 0..10000 bps", ErrFees)
	}
	service, err := serviceRate(f.ServiceRate)
	if err != nil {
		return nil, err
	}
	p := &pricer{
		fixed:         big.NewInt(f.PlatformFixed + f.ServiceFixed), // both <= MaxAmount: no overflow
		platformFixed: f.PlatformFixed,
		bps:           big.NewInt(f.PlatformBps),
		service:       service,
	}
	p.variable = new(big.Int).Mul(p.bps, bpsToScale)
	p.variable.Add(p.variable, p.service)

	// The minor rate is coefficient * 10^exp with exp = the rate's
	// exponent + sending decimals - receiving decimals.
	exp := int64(in.Rate.Exponent()) + int64(in.SendingDecimals) - int64(in.ReceivingDecimals)
	p.magnitude = int64(in.Rate.NumDigits()) + exp
	if p.magnitude > hugeMagnitude || p.magnitude < tinyMagnitude {
		return p, nil
	}
	p.rateNum, p.rateDen = in.Rate.Coefficient(), bigOne
	if exp >= 0 {
		p.rateNum.Mul(p.rateNum, pow10(exp))
	} else {
		p.rateDen = pow10(-exp)
	}
	return p, nil
}

// serviceRate returns rate over feeScale. Its exponent is checked before
// any decimal arithmetic, which would otherwise rescale by 10^exponent.
func serviceRate(rate decimal.Decimal) (*big.Int, error) {
	if rate.IsZero() {
		return new(big.Int), nil
	}
	digits, exp := int64(rate.NumDigits()), int64(rate.Exponent())
	// Beyond 10, or with more than 18 decimals even after trailing zeros.
	if rate.IsNegative() || digits+exp > 1 || exp < -18-digits {
		return nil, errServiceRate
	}
	scaled := rate.Shift(18)
	if rate.GreaterThan(decimal.NewFromInt(1)) || !scaled.IsInteger() {
		return nil, errServiceRate
	}
	return scaled.BigInt(), nil
}

// powers10 holds 10^0 to 10^(len-1), which cover the exponents of rates
// with up to about 30 digits.
var powers10 = func() (p [48]*big.Int) {
	for i := range p {
		p[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return p
}()

// pow10 returns 10^n, shared when n is small: callers only read it. n is
// bounded by the magnitude window and the rate's digits.
func pow10(n int64) *big.Int {
	if n < int64(len(powers10)) {
		return powers10[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil)
}

// variableFees returns the platform's and the service's variable fees on
// base, each rounded half up on its own: floor(x + 1/2).
func (p *pricer) variableFees(base *big.Int) (platform, service *big.Int) {
	platform = new(big.Int).Mul(base, p.bps)
	platform.Lsh(platform, 1).Add(platform, bps10k).Quo(platform, bps20k)
	service = new(big.Int).Mul(base, p.service)
	service.Lsh(service, 1).Add(service, feeScale).Quo(service, feeScale2)
	return platform, service
}

// net returns base less its variable fees: what converts.
func (p *pricer) net(base *big.Int) *big.Int {
	pv, sv := p.variableFees(base)
	return new(big.Int).Sub(base, pv.Add(pv, sv))
}

// sendingLocked prices a quote whose sending amount is send.
func (p *pricer) sendingLocked(send int64) (Amounts, error) {
	if send < 1 || send > MaxAmount {
		return Amounts{}, ErrRange
	}
	base := new(big.Int).Sub(big.NewInt(send), p.fixed)
	if base.Sign() <= 0 {
		return Amounts{}, ErrTooSmall
	}
	pv, sv := p.variableFees(base)
	net := new(big.Int).Sub(base, pv)
	net.Sub(net, sv)
	if net.Sign() <= 0 {
		return Amounts{}, ErrTooSmall
	}
	switch {
	case p.magnitude > hugeMagnitude: // net / rate < 10^16 / 10^17
		return Amounts{}, ErrTooSmall
	case p.magnitude < tinyMagnitude: // net / rate > 1 / 10^-17
		return Amounts{}, ErrRange
	}
	recv := new(big.Int).Mul(net, p.rateDen)
	recv.Quo(recv, p.rateNum) // both positive: Quo is floor
	if recv.Sign() <= 0 {
		return Amounts{}, ErrTooSmall
	}
	if recv.Cmp(bigMax) > 0 {
		return Amounts{}, ErrRange
	}
	return p.amounts(base, recv, pv, sv), nil
}

// receivingLocked prices a quote that delivers recv.
func (p *pricer) receivingLocked(recv int64) (Amounts, error) {
	if recv < 1 || recv > MaxAmount {
		return Amounts{}, ErrRange
	}
	// need is the net that pays for recv: recv * rate, rounded up.
	need := big.NewInt(1) // a tiny rate: recv * rate < 10^16 * 10^-17
	switch {
	case p.magnitude > hugeMagnitude: // recv * rate >= 10^17
		return Amounts{}, ErrRange
	case p.magnitude >= tinyMagnitude:
		need.Mul(big.NewInt(recv), p.rateNum)
		need.Add(need, p.rateDen).Sub(need, bigOne).Quo(need, p.rateDen)
	}
	if need.Cmp(bigMax) > 0 {
		return Amounts{}, ErrRange
	}
	if p.variable.Cmp(feeScale) >= 0 {
		return Amounts{}, ErrTooSmall // the variable fees take everything
	}
	base := p.solveBase(need)
	if new(big.Int).Add(base, p.fixed).Cmp(bigMax) > 0 {
		return Amounts{}, ErrRange
	}
	pv, sv := p.variableFees(base)
	return p.amounts(base, big.NewInt(recv), pv, sv), nil
}

// amounts assembles the figures of a quote with variable base base
// (sending less fixed fees), its variable fees pv and sv (variableFees),
// and receiving amount recv; the callers have checked base and recv
// against MaxAmount, so every figure fits an int64.
func (p *pricer) amounts(base, recv, pv, sv *big.Int) Amounts {
	send := new(big.Int).Add(base, p.fixed)
	fees := new(big.Int).Add(p.fixed, pv)
	fees.Add(fees, sv)
	return Amounts{
		Sending:          send.Int64(),
		Receiving:        recv.Int64(),
		FeesIncluded:     fees.Int64(),
		PlatformFees:     p.platformFixed + pv.Int64(),
		ServiceVariable:  sv.Int64(),
		PlatformVariable: pv.Int64(),
	}
}

// solveBase returns the smallest variable base b whose net(b) is at least
// need, the combined variable rate v being below 1.
//
// With at most one variable fee, net(b) = b - round(b*c) never decreases
// and is inverted exactly (smallestBase). With both, net(b) can dip by one
// where both parts round up together; but net(b) lies in
// [b(1-v) - 1, b(1-v) + 1), so the answer lies in [lo, hi] with
// lo = floor((need-1)/(1-v)) + 1 and hi = ceil((need+1)/(1-v)), and hi
// always delivers. The correction step checks at most scanLimit bases from
// lo, which covers the whole range whenever v <= 2/3; above that, if none
// of them delivers, the answer is hi, at most two units of net above need.
func (p *pricer) solveBase(need *big.Int) *big.Int {
	switch {
	case p.service.Sign() == 0:
		return smallestBase(need, new(big.Int).Lsh(p.bps, 1), bps10k, bps20k)
	case p.bps.Sign() == 0:
		return smallestBase(need, new(big.Int).Lsh(p.service, 1), feeScale, feeScale2)
	}
	keep := new(big.Int).Sub(feeScale, p.variable) // (1-v) over feeScale
	lo := new(big.Int).Sub(need, bigOne)
	lo.Mul(lo, feeScale).Quo(lo, keep).Add(lo, bigOne)
	hi := new(big.Int).Add(need, bigOne)
	hi.Mul(hi, feeScale).Add(hi, keep).Sub(hi, bigOne).Quo(hi, keep)
	b := new(big.Int).Set(lo)
	for range scanLimit {
		if b.Cmp(hi) >= 0 {
			break
		}
		if p.net(b).Cmp(need) >= 0 {
			return b
		}
		b.Add(b, bigOne)
	}
	return hi
}

// smallestBase returns the smallest b >= 1 with b - floor((b*c + h)/m) >=
// need, for 0 <= c < m, 0 <= h < m and need >= 1:
//
//	floor((b*c + h)/m) <= b - need  <=>  b*c + h < m*(b - need + 1)
//	                                <=>  b > (h + m*(need-1)) / (m - c)
func smallestBase(need, c, h, m *big.Int) *big.Int {
	b := new(big.Int).Sub(need, bigOne)
	b.Mul(b, m).Add(b, h)
	b.Quo(b, new(big.Int).Sub(m, c))
	return b.Add(b, bigOne)
}
