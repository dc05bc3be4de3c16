package pgstore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
)

// The ledger (engine.LedgerTx). Balances live in ledger_balances, one row
// per ledger account and currency; entries in ledger_journal_entries and
// ledger_postings (one narrow row per entry and per posting, signed:
// credits positive, debits negative; journal.go).
//
// A posting does not read its balance: it adds its amount to the balance's
// delta, and the commit applies every delta in one statement,
// balance = balance + delta, checking there what Post would have checked
// (a guarded posting may not take its balance below zero: the balance it
// commits on is at least minBase). A balance the function saw (Balance,
// Get) is committed only on the very value it saw. When a check fails the
// statement raises, nothing commits, and the function runs again knowing
// the balance, so that Post refuses exactly as it would have on it.
//
// So two payments out of one account do not conflict over its balance
// unless they look at it; when they do (the balance an account's webhook
// announces), the balance is hot (locks.go) and is read under its advisory
// lock, taken at that read (late in the function) and given up right after
// the commit.

var _ engine.LedgerTx = (*tx)(nil)

// txLedger is the ledger part of a tx: the methods that read, post and
// write balances and entries. A tx embeds it, so they are the tx's
// (engine.LedgerTx); the state they use (bals, posted) stays on the tx.
type txLedger struct{ t *tx }

// withLedger ties t's ledger part to t and returns t; every tx is made
// through it.
func withLedger(t *tx) *tx {
	t.txLedger.t = t
	return t
}

// bal is what a run knows of one balance.
type bal struct {
	account, currency string
	base              int64 // the committed balance the run builds on
	exists            bool  // its row existed
	known             bool  // base was read (database or cache)
	seen              bool  // the function saw base: the commit checks it
	peeked            bool  // Post refused on a known base: checked before that answer
	delta             int64
	guarded           bool  // some posting must not take it below zero:
	minBase           int64 // the commit needs base >= minBase
	wrote             bool  // written through Tx.Put (its row exists after)
	del               bool  // deleted through Tx.Delete
}

// changed reports whether the commit writes the balance.
func (b *bal) changed() bool { return b.delta != 0 || b.guarded || b.del || (b.wrote && !b.exists) }

// splitKey splits a balance key "account|currency" at its last '|'.
func splitKey(key string) (account, currency string, err error) {
	i := strings.LastIndexByte(key, '|')
	if i < 0 {
		return "", "", fmt.Errorf("pgstore: %q is not a balance key (account|currency)", key)
	}
	return key[:i], key[i+1:], nil
}

// balance returns what the run knows of the balance at key; with read, its
// base is known (read when it must be).
func (l *txLedger) balance(key string, read bool) (*bal, error) {
	t := l.t
	t.touchBal(key) // its state before a queued function changes it (group.go)
	b := t.bals[key]
	if b == nil {
		account, currency, err := splitKey(key)
		if err != nil {
			return nil, err
		}
		b = &bal{account: account, currency: currency}
		if t.bals == nil {
			t.bals = map[string]*bal{}
		}
		t.bals[key] = b
	}
	if b.known || !read {
		return b, nil
	}
	k := tkey{engine.TableLedgerBalances, key}
	if under, ok, err := t.underLock(k); err != nil {
		return nil, err
	} else if ok {
		b.base, b.exists, b.known = under.n, under.exists, true
		return b, nil
	}
	if t.cacheable(k) {
		if e, ok := t.s.cache.get(k); ok {
			b.base, b.exists, b.known = e.n, e.exists, true
			t.cached = true
			return b, nil
		}
	}
	var n int64
	var ok bool
	err := t.query("SELECT balance FROM ledger_balances WHERE account = $1 AND currency = $2",
		[]any{b.account, b.currency}, func(rows pgx.Rows) error {
			for rows.Next() {
				if err := rows.Scan(&n); err != nil {
					return err
				}
				ok = true
			}
			return nil
		})
	if err != nil {
		return nil, t.fail(err)
	}
	b.base, b.exists, b.known = n, ok, true
	if t.optimistic {
		t.s.cache.put(k, cached{n: n, exists: ok})
	} else {
		// Read in a View's snapshot: nothing to check.
		b.seen = false
	}
	return b, nil
}

// LedgerBalance implements engine.LedgerTx.
func (l *txLedger) LedgerBalance(key string) (int64, error) {
	t := l.t
	if err := t.check(false); err != nil {
		return 0, err
	}
	b, err := t.balance(key, true)
	if err != nil {
		return 0, err
	}
	b.seen = true
	if b.del {
		return 0, nil
	}
	return b.base + b.delta, nil
}

