package engine

import (
	"errors"
	"strconv"
	"time"

	"github.com/paygrid/payments/money"
)

// Ledger tables. Balances are derived state kept in step with the journal in
// the same transaction; the journal is the record of every movement.
// Balances are stored as decimal text, so a database store can show them
// as numbers.
const (
	TableLedgerBalances = "ledger_balances"
	TableLedgerEntries  = "ledger_entries"
)

// Posting is one leg of a ledger entry (see money.Posting).
type Posting = money.Posting

// LedgerEntry is one balanced movement of money, written atomically with the
// business change it belongs to.
type LedgerEntry struct {
	ID        string    `json:"id"`
	Reference string    `json:"reference,omitempty"` // the business record: Transaction:..., Quote:...
	Postings  []Posting `json:"postings"`
	CreatedAt time.Time `json:"createdAt"`
	// Overdraft lets the entry take platform accounts below zero: money that
	// left the platform and came back owed (a bank return of a payout whose
	// fee the platform spent, an ACH return of a deposit the customer spent)
	// is booked as a negative balance on the party that owes it instead of
	// failing.
	Overdraft bool `json:"overdraft,omitempty"`
}

// BalanceKey is the key of an account's balance in one currency in
// TableLedgerBalances: "<account>|<currency>".
func BalanceKey(account, currency string) string { return account + "|" + currency }

// Balance returns the balance of a ledger account in currency (0 when it never
// moved).
func Balance(tx Tx, account, currency string) (int64, error) {
	if l, ok := tx.(LedgerTx); ok {
		return l.LedgerBalance(BalanceKey(account, currency))
	}
	return balanceAt(tx, BalanceKey(account, currency))
}

// LedgerTx is an optional capability of a Tx whose store keeps the ledger
// itself (pgstore): Post and Balance use it instead of reading and
// rewriting the records of TableLedgerBalances, so that a balance is moved
// by a delta the store applies when the transaction commits, checked there
// against the balance it commits on, instead of being read before it is
// rewritten: concurrent operations on one busy account do not conflict over
// a balance they only move. Stores without it (memstore, boltstore) get the
// plain path; the outcomes are the same.
//
// Through the generic methods of Tx the store still shows the ledger as the
// records of TableLedgerBalances (decimal balances keyed by BalanceKey) and
// TableLedgerEntries (encoded LedgerEntry), so that the ledger's check
// (internal/ledger.Check), state export and import work on every store.
type LedgerTx interface {
	// LedgerBalance returns the balance at key (BalanceKey) as the
	// transaction sees it, its own postings included; 0 for a balance
	// never moved. The value is exact: the store commits the transaction
	// only on this very balance (or runs the function again).
	LedgerBalance(key string) (int64, error)
	// LedgerKnown returns what LedgerBalance would, when the store knows it
	// without reading the database (ok false otherwise). The value may be
	// stale: Post refuses on it at once, and the store checks before it
	// answers with that refusal.
	LedgerKnown(key string) (balance int64, ok bool)
	// LedgerPost records entry, already checked balanced and encoded as b,
	// in the journal (ErrConflict when its ID exists) and moves the
	// balance of each posting by its amount. guarded[i] reports that
	// posting i must not take its balance below zero: the store commits the
	// entry only if, on the balances it commits on, Post would not have
	// refused it (INSUFFICIENT_FUNDS) nor overflowed; otherwise it runs the
	// transaction function again, knowing the balances, so that Post
	// answers as it would have on them.
	LedgerPost(entry *LedgerEntry, b []byte, guarded []bool) error
}

// balanceAt reads the balance at key: a decimal int64, 0 when absent.
func balanceAt(tx Tx, key string) (int64, error) {
	b, err := tx.Get(TableLedgerBalances, key)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(string(b), 10, 64)
}

