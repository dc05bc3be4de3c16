package pgstore_test

import (
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oddIDs are journal entries whose ids are not the engine's form
// ("LedgerEntry:" and a lower-case canonical UUID): the store keeps their
// text.
var oddIDs = []string{
	"E:odd",
	"LedgerEntry:0190ABCD-0000-7000-8000-000000000001", // upper case
	"LedgerEntry:{0190abcd-0000-7000-8000-000000000002}",
	"LedgerEntry:0190abcd000070008000000000000003",
	"LedgerEntry:0190abcd-0000-7000-8000-000000000004 ",
	"ledgerentry:0190abcd-0000-7000-8000-000000000005",
	"Ledger:0190abcd-0000-7000-8000-000000000006",
}

// putEntry writes a balanced entry at id in the engine's encoding and
// returns its record.
func putEntry(t *testing.T, store payments.Store, id, reference string, at time.Time) string {
	t.Helper()
	e := payments.LedgerEntry{ID: id, Reference: reference, CreatedAt: at, Postings: []payments.Posting{
		{Account: "external:src", Currency: "USD", Amount: -3}, {Account: "external:dst", Currency: "USD", Amount: 3}}}
	v, err := json.Marshal(e)
	require.NoError(t, err)
	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error { return tx.Put("ledger_entries", id, v) }))
	return string(v)
}

