package engine

import "github.com/paygrid/payments/internal/ixkey"

// What reading the ledger needs of the kernel: the reference index of the
// journal, and the balance an account list shows. The reads themselves
// (Engine.Ledger) are package internal/ledger's.

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
	ref := ixkey.Escaped(entry.Reference)
	k := make([]byte, 0, len(ref)+len(entry.ID)+18)
	k = ixkey.AppendSortSuffix(append(k, ref...), entry.CreatedAt, entry.ID)
	return tx.Put(ledgerReferenceIndex, string(k), []byte{})
}
