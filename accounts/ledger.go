package accounts

import "github.com/paygrid/payments/money"

// The double-entry rules live in package money, where the engine's kernel
// reaches them without importing an area; these names keep them where
// programs found them. They are pure: no store sees an entry before
// CheckBalanced accepted it (engine.Post checks it again).

// Posting moves Amount minor units of Currency into (positive) or out of
// (negative) one ledger account (money.Posting).
type Posting = money.Posting

// ExternalPrefix marks ledger accounts that stand for the world outside the
// platform (money.ExternalPrefix).
const ExternalPrefix = money.ExternalPrefix

// HeldSuffix names the sub-account that holds an account's reserved funds
// (money.HeldSuffix).
const HeldSuffix = money.HeldSuffix

// ErrUnbalanced is returned for postings that do not sum to zero per
// currency (money.ErrUnbalanced).
var ErrUnbalanced = money.ErrUnbalanced

// IsExternal reports whether a ledger account stands outside the platform
// (money.IsExternal).
func IsExternal(account string) bool { return money.IsExternal(account) }

// Held returns the held sub-account of account (money.Held).
func Held(account string) string { return money.Held(account) }

// CheckBalanced verifies a ledger entry before any store sees it
// (money.CheckBalanced).
func CheckBalanced(postings []Posting) error { return money.CheckBalanced(postings) }

// Transfer returns the two postings that move amount of currency from one
// ledger account to another (money.Transfer).
func Transfer(from, to, currency string, amount int64) []Posting {
	return money.Transfer(from, to, currency, amount)
}

// Reverse returns the compensating postings of an entry (money.Reverse).
func Reverse(postings []Posting) []Posting { return money.Reverse(postings) }