// TestJournal_CompactIDs: an entry the engine writes keeps its id as a
// UUID (uid: 16 bytes, where its text took 48) and no text of it; an id
// of any other form keeps its text; either reads back by Get, by Scan and
// through the views as written, is unique (a second insert of the same
// id finds it), and is deleted with its postings.
func TestJournal_CompactIDs(t *testing.T) {
	store, schema := openSchema(t)
	newWorld(t, store)
	c := sqlConn(t, schema)

	var engineEntries, withUID, withText int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*), count(uid), count(id) FROM ledger_journal_entries`).Scan(&engineEntries, &withUID, &withText))
	assert.GreaterOrEqual(t, engineEntries, 3)
	assert.Equal(t, engineEntries, withUID, "every entry the engine wrote keeps its id as a UUID")
	assert.Zero(t, withText, "and none its text")
	var entryRow, uidKey float64
	require.NoError(t, c.QueryRow(ctx, `SELECT avg(pg_column_size(j.*)), avg(pg_column_size(j.uid)) FROM ledger_journal_entries j`).Scan(&entryRow, &uidKey))
	t.Logf("an entry's row: %.0f bytes, its id: %.0f", entryRow, uidKey)
	assert.Equal(t, 16.0, uidKey)
	assert.LessOrEqual(t, entryRow, 120.0, "an entry's row holds its id in 16 bytes")

	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	want := map[string]string{}
	for _, id := range oddIDs {
		want[id] = putEntry(t, store, id, "Transaction:odd", at)
	}
	canonical := "LedgerEntry:0190abcd-0000-7000-8000-0000000000ff"
	want[canonical] = putEntry(t, store, canonical, "Transaction:odd", at)
	for range 40 { // more than a scan's first batch
		id := "LedgerEntry:" + uuid.NewString()
		want[id] = putEntry(t, store, id, "Transaction:odd", at)
	}
	require.NoError(t, c.QueryRow(ctx, `SELECT count(uid), count(id) FROM ledger_journal_entries`).Scan(&withUID, &withText))
	assert.Equal(t, engineEntries+1+40, withUID)
	assert.Equal(t, len(oddIDs), withText, "an id of another form keeps its text")
	for id, v := range want {
		var got []byte
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			var err error
			got, err = tx.Get("ledger_entries", id)
			return err
		}), id)
		assert.Equal(t, v, string(got), "Get %q", id)
		var scanned []string
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			return tx.Scan("ledger_entries", payments.ScanOptions{Prefix: id}, func(k string, v []byte) (bool, error) {
				if k == id {
					scanned = append(scanned, string(v))
				}
				return true, nil
			})
		}))
		assert.Equal(t, []string{v}, scanned, "Scan %q", id)
		var doc, entryID string
		require.NoError(t, c.QueryRow(ctx, `SELECT doc::text, (SELECT min(entry_id) FROM ledger_entries WHERE entry_id = $1) FROM ledger_journal WHERE id = $1`, id).Scan(&doc, &entryID))
		assert.Equal(t, v, doc, "the view's doc of %q", id)
		assert.Equal(t, id, entryID)
		err := store.Update(ctx, func(tx payments.Tx) error { return tx.Insert("ledger_entries", id, []byte(v)) })
		assert.ErrorIs(t, err, payments.ErrConflict, "a second entry %q", id)
	}
	// Ids in key order, whichever column keeps them.
	var keys []string
	require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
		return tx.Scan("ledger_entries", payments.ScanOptions{}, func(k string, _ []byte) (bool, error) {
			keys = append(keys, k)
			return true, nil
		})
	}))
	assert.IsIncreasing(t, keys)
	assert.Len(t, keys, engineEntries+len(want))
	// From after each key, in either direction, and from bounds no id has
	// (between the forms, past the UUIDs' digits).
	scan := func(after string, reverse bool) []string {
		var got []string
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			return tx.Scan("ledger_entries", payments.ScanOptions{After: after, Reverse: reverse}, func(k string, _ []byte) (bool, error) {
				got = append(got, k)
				return true, nil
			})
		}))
		return got
	}
	reversed := slices.Clone(keys)
	slices.Reverse(reversed)
	for i, k := range keys {
		assert.Equal(t, slices.Clip(append([]string(nil), keys[i+1:]...)), scan(k, false), "after %q", k)
		assert.Equal(t, append([]string(nil), reversed[len(keys)-i:]...), scan(k, true), "before %q", k)
	}
	for _, b := range []string{"A", "LedgerEntry", "LedgerEntry:", "LedgerEntry:0190abcd-0000-7000-8000-0000000000", "LedgerEntry:0190abcd-0000-7000-8000-00000000000g",
		"LedgerEntry:0190abcd-0000-7000-8000-0000000000ff~", "LedgerEntry:g", "LedgerEntry:0190abcd-", "LedgerEntry:0190abcdz", "LedgerEntry;", "ledgerentry", "~"} {
		var after, before []string
		for _, k := range keys {
			if k > b {
				after = append(after, k)
			} else {
				before = append(before, k)
			}
		}
		slices.Reverse(before)
		assert.Equal(t, after, scan(b, false), "after %q", b)
		assert.Equal(t, before, scan(b, true), "before %q", b)
	}
	// An Update that scanned the journal runs again when an entry enters
	// the range it read (written by another process meanwhile).
	other, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer other.Close()
	runs := 0
	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
		runs++
		n := 0
		if err := tx.Scan("ledger_entries", payments.ScanOptions{Prefix: "LedgerEntry:"}, func(string, []byte) (bool, error) {
			n++
			return true, nil
		}); err != nil {
			return err
		}
		if runs == 1 {
			id := "LedgerEntry:" + uuid.NewString()
			want[id] = putEntry(t, other, id, "Transaction:odd", at)
		}
		return tx.Put("bench_records", "scanned", []byte(strconv.Itoa(n)))
	}))
	assert.Equal(t, 2, runs, "the scan's range changed")
	eng := newEngine(t, store)
	listed := map[string]bool{}
	for p := (payments.ListParams{Limit: 7}); ; {
		page, err := eng.Ledger.Journal(ctx, "Transaction:odd", p)
		require.NoError(t, err)
		for _, e := range page.Data {
			listed[e.ID] = true
		}
		if !page.HasMore {
			break
		}
		p.Cursor = page.NextCursor
	}
	assert.Len(t, listed, len(want), "the record's journal lists every entry, in pages")

	for id := range want {
		require.NoError(t, store.Update(ctx, func(tx payments.Tx) error { return tx.Delete("ledger_entries", id) }))
	}
	var left, orphans int
	require.NoError(t, c.QueryRow(ctx, `SELECT (SELECT count(*) FROM ledger_journal WHERE reference = 'Transaction:odd'),
		(SELECT count(*) FROM ledger_postings p WHERE NOT EXISTS (SELECT FROM ledger_journal_entries j WHERE j.jid = p.jid))`).Scan(&left, &orphans))
	assert.Zero(t, left, "each deleted")
	assert.Zero(t, orphans, "with its postings")
	require.NoError(t, payments.CheckLedger(ctx, store))
	require.NoError(t, pgCheck(t, schema))
}

// TestJournal_ReadsByIDAreIndexProbes: every read of the journal by an
// entry's id (a Get, the commit's checks, a delete, the probe of the
// list of a record's entries, a scan from it and its check) reads the
// B-tree keeping the id, for an id
// the engine writes and for another, in a custom plan and in the generic
// plan a prepared statement settles on; a page of the list reads the
// index of references (sequential scans are ruled out so that a small
// table's plan shows what a large one's would).
func TestJournal_ReadsByIDAreIndexProbes(t *testing.T) {
	store, schema := openSchema(t)
	w := newWorld(t, store)
	c := sqlConn(t, schema)
	var id string
	var at time.Time
	require.NoError(t, c.QueryRow(ctx, `SELECT id, created_at FROM ledger_journal WHERE reference = $1 LIMIT 1`, w.completed).Scan(&id, &at))
	require.True(t, strings.HasPrefix(id, "LedgerEntry:"))
	odd := oddIDs[0]
	putEntry(t, store, odd, w.completed, at)
	_, err := c.Exec(ctx, "SET enable_seqscan = off")
	require.NoError(t, err)
	plans := 0
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		_, err := c.Exec(ctx, "SET plan_cache_mode = "+mode)
		require.NoError(t, err)
		for _, entry := range []string{id, odd} {
			for _, r := range pgstore.JournalReadsByID(entry, w.completed, at) {
				// A prepared statement, as the store's are: the generic
				// plan knows nothing of the id.
				_, err := c.Exec(ctx, "PREPARE read AS "+r.SQL)
				require.NoError(t, err, r.Name)
				var lits []string
				for _, a := range r.Args {
					lits = append(lits, sqlLiteral(t, a))
				}
				rows, err := c.Query(ctx, "EXPLAIN EXECUTE read("+strings.Join(lits, ", ")+")")
				require.NoError(t, err, r.Name)
				var plan []string
				for rows.Next() {
					var line string
					require.NoError(t, rows.Scan(&line))
					plan = append(plan, line)
				}
				require.NoError(t, rows.Err(), r.Name)
				_, err = c.Exec(ctx, "DEALLOCATE read")
				require.NoError(t, err)
				text := strings.Join(plan, "\n")
				msg := []any{"%s %s %s:\n%s", mode, entry, r.Name, text}
				assert.NotContains(t, text, "Seq Scan on ledger_journal_entries", msg...)
				switch {
				case r.Name == "list page":
					assert.Contains(t, text, "ledger_journal_entries_reference", msg...)
				case strings.HasPrefix(r.Name, "scan"):
					// The entries after it: those with a UUID and the others,
					// each from its B-tree in key order.
					assert.Contains(t, text, "ledger_journal_entries_uid ", msg...)
					assert.Contains(t, text, "ledger_journal_entries_id ", msg...)
				case r.Name == "get":
					// One B-tree: the id's form says which.
					if entry == odd {
						assert.Contains(t, text, "using ledger_journal_entries_id ", msg...)
					} else {
						assert.Contains(t, text, "using ledger_journal_entries_uid ", msg...)
					}
				case r.Name == "list probe":
					// By the id, or by the value in the key: either is
					// one entry's probe.
					assert.Regexp(t, "ledger_journal_entries_(uid|id|reference) ", text, msg...)
				case mode == "force_custom_plan" && entry == odd:
					// The planner may know the id has no UUID.
					assert.Contains(t, text, "ledger_journal_entries_id ", msg...)
				default:
					assert.Contains(t, text, "ledger_journal_entries_uid ", msg...)
					if mode == "force_generic_plan" {
						assert.Contains(t, text, "ledger_journal_entries_id ", msg...)
					}
				}
				plans++
			}
		}
	}
	assert.Equal(t, 2*2*7, plans)
}

// TestOpen_UpgradesJournalIDs: a journal written as versions 5 to 7 laid
// it out (each id's text in the primary key) is converted in place by
// migration 8: every entry reads back through the engine byte for byte as
// before, the views ledger_journal and ledger_entries show the same rows,
// the ledger sums to zero in every currency, and new entries follow.
func TestOpen_UpgradesJournalIDs(t *testing.T) {
	// The journal of a world with entries of every form, as this code
	// keeps it (the source of the rows written below).
	src, srcSchema := openSchema(t)
	newWorld(t, src)
	at := time.Date(2026, 5, 6, 7, 8, 9, 123456000, time.UTC)
	for _, id := range oddIDs {
		putEntry(t, src, id, "Transaction:odd", at)
	}
	kept := `{"postings":[{"account":"external:a","currency":"EUR","amount":-5},{"account":"external:b","currency":"EUR","amount":5}],"id":"E:kept","createdAt":"2026-01-02T03:04:05+01:00"}`
	require.NoError(t, src.Update(ctx, func(tx payments.Tx) error { return tx.Put("ledger_entries", "E:kept", []byte(kept)) }))
	want := map[string]string{}
	require.NoError(t, src.View(ctx, func(tx payments.Tx) error {
		return tx.Scan("ledger_entries", payments.ScanOptions{}, func(k string, v []byte) (bool, error) {
			want[k] = string(v)
			return true, nil
		})
	}))
	// (Balances are written below from the entries: Put moves none.)
	require.Len(t, want, len(oddIDs)+1+countRows(t, srcSchema, "ledger_journal_entries WHERE uid IS NOT NULL"))

	// The same rows written as version 7 keeps them.
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	require.NoError(t, pgstore.MigrateTo(ctx, dsn, schema, 7))
	c := sqlConn(t, schema)
	_, err := c.Exec(ctx, `INSERT INTO ledger_accounts (id, name, currency) SELECT id, name, currency FROM `+srcSchema+`.ledger_accounts;
		INSERT INTO ledger_journal_entries (jid, created_at, overdraft, id, reference, doc)
			SELECT jid, created_at, overdraft, coalesce('LedgerEntry:' || uid::text, id), reference, doc FROM `+srcSchema+`.ledger_journal_entries;
		INSERT INTO ledger_postings SELECT * FROM `+srcSchema+`.ledger_postings;
		INSERT INTO ledger_balances (account, currency, balance)
			SELECT account, currency, sum(amount) FROM `+srcSchema+`.ledger_entries GROUP BY account, currency;
		SELECT setval(pg_get_serial_sequence('ledger_journal_entries', 'jid'), (SELECT max(jid) FROM ledger_journal_entries))`)
	require.NoError(t, err)
	views := func() (journal, postings string) {
		t.Helper()
		require.NoError(t, c.QueryRow(ctx, `SELECT (SELECT json_agg(j ORDER BY id)::text FROM (SELECT id, reference, created_at, overdraft, doc::text FROM ledger_journal) j),
			(SELECT json_agg(e ORDER BY entry_id, seq)::text FROM ledger_entries e)`).Scan(&journal, &postings))
		return journal, postings
	}
	journalBefore, postingsBefore := views()
	require.Contains(t, journalBefore, "E:kept")

	store, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer store.Close()
	got := map[string]string{}
	require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
		return tx.Scan("ledger_entries", payments.ScanOptions{}, func(k string, v []byte) (bool, error) {
			got[k] = string(v)
			return true, nil
		})
	}))
	assert.Equal(t, want, got, "every entry reads back as written")
	for id, v := range want {
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			b, err := tx.Get("ledger_entries", id)
			assert.Equal(t, v, string(b), "Get %q", id)
			return err
		}))
	}
	journalAfter, postingsAfter := views()
	assert.Equal(t, journalBefore, journalAfter, "the view ledger_journal shows the same rows")
	assert.Equal(t, postingsBefore, postingsAfter, "the view ledger_entries shows the same rows")
	var withUID, withText int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(uid), count(id) FROM ledger_journal_entries`).Scan(&withUID, &withText))
	assert.Equal(t, len(want)-len(oddIDs)-1, withUID, "the engine's ids are UUIDs")
	assert.Equal(t, len(oddIDs)+1, withText, "the others keep their text")
	var unbalanced int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM (SELECT currency, sum(amount) FROM ledger_entries GROUP BY currency HAVING sum(amount) <> 0) x`).Scan(&unbalanced))
	assert.Zero(t, unbalanced, "every currency sums to zero")

	// And it goes on: new entries take new keys.
	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
		return payments.Post(tx, payments.LedgerEntry{ID: "LedgerEntry:0190abcd-0000-7000-8000-0000000000bb", Postings: []payments.Posting{
			{Account: "external:src", Currency: "USD", Amount: -1}, {Account: "external:new", Currency: "USD", Amount: 1}}})
	}))
	require.NoError(t, payments.CheckLedger(ctx, store))
	require.NoError(t, pgCheck(t, schema))
}

// sqlLiteral spells v, an argument of a statement, as an SQL literal.
func sqlLiteral(t *testing.T, v any) string {
	t.Helper()
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	switch v := v.(type) {
	case string:
		return quote(v)
	case []byte:
		return quote(`\x` + hex.EncodeToString(v))
	case []string:
		var q []string
		for _, s := range v {
			q = append(q, quote(s))
		}
		return "ARRAY[" + strings.Join(q, ", ") + "]::text[]"
	case time.Time:
		return quote(v.Format(time.RFC3339Nano)) + "::timestamptz"
	case [16]byte:
		return quote(uuid.UUID(v).String()) + "::uuid"
	case pgtype.UUID:
		return quote(uuid.UUID(v.Bytes).String()) + "::uuid"
	case int:
		return strconv.Itoa(v)
	}
	t.Fatalf("no literal of %T", v)
	return ""
}

// countRows counts the rows of from ("table WHERE ...") in schema.
func countRows(t *testing.T, schema, from string) int {
	t.Helper()
	var n int
	require.NoError(t, sqlConn(t, schema).QueryRow(ctx, "SELECT count(*) FROM "+from).Scan(&n))
	return n
}
