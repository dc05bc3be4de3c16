package enginetest

import (
	"context"
	"fmt"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes"
)

// Seams: they write or read records inside an engine transaction the way
// the owning area does (its in-transaction functions, with index upkeep),
// so a test can set up what the public API cannot make quickly, or
// compare what only the kernel sees. Each runs on the engine's own core
// (engine.HandleOf), so its caches and registries are the engine's.

// handle is the kernel handle eng runs on.
func handle(eng *payments.Engine) *engine.Handle { return engine.HandleOf(eng.Webhooks) }

// SeedDue stores a raw item of a due-work table (for example
// the quotes area's "settlements_due", at a key made by engine.DueKey), as its area
// would.
func SeedDue(ctx context.Context, eng *payments.Engine, table, key string, value []byte) error {
	return handle(eng).Update(ctx, func(t *engine.Txn) error { return t.Put(table, key, value) })
}

// quotesTransactions is the quotes area's table of transactions, which
// SeedTransactions fills as the area would, without the reads of
// quotes.InsertTransaction (a test seam: areas reach it through quotes).
const quotesTransactions = "transactions"

// SeedTransactions stores the n transactions mk(0..n-1) through the same
// write path as the engine (records and index entries), batch per store
// transaction, so benchmarks and tests can build large tables quickly.
func SeedTransactions(ctx context.Context, eng *payments.Engine, n, batch int, mk func(i int) payments.Transaction) error {
	h := handle(eng)
	for start := 0; start < n; start += batch {
		err := h.Update(ctx, func(t *engine.Txn) error {
			for i := start; i < min(start+batch, n); i++ {
				tx := mk(i)
				if err := engine.InsertJSON(t, quotesTransactions, tx.ID, &tx); err != nil {
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
// flows do (quotes.SaveTransaction), without an event.
func SetTransactionStatus(ctx context.Context, eng *payments.Engine, id string, status payments.TransactionStatus) error {
	return handle(eng).Update(ctx, func(t *engine.Txn) error {
		tx, err := quotes.GetTransaction(t, id)
		if err != nil {
			return err
		}
		tx.Status = status
		return quotes.SaveTransaction(t, tx, "")
	})
}

// AccountViewEncodings returns the INTERNAL_ACCOUNT.BALANCE_UPDATED data of
// the internal account id as the engine encodes it (accounts.ViewJSON) and
// as encoding/json encodes the account's view: they must be the same bytes.
func AccountViewEncodings(ctx context.Context, eng *payments.Engine, id string) (fast, model []byte, err error) {
	err = handle(eng).View(ctx, func(t *engine.Txn) error {
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

// SeedTx is the i-th of a series of transactions created a millisecond
// apart from the zero time: customer "Customer:c<i%customers>", status from
// status(i), from "InternalAccount:a" to "ExternalAccount:x<i%7>". It is
// what SeedTransactions stores for list tests and benchmarks.
func SeedTx(i, customers int, status func(int) payments.TransactionStatus) payments.Transaction {
	at := time.Time{}.Add(time.Duration(i) * time.Millisecond)
	return payments.Transaction{ID: fmt.Sprintf("Transaction:%08d", i), Status: status(i), Type: "OUTGOING", Direction: "DEBIT",
		CustomerID: fmt.Sprintf("Customer:c%d", i%customers), Source: payments.TxParty{SourceType: "ACCOUNT", AccountID: "InternalAccount:a"},
		Destination: payments.TxParty{DestinationType: "ACCOUNT", AccountID: fmt.Sprintf("ExternalAccount:x%d", i%7)},
		CreatedAt:   at, UpdatedAt: at}
}

// Completed is a SeedTx status: every transaction COMPLETED.
func Completed(int) payments.TransactionStatus { return payments.TxCompleted }