// LedgerKnown implements engine.LedgerTx: the balance when the run read it
// or the cache holds it, and, after a run whose check failed on it, read
// now (fresh).
func (l *txLedger) LedgerKnown(key string) (int64, bool) {
	t := l.t
	if t.check(false) != nil {
		return 0, false
	}
	k := tkey{engine.TableLedgerBalances, key}
	read := t.u == nil || t.u.fresh[k]
	if !read && !t.s.hot.isHot(lockOf(k)) {
		_, read = t.s.cache.get(k)
	}
	b, err := t.balance(key, read)
	if err != nil || !b.known {
		return 0, false
	}
	b.peeked = true
	return b.base + b.delta, true
}

// LedgerPost implements engine.LedgerTx.
func (l *txLedger) LedgerPost(entry *payments.LedgerEntry, enc []byte, guarded []bool) error {
	t := l.t
	if err := t.check(true); err != nil {
		return err
	}
	if err := t.insert(tkey{engine.TableLedgerEntries, entry.ID}, enc); err != nil {
		return err
	}
	if t.posted == nil {
		t.posted = map[string]*payments.LedgerEntry{}
	}
	e := *entry
	t.posted[entry.ID] = &e
	if t.undo != nil {
		t.undo.posted = append(t.undo.posted, entry.ID)
	}
	for i, p := range entry.Postings {
		b, err := t.balance(engine.BalanceKey(p.Account, p.Currency), false)
		if err != nil {
			return err
		}
		b.delta += p.Amount
		if guarded[i] {
			if !b.guarded || -b.delta > b.minBase {
				b.minBase = -b.delta
			}
			b.guarded = true
		}
	}
	return nil
}

// getBalance is Tx.Get of a balance record: its decimal value.
func (l *txLedger) getBalance(key string) ([]byte, error) {
	t := l.t
	b, err := t.balance(key, true)
	if err != nil {
		return nil, err
	}
	b.seen = true
	if b.del || !b.exists && !b.changed() {
		return nil, payments.ErrNotFound
	}
	return strconv.AppendInt(nil, b.base+b.delta, 10), nil
}

// putBalance is Tx.Put of a balance record: it sets the balance.
func (l *txLedger) putBalance(key string, v []byte) error {
	t := l.t
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return fmt.Errorf("pgstore: balance %s: %q is not an integer", key, v)
	}
	b, err := t.balance(key, true)
	if err != nil {
		return err
	}
	b.seen, b.wrote, b.del = true, true, false
	b.delta = n - b.base
	return nil
}

func (l *txLedger) insertBalance(key string, v []byte) error {
	t := l.t
	if _, err := t.getBalance(key); err == nil {
		return payments.ErrConflict
	}
	return t.putBalance(key, v)
}

func (l *txLedger) deleteBalance(key string) error {
	t := l.t
	if _, err := t.getBalance(key); err != nil {
		return err
	}
	b := t.bals[key]
	b.del, b.wrote, b.delta, b.guarded = true, false, 0, false
	return nil
}

// journalWrites adds to s the writes of the run's journal records: ins
// inserted and put upserted as rows (journal.go), del deleted.
func (l *txLedger) journalWrites(s *stmt, ins, put, del []tkey) error {
	t := l.t
	if len(del) > 0 {
		journalDeletes(s, keysOf(del))
	}
	var w [2]entries
	for i, ks := range [2][]tkey{ins, put} {
		slices.SortFunc(ks, func(a, b tkey) int { return strings.Compare(a.key, b.key) })
		for _, k := range ks {
			v := t.recs[k].v
			e, err := t.entryOf(k.key, v)
			if err != nil {
				return err
			}
			w[i].keys, w[i].entries, w[i].values = append(w[i].keys, k.key), append(w[i].entries, e), append(w[i].values, v)
		}
	}
	if accounts := journalRows(s, w[0], w[1], t.s.accounts.get, false); accounts != "" {
		s.accounts = accounts
	}
	return nil
}

// entryOf returns the entry a journal record encodes.
func (l *txLedger) entryOf(id string, v []byte) (*payments.LedgerEntry, error) {
	t := l.t
	if e := t.posted[id]; e != nil {
		return e, nil
	}
	return decodeEntry(id, v)
}

// decodeEntry decodes the journal record v at id.
func decodeEntry(id string, v []byte) (*payments.LedgerEntry, error) {
	var e payments.LedgerEntry
	if err := json.Unmarshal(v, &e); err != nil {
		return nil, fmt.Errorf("pgstore: ledger entry %s: %w", id, err)
	}
	return &e, nil
}
