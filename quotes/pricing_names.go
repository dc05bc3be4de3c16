package quotes

import (
	"time"

	"github.com/paygrid/payments/quotes/pricing"
)

// The quote arithmetic lives in package pricing; these are its names as
// quotes has always exported them.

// LockedSide is which amount of a quote the request fixes
// (pricing.LockedSide).
type LockedSide = pricing.LockedSide

// Locked sides (pricing.Sending, pricing.Receiving).
const (
	Sending   = pricing.Sending
	Receiving = pricing.Receiving
)

// MaxAmount is the largest figure, in minor units, on either side of a
// quote; MaxDecimals the largest currency exponent Compute accepts.
const (
	MaxAmount   = pricing.MaxAmount
	MaxDecimals = pricing.MaxDecimals
)

// Fees are the fee parts of a quote (pricing.Fees).
type Fees = pricing.Fees

// Amounts is the outcome of a quote's arithmetic (pricing.Amounts).
type Amounts = pricing.Amounts

// Input is what a quote's amounts are computed from (pricing.Input).
type Input = pricing.Input

// Errors of the arithmetic (pricing.ErrTooSmall and the others).
var (
	ErrTooSmall = pricing.ErrTooSmall
	ErrRate     = pricing.ErrRate
	ErrRange    = pricing.ErrRange
	ErrFees     = pricing.ErrFees
)

// Quote lifetimes (pricing.InstantTTL, pricing.DefaultTTL).
const (
	InstantTTL = pricing.InstantTTL
	DefaultTTL = pricing.DefaultTTL
)

// Compute returns the amounts of a quote (pricing.Compute).
func Compute(in Input) (Amounts, error) { return pricing.Compute(in) }

// TTL is how long a quote on rail keeps its rate (pricing.TTL).
func TTL(rail string) time.Duration { return pricing.TTL(rail) }
