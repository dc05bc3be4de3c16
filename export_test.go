package payments

import (
	"context"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes"
)

// Test seams for the external test package (the export_test.go pattern):
// they write records the way the owning area does, so tests of one area can
// set up another's records directly.

// SeedCustomer stores c (with its UMA index entry) and opens its internal
// accounts in currencies.
func (e *Engine) SeedCustomer(ctx context.Context, c Customer, currencies ...string) ([]*InternalAccount, error) {
	var out []*InternalAccount
	err := e.h.Update(ctx, func(t *engine.Txn) error {
		if err := customers.Insert(t, c); err != nil {
			return err
		}
		var err error
		out, err = accounts.OpenInternal(t, c.ID, currencies)
		return err
	})
	return out, err
}

// SeedExternalAccount stores a.
func (e *Engine) SeedExternalAccount(ctx context.Context, a ExternalAccount) error {
	return e.h.Update(ctx, func(t *engine.Txn) error { return accounts.InsertExternal(t, a) })
}

// SeedDue stores a raw item of a due-work table, as its area would.
func (e *Engine) SeedDue(ctx context.Context, table, key string, value []byte) error {
	return e.h.Update(ctx, func(t *engine.Txn) error { return t.Put(table, key, value) })
}

// DueKey is the key of an item due at t for id.
var DueKey = engine.DueKey

// MaxDueAttempts is how often a due item is tried before it is parked.
const MaxDueAttempts = engine.MaxDueAttempts

// SeedTransactions stores the n transactions mk(0..n-1) through the same
// write path as the engine (records and index entries), batch per store
// transaction, so benchmarks and tests can build large tables quickly.
func (e *Engine) SeedTransactions(ctx context.Context, n, batch int, mk func(i int) Transaction) error {
	for start := 0; start < n; start += batch {
		err := e.h.Update(ctx, func(t *engine.Txn) error {
			for i := start; i < min(start+batch, n); i++ {
				tx := mk(i)
				if err := engine.InsertJSON(t, quotes.TableTransactions, tx.ID, &tx); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// SetTransactionStatus changes a transaction's status the way the money
// flows do (saveTx), without an event.
func (e *Engine) SetTransactionStatus(ctx context.Context, id string, status TransactionStatus) error {
	return e.h.Update(ctx, func(t *engine.Txn) error {
		tx, err := quotes.GetTransaction(t, id)
		if err != nil {
			return err
		}
		tx.Status = status
		return quotes.SaveTransaction(t, tx, "")
	})
}

// Table names the external tests seed or inspect directly.
const (
	TableTransactions   = quotes.TableTransactions
	TableSettlementsDue = quotes.TableSettlementsDue
	TableLivenessDue    = accounts.TableLivenessDue
)

// AccountViewEncodings returns the INTERNAL_ACCOUNT.BALANCE_UPDATED data of
// the internal account id as the engine encodes it (accountViewJSON) and as
// encoding/json encodes the account's view: they must be the same bytes.
func (e *Engine) AccountViewEncodings(ctx context.Context, id string) (fast, model []byte, err error) {
	err = e.h.View(ctx, func(t *engine.Txn) error {
		a, err := accounts.SharedInternal(t, id)
		if err != nil {
			return err
		}
		if fast, err = accounts.ViewJSON(t, a); err != nil {
			return err
		}
		v, err := accounts.View(t, a)
		if err != nil {
			return err
		}
		model, err = engine.EncodeRecord(v)
		return err
	})
	return fast, model, err
}
