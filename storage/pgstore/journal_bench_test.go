package pgstore_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/storetest"
)

// BenchmarkJournal: a ledger entry with an id of the engine's form
// ("LedgerEntry:" and a UUID) posted in one Update, then read back by Get
// in one View, by 1 and 16 callers (each caller's entries move money
// between its own two accounts).
func BenchmarkJournal(b *testing.B) {
	store, _ := openSchema(b)
	for _, callers := range []int{1, 16} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			rate := storetest.Parallel(b, callers, func() error {
				u, err := uuid.NewV7()
				if err != nil {
					return err
				}
				id, pair := "LedgerEntry:"+u.String(), u[15]%16
				postings := []payments.Posting{
					{Account: fmt.Sprintf("external:a%d", pair), Currency: "USD", Amount: -1},
					{Account: fmt.Sprintf("external:b%d", pair), Currency: "USD", Amount: 1}}
				if err := store.Update(ctx, func(tx payments.Tx) error {
					return payments.Post(tx, payments.LedgerEntry{ID: id, Postings: postings})
				}); err != nil {
					return err
				}
				return store.View(ctx, func(tx payments.Tx) error {
					_, err := tx.Get("ledger_entries", id)
					return err
				})
			})
			b.ReportMetric(rate, "ops/s")
		})
	}
}
