// Package pricing is a quote's arithmetic: the amounts, fees and lifetime
// of a quote from its locked amount, rate and fee settings (Compute, TTL).
// It is pure: no store, no clock, no I/O; package quotes prices requests
// with it and re-exports its names.
package pricing

import (
	"errors"
	"time"

	"github.com/paygrid/payments/money"
	"github.com/shopspring/decimal"
)

// LockedSide is which amount of a quote the request fixes (reference
// QuoteLockSide): lockedCurrencyAmount is that side's.
type LockedSide string

// Locked sides (payments.LockedSending, payments.LockedReceiving).
const (
	// Sending fixes what leaves the sender: the fees come out of it and the
	// rest converts, so the receiver gets what is left, rounded down.
	Sending LockedSide = "SENDING"
	// Receiving fixes what the receiver gets: the sender pays it at the
	// rate plus the fees, rounded so that the net always covers it.
	Receiving LockedSide = "RECEIVING"
)

// MaxAmount is the largest figure, in minor units, that a quote may carry
// on either side: the API's limit on lockedCurrencyAmount.
const MaxAmount = money.MaxAmount

// MaxDecimals is the largest currency exponent Compute accepts.
const MaxDecimals = 18

// Fees are the fee parts of a quote, in sending-currency minor units or as
// rates of the variable base (the sending amount less the fixed fees).
// Fixed fees lie in 0..MaxAmount, PlatformBps in 0..10000 and ServiceRate
// in 0..1 with at most 18 decimals; other settings are ErrFees.
type Fees struct {
	PlatformFixed int64           // the platform's fixed fee
	PlatformBps   int64           // the platform's variable fee, basis points
	ServiceFixed  int64           // the service's fixed fee
	ServiceRate   decimal.Decimal // the service's variable fee, a fraction (0.003)
}

// Amounts is the outcome of the arithmetic. Every figure lies in
// 0..MaxAmount; the fees never exceed Sending.
type Amounts struct {
	Sending          int64 // totalSendingAmount
	Receiving        int64 // totalReceivingAmount
	FeesIncluded     int64 // every fee part
	PlatformFees     int64 // platformFeesIncluded (part of FeesIncluded)
	ServiceVariable  int64 // the service's variable fee amount
	PlatformVariable int64 // the platform's variable fee amount
}

// Errors of the arithmetic.
var (
	// ErrTooSmall is an amount that the fees consume entirely, or that
	// converts to less than one minor unit.
	ErrTooSmall = errors.New("quotes: the amount does not cover the fees")
	// ErrRate is a rate that is not positive, or currency exponents
	// outside 0..MaxDecimals.
	ErrRate = errors.New("quotes: the exchange rate must be positive")
	// ErrRange is a locked amount outside 1..MaxAmount, or one whose
	// other side (or total with fees) would exceed MaxAmount.
	ErrRange = errors.New("quotes: an amount of the quote is outside 1..9000000000000000")
	// ErrFees is a fee setting outside the ranges documented on Fees.
	ErrFees = errors.New("quotes: a fee setting is out of range")
)

// Input is what a quote's amounts are computed from. Rate is in major units
// (sending per receiving); the decimals are the currencies' exponents.
// LockedSide Receiving locks the receiving amount; any other value locks
// the sending amount.
type Input struct {
	LockedSide                         LockedSide
	Amount                             int64
	Rate                               decimal.Decimal
	SendingDecimals, ReceivingDecimals int
	Fees                               Fees
}

// Compute returns the amounts of a quote. With the sending side locked the
// fees come out of Amount and the rest converts at the rate, rounded down.
// With the receiving side locked the sending amount is the smallest whose
// net, after fees, pays for Amount at the rate (see solveBase for the one
// exception: both variable fees together above two thirds).
//
// Every product and sum is computed in math/big (or, for the usual quote,
// in exact 64- and 128-bit integers: sendingFast) and range-checked against
// MaxAmount before it is returned; nothing loops on the input values.
func Compute(in Input) (Amounts, error) {
	if a, ok := sendingFast(in); ok {
		return a, nil
	}
	p, err := newPricer(in)
	if err != nil {
		return Amounts{}, err
	}
	if in.LockedSide == Receiving {
		return p.receivingLocked(in.Amount)
	}
	return p.sendingLocked(in.Amount)
}

// instantRails settle in seconds; their quotes live InstantTTL.
var instantRails = map[string]bool{"LIGHTNING": true, "SPARK": true, "SOLANA": true, "BASE": true, "POLYGON": true,
	"RTP": true, "SEPA_INSTANT": true, "FEDNOW": true, "INTERNAL": true, "UMA": true}

// Quote lifetimes: how long a quote keeps its rate before it must be
// executed.
const (
	// InstantTTL is the lifetime on rails that settle in seconds
	// (instantRails; 1 to 5 minutes is the reference's range there).
	InstantTTL = 2 * time.Minute
	// DefaultTTL is the lifetime on every other rail (longer than instant).
	DefaultTTL = 5 * time.Minute
)

// TTL is how long a quote on rail keeps its rate (instant rails 1 to 5
// minutes, others longer).
func TTL(rail string) time.Duration {
	if instantRails[rail] {
		return InstantTTL
	}
	return DefaultTTL
}
