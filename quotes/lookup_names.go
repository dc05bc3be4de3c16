package quotes

import (
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/lookups"
)

// Receiver lookups and the Directory live in package quotes/lookups,
// which owns the lookups table; these are their names as this package has
// always spelled them (the root re-exports them from here).

// LookupTTL is how long a quote may refer to a lookup (lookups.LookupTTL).
const LookupTTL = lookups.LookupTTL

// CodeLookupRequestNotFound is a lookup id that is unknown or expired
// (lookups.CodeRequestNotFound).
const CodeLookupRequestNotFound = lookups.CodeRequestNotFound

// Lookup is the result of a receiver lookup (lookups.Lookup).
type Lookup = lookups.Lookup

// LookupCurrency is a currency a looked-up receiver accepts
// (lookups.LookupCurrency).
type LookupCurrency = lookups.LookupCurrency

// PayerDataField is one piece of sender information a receiver requires
// (lookups.PayerDataField).
type PayerDataField = lookups.PayerDataField

// Directory knows the world beyond the platform (lookups.Directory).
type Directory = lookups.Directory

// UMAReceiver is a receiver the Directory knows (lookups.UMAReceiver).
type UMAReceiver = lookups.UMAReceiver

// VASP is an entry of the VASP directory (lookups.VASP).
type VASP = lookups.VASP

// Discovery is a payout bank of a country and currency
// (lookups.Discovery).
type Discovery = lookups.Discovery

// UMAProvider is an entry of the UMA providers' list
// (lookups.UMAProvider).
type UMAProvider = lookups.UMAProvider

// Lookups resolves receivers and answers the directory lists: a
// lookups.Lookups. Reach it as eng.Lookups (payments.Lookups).
type Lookups = lookups.Lookups

// NewLookups returns the Lookups group of h (lookups.New).
func NewLookups(h *engine.Handle) Lookups { return lookups.New(h) }

// directory is the Directory of e's quotes area: the one configured, or
// one that knows nobody.
func directory(e *engine.Handle) Directory {
	if d := quotesSlot.Of(e).Directory; d != nil {
		return d
	}
	return lookups.Nobody
}
