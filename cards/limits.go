package cards

import (
	"errors"
	"fmt"
)

// Limits bound how many live cards (cards in any state but CLOSED) a
// platform holds: MaxLive over the platform, PerCardholder per cardholder.
// Zero members mean DefaultMaxLive and DefaultPerCardholder.
type Limits struct {
	MaxLive       int
	PerCardholder int
}

// Default limits: a sandbox-sized platform maximum and one live card per
// cardholder.
const (
	DefaultMaxLive       = 10000
	DefaultPerCardholder = 1
)

// WithDefaults returns l with zero members set to the defaults.
func (l Limits) WithDefaults() Limits {
	if l.MaxLive == 0 {
		l.MaxLive = DefaultMaxLive
	}
	if l.PerCardholder == 0 {
		l.PerCardholder = DefaultPerCardholder
	}
	return l
}

// ErrLimitReached means that issuing one more card would pass a limit
// (CARD_LIMIT_REACHED).
var ErrLimitReached = errors.New("cards: card limit reached")

// CheckIssue decides whether one more card may be issued when the platform
// holds live cards and the cardholder holderLive of them: nil, or
// ErrLimitReached naming the limit. The platform limit is checked first.
// Zero limits take the defaults, so a zero Limits never refuses everything.
func (l Limits) CheckIssue(live, holderLive int) error {
	l = l.WithDefaults()
	switch {
	case live >= l.MaxLive:
		return fmt.Errorf("%w: the platform holds its maximum of %d live cards", ErrLimitReached, l.MaxLive)
	case holderLive >= l.PerCardholder:
		return fmt.Errorf("%w: the cardholder already holds %d live card(s), the most allowed", ErrLimitReached, holderLive)
	}
	return nil
}

// Eligible reports whether a funding source in currency can back a card.
// Card programs here are issued in these fiat currencies only; a card
// never converts, so all its sources share one of them.
func Eligible(currency string) bool {
	switch currency {
	case "USD", "EUR", "GBP":
		return true
	}
	return false
}

// WithinSpendLimit reports whether amount may be authorized on a card whose
// per-transaction limit is max (nil: no limit). A transaction for exactly
// the limit is allowed.
func WithinSpendLimit(amount int64, max *int64) bool {
	return max == nil || amount <= *max
}