// Post applies a balanced entry inside tx: it checks the postings with
// money.CheckBalanced, updates each balance, and refuses (writing nothing
// the caller keeps, since the caller's transaction then fails) any posting that
// would take a non-external account below zero, with INSUFFICIENT_FUNDS,
// unless the entry is an Overdraft.
// entry.ID must be unique; a reused ID is ErrConflict. An unbalanced entry
// is INTERNAL_ERROR (a bug of the caller, never a client's fault), and a
// balance past int64 is AMOUNT_OUT_OF_RANGE. Only a posting that takes a
// balance lower and below zero is refused: a credit to an account already
// negative (a debt being repaid) always passes.
func Post(tx Tx, entry LedgerEntry) error {
	if err := money.CheckBalanced(entry.Postings); err != nil {
		return &Error{Code: CodeInternalError, Message: "unbalanced ledger entry", Err: err}
	}
	if l, ok := tx.(LedgerTx); ok {
		return postDeferred(tx, l, &entry)
	}
	for _, p := range entry.Postings {
		key := BalanceKey(p.Account, p.Currency)
		bal, err := balanceAt(tx, key)
		if err != nil {
			return err
		}
		next, err := money.Add(bal, p.Amount)
		if err != nil {
			return &Error{Code: CodeAmountOutOfRange, Message: "balance would overflow", Err: err}
		}
		if next < 0 && next < bal && !money.IsExternal(p.Account) && !entry.Overdraft {
			return Errorf(CodeInsufficientFunds, "insufficient funds in %s: balance %d, needs %d", p.Account, bal, -p.Amount)
		}
		if err := tx.Put(TableLedgerBalances, key, strconv.AppendInt(nil, next, 10)); err != nil {
			return err
		}
	}
	b, err := appendLedgerEntry(make([]byte, 0, 192+96*len(entry.Postings)), &entry)
	if err != nil {
		return err
	}
	if err := tx.Insert(TableLedgerEntries, entry.ID, b); err != nil {
		return err
	}
	return indexLedgerEntry(tx, &entry)
}

// postDeferred is Post on a store that keeps the ledger (LedgerTx): each
// posting is checked at once where the store knows its balance, and
// otherwise marked for the store to check on the balance it commits on.
func postDeferred(tx Tx, l LedgerTx, entry *LedgerEntry) error {
	guarded := make([]bool, len(entry.Postings))
	var moved map[string]int64 // this entry's earlier postings, by balance key
	for i, p := range entry.Postings {
		guarded[i] = p.Amount < 0 && !money.IsExternal(p.Account) && !entry.Overdraft
		key := BalanceKey(p.Account, p.Currency)
		bal, ok := l.LedgerKnown(key)
		if !ok {
			continue
		}
		bal += moved[key]
		next, err := money.Add(bal, p.Amount)
		if err != nil {
			return &Error{Code: CodeAmountOutOfRange, Message: "balance would overflow", Err: err}
		}
		if next < 0 && guarded[i] {
			return Errorf(CodeInsufficientFunds, "insufficient funds in %s: balance %d, needs %d", p.Account, bal, -p.Amount)
		}
		if moved == nil {
			moved = map[string]int64{}
		}
		moved[key] += p.Amount
	}
	b, err := appendLedgerEntry(make([]byte, 0, 192+96*len(entry.Postings)), entry)
	if err != nil {
		return err
	}
	if err := l.LedgerPost(entry, b, guarded); err != nil {
		return err
	}
	return indexLedgerEntry(tx, entry)
}

// appendLedgerEntry appends json.Marshal(e).
func appendLedgerEntry(b []byte, e *LedgerEntry) ([]byte, error) {
	b = StringMember(append(b, '{'), "id", e.ID, false)
	b = StringMember(b, "reference", e.Reference, true)
	b = Member(b, "postings")
	if e.Postings == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range e.Postings {
			if i > 0 {
				b = append(b, ',')
			}
			b = StringMember(append(b, '{'), "account", p.Account, false)
			b = StringMember(b, "currency", p.Currency, false)
			b = append(IntMember(b, "amount", p.Amount), '}')
		}
		b = append(b, ']')
	}
	b, err := TimeMember(b, "createdAt", e.CreatedAt)
	if err != nil {
		return nil, err
	}
	b = BoolMember(b, "overdraft", e.Overdraft)
	return append(b, '}'), nil
}

// PostEntry writes one balanced ledger entry of the legs for reference
// (Post).
func PostEntry(t *Txn, reference string, postings ...[]Posting) error {
	return Post(t, entry(t, reference, postings))
}

// PostOverdraftEntry writes one balanced ledger entry of the legs that
// may take platform accounts below zero (LedgerEntry.Overdraft).
func PostOverdraftEntry(t *Txn, reference string, postings ...[]Posting) error {
	e := entry(t, reference, postings)
	e.Overdraft = true
	return Post(t, e)
}

// entry is the ledger entry of the legs for reference.
func entry(t *Txn, reference string, postings [][]Posting) LedgerEntry {
	var all []Posting
	for _, p := range postings {
		all = append(all, p...)
	}
	return LedgerEntry{ID: t.NewID("LedgerEntry"), Reference: reference, Postings: all, CreatedAt: t.Now}
}
