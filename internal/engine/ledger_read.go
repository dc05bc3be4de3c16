package engine

import (
	"context"
	"iter"
	"strconv"
	"strings"

	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/validate"
)

// Reading the ledger: its accounts with their balances, and the journal of
// one business record. Both read a page at a time from a key range of the
// ledger's tables (the balances in key order, the journal through the
// reference index of TableLedgerEntries), never the whole ledger.

// IxLedgerReference is the index of TableLedgerEntries by the business
// record an entry belongs to (LedgerEntry.Reference): a transaction's or
// another record's journal.
const IxLedgerReference = "reference"

// LedgerBalance is one ledger account's balance in one currency. Account
// names the ledger account: an internal account's id (its available
// funds), that id with "/held" (funds on hold for payments in flight), the
// platform's own accounts ("platform:..."), or the world outside
// ("external:...", the other side of every deposit and payout, negative
// for money that came in). Balance is in the currency's smallest unit.
type LedgerBalance struct {
	Account  string `json:"account"`
	Currency string `json:"currency"`
	Balance  int64  `json:"balance"`
	// External is set for an account of the world outside, the only kind
	// that may be negative without an overdraft.
	External bool `json:"external"`
}

// Ledger reads the engine's ledger. Its reads are outside any operation
// and need no idempotency.
type Ledger struct{ e *Handle }

// NewLedger returns the Ledger group of h.
func NewLedger(h *Handle) Ledger { return Ledger{h} }

// Accounts lists every ledger account with a balance in some currency
// (one item per account and currency), in account then currency order, a
// page of p at a time; accountPrefix keeps those whose account starts with
// it ("external:", an internal account's id). Every currency's balances sum
// to zero over all accounts. A cursor of another prefix or direction is
// INVALID_INPUT on cursor.
func (l Ledger) Accounts(ctx context.Context, accountPrefix string, p ListParams) (page Page[LedgerBalance], err error) {
	// The kernel's operations are of the area "webhooks" (its first group).
	ctx, op := l.e.Begin(ctx, "webhooks", "Ledger.Accounts")
	defer op.End(&err)
	prefix := strings.ReplaceAll(accountPrefix, "|", "")
	err = l.e.View(ctx, func(t *Txn) error {
		page, err = ledgerAccounts(t.Tx, prefix, p)
		return err
	})
	return page, err
}

// ledgerAccounts is Accounts in tx: a range scan of TableLedgerBalances
// from the cursor's key, stopping after one item more than the page.
func ledgerAccounts(tx Tx, prefix string, p ListParams) (Page[LedgerBalance], error) {
	after, err := p.Check(TableLedgerBalances, prefix)
	if err != nil {
		return Page[LedgerBalance]{}, err
	}
	page := Page[LedgerBalance]{Data: []LedgerBalance{}}
	var last string
	err = tx.Scan(TableLedgerBalances, ScanOptions{Prefix: prefix, After: after, Reverse: p.Desc}, func(k string, v []byte) (bool, error) {
		if len(page.Data) == p.Limit {
			page.HasMore, page.NextCursor = true, p.CursorFor(TableLedgerBalances, last)
			return false, nil
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return false, err
		}
		acct, cur := splitBalanceKey(k)
		page.Data, last = append(page.Data, LedgerBalance{Account: acct, Currency: cur, Balance: n, External: money.IsExternal(acct)}), k
		return true, nil
	})
	if p.Cursor == "" && !page.HasMore {
		n := len(page.Data)
		page.TotalCount = &n
	}
	return page, err
}

// Journal lists the ledger entries of one business record (reference: a
// transaction's id "Transaction:...", or another record's), oldest first
// (newest with p.Desc), a page of p at a time. Each entry balances: its
// postings sum to zero per currency. reference is required (INVALID_INPUT
// naming "reference"); a record that moved no money has an empty journal.
func (l Ledger) Journal(ctx context.Context, reference string, p ListParams) (page Page[LedgerEntry], err error) {
	ctx, op := l.e.Begin(ctx, "webhooks", "Ledger.Journal")
	defer op.End(&err)
	if reference == "" {
		var fe validate.Errors
		fe.Missing("reference")
		return page, Invalid(fe.Err())
	}
	err = l.e.View(ctx, func(t *Txn) error {
		page, err = List(t, ListQuery[LedgerEntry]{Table: TableLedgerEntries, Index: IxLedgerReference, Value: reference}, p)
		return err
	})
	return page, err
}

// ledgerReferenceIndex is the store table of IxLedgerReference.
var ledgerReferenceIndex = IndexTable(TableLedgerEntries, IxLedgerReference)

// indexLedgerEntry writes entry's entry in the reference index, as
// InsertIndexed would: Post writes the journal through Tx (or the store's
// LedgerTx), not through a Txn. The key is built in one buffer: Post runs
// on every movement of money.
func indexLedgerEntry(tx Tx, entry *LedgerEntry) error {
	if entry.Reference == "" {
		return nil
	}
	ref := escapedValue(entry.Reference)
	k := make([]byte, 0, len(ref)+len(entry.ID)+18)
	k = appendSortSuffix(append(k, ref...), entry.CreatedAt, entry.ID)
	return tx.Put(ledgerReferenceIndex, string(k), []byte{})
}

// AccountsAll walks every page of Accounts from p on (All).
func (l Ledger) AccountsAll(ctx context.Context, accountPrefix string, p ListParams) iter.Seq2[LedgerBalance, error] {
	return All(ctx, p, func(ctx context.Context, p ListParams) (Page[LedgerBalance], error) {
		return l.Accounts(ctx, accountPrefix, p)
	})
}

// JournalAll walks every page of Journal from p on (All).
func (l Ledger) JournalAll(ctx context.Context, reference string, p ListParams) iter.Seq2[LedgerEntry, error] {
	return All(ctx, p, func(ctx context.Context, p ListParams) (Page[LedgerEntry], error) {
		return l.Journal(ctx, reference, p)
	})
}
