package money

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// The double-entry rules: postings, their balance check and the account
// naming conventions the ledger relies on. They live here, beside the
// arithmetic, so that the engine's kernel can post and check entries
// without importing an area (package accounts re-exports them).

// Posting moves Amount minor units of Currency into (positive) or out of
// (negative) one ledger account. A ledger entry is a set of postings that sums
// to zero per currency.
type Posting struct {
	Account  string `json:"account"`
	Currency string `json:"currency"`
	Amount   int64  `json:"amount"`
}

// ExternalPrefix marks ledger accounts that stand for the world outside the
// platform (funding sources, rails, settlement). Only they may go negative.
const ExternalPrefix = "external:"

// HeldSuffix names the sub-account that holds an account's reserved funds.
const HeldSuffix = "/held"

// IsExternal reports whether a ledger account stands outside the platform and
// may therefore carry a negative balance.
func IsExternal(account string) bool { return strings.HasPrefix(account, ExternalPrefix) }

// Held returns the held sub-account of account: funds reserved for an
// in-flight payment count in the account's total balance but not its
// available balance.
func Held(account string) string { return account + HeldSuffix }

// ErrUnbalanced is returned for postings that do not sum to zero per currency.
var ErrUnbalanced = errors.New("accounts: postings are not balanced")

// CheckBalanced verifies a ledger entry before any store sees it: at least two
// postings, each with an account, a known currency and a non-zero amount, and
// per currency a sum of exactly zero (overflow-checked).
func CheckBalanced(postings []Posting) error {
	if len(postings) < 2 {
		return fmt.Errorf("%w: an entry needs at least two postings", ErrUnbalanced)
	}
	sums := map[string]int64{}
	for i, p := range postings {
		if p.Account == "" || p.Amount == 0 || !Known(p.Currency) {
			return fmt.Errorf("%w: posting %d needs an account, a known currency and a non-zero amount", ErrUnbalanced, i)
		}
		s, err := Add(sums[p.Currency], p.Amount)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUnbalanced, err)
		}
		sums[p.Currency] = s
	}
	var off []string
	for cur, s := range sums {
		if s != 0 {
			off = append(off, fmt.Sprintf("%s %+d", cur, s))
		}
	}
	if len(off) > 0 {
		sort.Strings(off)
		return fmt.Errorf("%w: %s", ErrUnbalanced, strings.Join(off, ", "))
	}
	return nil
}

// Transfer returns the two postings that move amount of currency from one
// ledger account to another.
func Transfer(from, to, currency string, amount int64) []Posting {
	return []Posting{
		{Account: from, Currency: currency, Amount: -amount},
		{Account: to, Currency: currency, Amount: amount},
	}
}

// Reverse returns the compensating postings of an entry.
func Reverse(postings []Posting) []Posting {
	out := make([]Posting, len(postings))
	for i, p := range postings {
		p.Amount = -p.Amount
		out[i] = p
	}
	return out
}
