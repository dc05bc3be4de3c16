// Package quotes holds the quote rules of the platform, pure and without
// I/O: the amount, fee and rate arithmetic of spec 2.5 and the expiry of a
// quote per rail.
//
// The exchange rate is fee-exclusive and counts sending-currency units per
// one receiving-currency unit: (totalSendingAmount - feesIncluded), converted
// at the rate, gives totalReceivingAmount. Each fee part is rounded half-up
// separately; the receiving amount is rounded down, so the receiver is never
// promised more than was paid for.
package quotes

import (
	"errors"
	"time"

	"github.com/shopspring/decimal"
)

// Locked sides.
const (
	Sending   = "SENDING"
	Receiving = "RECEIVING"
)

// Fees are the fee parts of a quote, in sending-currency minor units or as
// rates of the variable base (the sending amount less the fixed fees).
type Fees struct {
	PlatformFixed int64           // the platform's fixed fee
	PlatformBps   int64           // the platform's variable fee, basis points
	ServiceFixed  int64           // the service's fixed fee
	ServiceRate   decimal.Decimal // the service's variable fee, a fraction (0.003)
}

// Amounts is the outcome of the arithmetic.
type Amounts struct {
	Sending          int64 // totalSendingAmount
	Receiving        int64 // totalReceivingAmount
	FeesIncluded     int64 // every fee part
	PlatformFees     int64 // platformFeesIncluded (part of FeesIncluded)
	ServiceVariable  int64 // the service's variable fee amount
	PlatformVariable int64
}

// Errors of the arithmetic.
var (
	ErrTooSmall = errors.New("quotes: the amount does not cover the fees")
	ErrRate     = errors.New("quotes: the exchange rate must be positive")
)

// Input is what a quote's amounts are computed from. Rate is in major units
// (sending per receiving); the decimals are the currencies' exponents.
type Input struct {
	LockedSide                         string
	Amount                             int64
	Rate                               decimal.Decimal
	SendingDecimals, ReceivingDecimals int
	Fees                               Fees
}

var (
	half     = decimal.NewFromFloat(0.5)
	tenThous = decimal.NewFromInt(10_000)
)

// roundHalfUp rounds a non-negative decimal to an integer, halves up.
func roundHalfUp(d decimal.Decimal) int64 { return d.Add(half).Floor().IntPart() }

// fees computes the fee parts of a sending amount.
func (in Input) fees(send int64) Amounts {
	fixed := in.Fees.PlatformFixed + in.Fees.ServiceFixed
	base := decimal.NewFromInt(send - fixed)
	pv := roundHalfUp(base.Mul(decimal.NewFromInt(in.Fees.PlatformBps)).Div(tenThous))
	sv := roundHalfUp(base.Mul(in.Fees.ServiceRate))
	return Amounts{Sending: send, FeesIncluded: fixed + pv + sv, PlatformFees: in.Fees.PlatformFixed + pv,
		PlatformVariable: pv, ServiceVariable: sv}
}

// minorRate converts the major-unit rate to sending minor units per
// receiving minor unit.
func (in Input) minorRate() decimal.Decimal {
	return in.Rate.Shift(int32(in.SendingDecimals - in.ReceivingDecimals))
}

// Compute returns the amounts of a quote. With the sending side locked the
// fees come out of Amount; with the receiving side locked the sending
// amount is the smallest that delivers Amount after fees.
func Compute(in Input) (Amounts, error) {
	if !in.Rate.IsPositive() {
		return Amounts{}, ErrRate
	}
	mr := in.minorRate()
	if in.LockedSide == Receiving {
		net := decimal.NewFromInt(in.Amount).Mul(mr).Ceil().IntPart()
		v := decimal.NewFromInt(in.Fees.PlatformBps).Div(tenThous).Add(in.Fees.ServiceRate)
		send := decimal.NewFromInt(net).Div(decimal.NewFromInt(1).Sub(v)).Ceil().IntPart() + in.Fees.PlatformFixed + in.Fees.ServiceFixed
		for send > 0 {
			a := in.fees(send)
			if send-a.FeesIncluded >= net {
				// Step down while a smaller amount still delivers.
				if b := in.fees(send - 1); send-1-b.FeesIncluded >= net {
					send--
					continue
				}
				a.Receiving = in.Amount
				return a, nil
			}
			send++
		}
		return Amounts{}, ErrTooSmall
	}
	a := in.fees(in.Amount)
	net := in.Amount - a.FeesIncluded
	if net <= 0 {
		return Amounts{}, ErrTooSmall
	}
	a.Receiving = decimal.NewFromInt(net).Div(mr).Floor().IntPart()
	if a.Receiving <= 0 {
		return Amounts{}, ErrTooSmall
	}
	return a, nil
}

// instantRails settle in seconds; their quotes live InstantTTL.
var instantRails = map[string]bool{"LIGHTNING": true, "SPARK": true, "SOLANA": true, "BASE": true, "POLYGON": true,
	"RTP": true, "SEPA_INSTANT": true, "FEDNOW": true, "INTERNAL": true, "UMA": true}

// Quote lifetimes.
const (
	InstantTTL = 2 * time.Minute
	DefaultTTL = 5 * time.Minute
)

// TTL is how long a quote on rail keeps its rate (spec 2.5: instant rails 1
// to 5 minutes, others longer).
func TTL(rail string) time.Duration {
	if instantRails[rail] {
		return InstantTTL
	}
	return DefaultTTL
}
