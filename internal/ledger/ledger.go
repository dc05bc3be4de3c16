// Package ledger reads the engine's ledger for operators and tests: its
// accounts with their balances, and the journal of one business record,
// a page at a time from a key range of the ledger's tables (the balances
// in key order, the journal through the reference index of
// TableLedgerEntries), never the whole ledger. It is a service over the
// kernel (internal/engine), which writes the ledger (Post); the root
// exposes it as Engine.Ledger. Check verifies the ledger's invariants
// over the whole store (the root's CheckLedger, which tests run after
// every scenario).
package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/validate"
)

// Ledger reads the engine's ledger. Its reads are outside any operation
// and need no idempotency.
type Ledger struct{ h *engine.Handle }

// New returns the Ledger group of h.
func New(h *engine.Handle) Ledger { return Ledger{h} }

// Accounts lists every ledger account with a balance in some currency
// (one item per account and currency), in account then currency order, a
// page of p at a time; accountPrefix keeps those whose account starts with
// it ("external:", an internal account's id). Every currency's balances sum
// to zero over all accounts. A cursor of another prefix or direction is
// INVALID_INPUT on cursor.
func (l Ledger) Accounts(ctx context.Context, accountPrefix string, p engine.ListParams) (page engine.Page[engine.LedgerBalance], err error) {
	// The kernel's operations are of the area "webhooks" (its first group).
	ctx, op := l.h.Begin(ctx, "webhooks", "Ledger.Accounts")
	defer op.End(&err)
	prefix := strings.ReplaceAll(accountPrefix, "|", "")
	err = l.h.View(ctx, func(t *engine.Txn) error {
		page, err = ledgerAccounts(t.Tx, prefix, p)
		return err
	})
	return page, err
}

// ledgerAccounts is Accounts in tx: a range scan of engine.TableLedgerBalances
// from the cursor's key, stopping after one item more than the page.
func ledgerAccounts(tx engine.Tx, prefix string, p engine.ListParams) (engine.Page[engine.LedgerBalance], error) {
	after, err := p.Check(engine.TableLedgerBalances, prefix)
	if err != nil {
		return engine.Page[engine.LedgerBalance]{}, err
	}
	page := engine.Page[engine.LedgerBalance]{Data: []engine.LedgerBalance{}}
	var last string
	err = tx.Scan(engine.TableLedgerBalances, engine.ScanOptions{Prefix: prefix, After: after, Reverse: p.Desc}, func(k string, v []byte) (bool, error) {
		if len(page.Data) == p.Limit {
			page.HasMore, page.NextCursor = true, p.CursorFor(engine.TableLedgerBalances, last)
			return false, nil
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return false, err
		}
		acct, cur := splitBalanceKey(k)
		page.Data, last = append(page.Data, engine.LedgerBalance{Account: acct, Currency: cur, Balance: n, External: money.IsExternal(acct)}), k
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
func (l Ledger) Journal(ctx context.Context, reference string, p engine.ListParams) (page engine.Page[engine.LedgerEntry], err error) {
	ctx, op := l.h.Begin(ctx, "webhooks", "Ledger.Journal")
	defer op.End(&err)
	if reference == "" {
		var fe validate.Errors
		fe.Missing("reference")
		return page, engine.Invalid(fe.Err())
	}
	err = l.h.View(ctx, func(t *engine.Txn) error {
		page, err = engine.List(t, engine.ListQuery[engine.LedgerEntry]{Table: engine.TableLedgerEntries, Index: engine.IxLedgerReference, Value: reference}, p)
		return err
	})
	return page, err
}

// AccountsAll walks every page of Accounts from p on (engine.All).
func (l Ledger) AccountsAll(ctx context.Context, accountPrefix string, p engine.ListParams) iter.Seq2[engine.LedgerBalance, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[engine.LedgerBalance], error) {
		return l.Accounts(ctx, accountPrefix, p)
	})
}

// JournalAll walks every page of Journal from p on (engine.All).
func (l Ledger) JournalAll(ctx context.Context, reference string, p engine.ListParams) iter.Seq2[engine.LedgerEntry, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[engine.LedgerEntry], error) {
		return l.Journal(ctx, reference, p)
	})
}

// Check verifies the ledger invariants over the whole store: replaying
// the journal reproduces every stored balance, every currency sums to zero
// over all ledger accounts, and no non-external account is negative unless an
// Overdraft entry took it there. Tests call
// it after every scenario (the root's CheckLedger). It reads the whole
// journal: a check, not a query to serve.
func Check(ctx context.Context, s engine.Store) error {
	return s.View(ctx, CheckTx)
}

// CheckTx is Check inside tx (an import checks the document it is
// writing before it commits).
func CheckTx(tx engine.Tx) error {
	replayed := map[string]int64{}
	overdrawn := map[string]bool{}
	err := tx.Scan(engine.TableLedgerEntries, engine.ScanOptions{}, func(_ string, v []byte) (bool, error) {
		var e engine.LedgerEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return false, err
		}
		if err := money.CheckBalanced(e.Postings); err != nil {
			return false, fmt.Errorf("entry %s: %w", e.ID, err)
		}
		for _, p := range e.Postings {
			replayed[engine.BalanceKey(p.Account, p.Currency)] += p.Amount
			if e.Overdraft {
				overdrawn[engine.BalanceKey(p.Account, p.Currency)] = true
			}
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	stored := map[string]int64{}
	perCurrency := map[string]int64{}
	err = tx.Scan(engine.TableLedgerBalances, engine.ScanOptions{}, func(k string, v []byte) (bool, error) {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return false, err
		}
		stored[k] = n
		acct, cur := splitBalanceKey(k)
		perCurrency[cur] += n
		if n < 0 && !money.IsExternal(acct) && !overdrawn[k] {
			return false, fmt.Errorf("ledger: account %s is negative in %s: %d", acct, cur, n)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for cur, s := range perCurrency {
		if s != 0 {
			return fmt.Errorf("ledger: %s does not sum to zero: %d", cur, s)
		}
	}
	for k, n := range replayed {
		if stored[k] != n {
			return fmt.Errorf("ledger: balance %s is %d, journal says %d", k, stored[k], n)
		}
	}
	for k, n := range stored {
		if replayed[k] != n {
			return fmt.Errorf("ledger: balance %s is %d, journal says %d", k, n, replayed[k])
		}
	}
	return nil
}

// splitBalanceKey splits an engine.BalanceKey at its last '|': a currency
// code holds none.
func splitBalanceKey(k string) (account, currency string) {
	for i := len(k) - 1; i >= 0; i-- {
		if k[i] == '|' {
			return k[:i], k[i+1:]
		}
	}
	return k, ""
}
