package pgstore_test

import (
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments/storage/pgstore"
)

// TestEntryUID_MatchesSQL: the store's test of an id in Go, which the writes and a Get follow,
// and ledger_entry_uuid, which the reads that test ids in SQL follow, keep
// the same ids as UUIDs, with the same UUIDs.
func TestEntryUID_MatchesSQL(t *testing.T) {
	_, schema := openSchema(t)
	c := sqlConn(t, schema)
	ids := []string{"", "LedgerEntry:", "E:1",
		"LedgerEntry:0190abcd-0000-7000-8000-000000000001",
		"LedgerEntry:0190ABCD-0000-7000-8000-000000000001",
		"LedgerEntry:{0190abcd-0000-7000-8000-000000000001}",
		"LedgerEntry:0190abcd000070008000000000000001",
		"LedgerEntry:0190abcd-0000-7000-8000-000000000001 ",
		"LedgerEntry:0190abcd-0000-7000-8000-000000000001\n",
		" LedgerEntry:0190abcd-0000-7000-8000-000000000001",
		"LedgerEntry:0190abcd-0000-7000-8000-00000000000g",
		"LedgerEntry:0190abcd-0000-7000-8000_000000000001",
		"ledgerentry:0190abcd-0000-7000-8000-000000000001",
		"LedgerEntry:ffffffff-ffff-ffff-ffff-ffffffffffff",
		"LedgerEntry:00000000-0000-0000-0000-000000000000",
		"LedgerEntry:0190abcd-0000-7000-8000-0000000000012",
		"LedgerEntry:0190abcd-0000-7000-8000-00000000001",
		"LedgerEntry:0190abcd-0000-7000-8000-00000000000１",
	}
	for _, id := range ids {
		var sql pgtype.UUID
		if err := c.QueryRow(ctx, "SELECT ledger_entry_uuid($1)", id).Scan(&sql); err != nil {
			t.Fatal(err)
		}
		if got := pgstore.EntryUID(id); got != sql {
			t.Errorf("%q: entryUID %v, ledger_entry_uuid %v", id, got, sql)
		}
	}
}
