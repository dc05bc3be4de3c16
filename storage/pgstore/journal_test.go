package pgstore_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJournal_NarrowRows: the engine's ledger entries are narrow rows (one
// per entry, one per posting, accounts by key) with no copy of the entry
// beside them, and every entry reads back (Get, Scan, the ledger's
// journal, the view ledger_journal) as exactly the engine's encoding.
func TestJournal_NarrowRows(t *testing.T) {
	store, schema := openSchema(t)
	w := newWorld(t, store)
	c := sqlConn(t, schema)

	var entries, docs, postings, accounts int
	require.NoError(t, c.QueryRow(ctx, `SELECT (SELECT count(*) FROM ledger_journal_entries), (SELECT count(doc) FROM ledger_journal_entries),
		(SELECT count(*) FROM ledger_postings), (SELECT count(*) FROM ledger_accounts)`).Scan(&entries, &docs, &postings, &accounts))
	assert.GreaterOrEqual(t, entries, 3, "the funding and two payments")
	assert.Zero(t, docs, "no entry keeps its record beside its rows")
	assert.GreaterOrEqual(t, postings, 2*entries)
	var balances int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM ledger_balances`).Scan(&balances))
	assert.Equal(t, balances, accounts, "one ledger account per balance")
	var postingRow, entryRow float64
	require.NoError(t, c.QueryRow(ctx, `SELECT (SELECT avg(pg_column_size(p.*)) FROM ledger_postings p),
		(SELECT avg(pg_column_size(j.*)) FROM ledger_journal_entries j)`).Scan(&postingRow, &entryRow))
	t.Logf("a posting row: %.0f bytes, an entry's: %.0f", postingRow, entryRow)
	assert.LessOrEqual(t, postingRow, 48.0, "a posting is a narrow row")
	assert.LessOrEqual(t, entryRow, 160.0, "an entry's row holds no postings")

	// Every record reads back as the engine encodes it (LedgerEntry's
	// JSON), in a point read, a scan and the view.
	scanned := map[string][]byte{}
	require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
		return tx.Scan("ledger_entries", payments.ScanOptions{}, func(k string, v []byte) (bool, error) {
			scanned[k] = append([]byte{}, v...)
			return true, nil
		})
	}))
	require.Len(t, scanned, entries)
	for id, v := range scanned {
		var e payments.LedgerEntry
		require.NoError(t, json.Unmarshal(v, &e))
		enc, err := json.Marshal(e)
		require.NoError(t, err)
		assert.Equal(t, string(enc), string(v), "entry %s", id)
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			got, err := tx.Get("ledger_entries", id)
			assert.Equal(t, string(v), string(got))
			return err
		}))
		var doc string
		require.NoError(t, c.QueryRow(ctx, `SELECT doc::text FROM ledger_journal WHERE id = $1`, id).Scan(&doc))
		assert.Equal(t, string(v), doc, "the view's doc")
	}
	page, err := w.eng.Ledger.Journal(ctx, w.completed, payments.ListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, page.Data)
	for _, e := range page.Data {
		enc, err := json.Marshal(e)
		require.NoError(t, err)
		assert.Equal(t, string(scanned[e.ID]), string(enc), "the ledger's journal reads entry %s", e.ID)
	}

	// The README's journal of a transaction, named by the record's id,
	// reads the index of references (a small table would be scanned
	// anyway: scans are made dear).
	_, err = c.Exec(ctx, "SET enable_seqscan = off")
	require.NoError(t, err)
	var plan string
	require.NoError(t, c.QueryRow(ctx, `EXPLAIN (FORMAT JSON) SELECT created_at, account, currency, amount FROM ledger_entries
		WHERE reference = (SELECT id FROM transactions WHERE status = 'COMPLETED' ORDER BY created_at DESC LIMIT 1)
		ORDER BY entry_id, seq`).Scan(&plan))
	assert.Contains(t, plan, `"Index Name": "ledger_journal_entries_reference"`)

	require.NoError(t, payments.CheckLedger(ctx, store))
	require.NoError(t, pgCheck(t, schema))
}

// TestJournal_KeepsOtherEncodings: a journal record the rows do not spell
// back byte for byte (another member order, escapes, a time zone and
// nanoseconds: a sandbox import may write such) is read back exactly as
// written, while its postings are rows like any other; rewriting an entry
// replaces its postings (fewer, more) and deleting it removes them.
func TestJournal_KeepsOtherEncodings(t *testing.T) {
	store, schema := openSchema(t)
	c := sqlConn(t, schema)
	put := func(id, v string) {
		t.Helper()
		require.NoError(t, store.Update(ctx, func(tx payments.Tx) error { return tx.Put("ledger_entries", id, []byte(v)) }))
	}
	read := func(id string) string {
		t.Helper()
		var got []byte
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			v, err := tx.Get("ledger_entries", id)
			got = v
			return err
		}))
		var scanned []byte
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			return tx.Scan("ledger_entries", payments.ScanOptions{Prefix: id}, func(k string, v []byte) (bool, error) {
				if k == id {
					scanned = append([]byte{}, v...)
				}
				return true, nil
			})
		}))
		assert.Equal(t, string(got), string(scanned), "Get and Scan read %s alike", id)
		return string(got)
	}
	postings := func(id string) []string {
		t.Helper()
		rows, err := c.Query(ctx, `SELECT account || ' ' || currency || ' ' || amount FROM ledger_entries WHERE entry_id = $1 ORDER BY seq`, id)
		require.NoError(t, err)
		var out []string
		for rows.Next() {
			var s string
			require.NoError(t, rows.Scan(&s))
			out = append(out, s)
		}
		require.NoError(t, rows.Err())
		return out
	}

	odd := map[string]string{
		"E:order":  `{"postings":[{"account":"external:a","currency":"USD","amount":-5},{"account":"external:b","currency":"USD","amount":5}],"id":"E:order","createdAt":"2026-01-02T03:04:05Z"}`,
		"E:escape": `{"id":"E:escape","reference":"Q:\u003c1\u003e","postings":[{"account":"external:\u0026c","currency":"USD","amount":-7},{"account":"external:d","currency":"USD","amount":7}],"createdAt":"2026-01-02T03:04:05Z"}`,
		"E:zone":   `{"id":"E:zone","postings":[{"account":"external:e","currency":"USD","amount":-9},{"account":"external:f","currency":"USD","amount":9}],"createdAt":"2026-01-02T03:04:05.123456789+02:00","overdraft":true}`,
		"E:key":    `{"id":"E:other","postings":[{"account":"external:g","currency":"USD","amount":-1},{"account":"external:h","currency":"USD","amount":1}],"createdAt":"0001-01-01T00:00:00Z"}`,
	}
	for id, v := range odd {
		put(id, v)
	}
	for id, v := range odd {
		assert.Equal(t, v, read(id), "entry %s", id)
	}
	assert.Equal(t, []string{"external:&c USD -7", "external:d USD 7"}, postings("E:escape"))
	var ref string
	require.NoError(t, c.QueryRow(ctx, `SELECT reference FROM ledger_journal WHERE id = 'E:escape'`).Scan(&ref))
	assert.Equal(t, "Q:<1>", ref)

	// Rewritten in the engine's encoding: nothing is kept beside the
	// rows; with more postings, then fewer.
	entry := func(id string, at time.Time, amounts ...int64) string {
		e := payments.LedgerEntry{ID: id, Reference: "Transaction:x", CreatedAt: at}
		for i, a := range amounts {
			e.Postings = append(e.Postings, payments.Posting{Account: fmt.Sprintf("external:p%d", i), Currency: "EUR", Amount: a})
		}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		return string(b)
	}
	at := time.Date(2026, 3, 4, 5, 6, 7, 120_000_000, time.UTC)
	three := entry("E:zone", at, -3, 1, 2)
	put("E:zone", three)
	assert.Equal(t, three, read("E:zone"))
	assert.Equal(t, []string{"external:p0 EUR -3", "external:p1 EUR 1", "external:p2 EUR 2"}, postings("E:zone"))
	var docs int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(doc) FROM ledger_journal_entries WHERE id = 'E:zone'`).Scan(&docs))
	assert.Zero(t, docs, "an entry in the engine's encoding keeps no doc")
	two := entry("E:zone", at.Truncate(time.Second), -4, 4)
	put("E:zone", two)
	assert.Equal(t, two, read("E:zone"))
	assert.Equal(t, []string{"external:p0 EUR -4", "external:p1 EUR 4"}, postings("E:zone"))
	zero := entry("E:zero", time.Time{}, -2, 2)
	put("E:zero", zero)
	assert.Equal(t, zero, read("E:zero"))
	over, err := json.Marshal(payments.LedgerEntry{ID: "E:over", Overdraft: true, CreatedAt: at.Add(time.Microsecond),
		Postings: []payments.Posting{{Account: "external:o", Currency: "USD", Amount: -1}, {Account: "external:p", Currency: "USD", Amount: 1}}})
	require.NoError(t, err)
	put("E:over", string(over))
	assert.Equal(t, string(over), read("E:over"))
	require.NoError(t, c.QueryRow(ctx, `SELECT count(doc) FROM ledger_journal_entries WHERE id IN ('E:zero', 'E:over')`).Scan(&docs))
	assert.Zero(t, docs, "nor an entry created at no time, or overdrawing")

	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error { return tx.Delete("ledger_entries", "E:zone") }))
	assert.Empty(t, postings("E:zone"))
	require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
		_, err := tx.Get("ledger_entries", "E:zone")
		assert.ErrorIs(t, err, payments.ErrNotFound)
		return nil
	}))
	var orphans int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM ledger_postings p WHERE NOT EXISTS (SELECT FROM ledger_journal_entries j WHERE j.jid = p.jid)`).Scan(&orphans))
	assert.Zero(t, orphans, "no posting outlives its entry")
}

// TestJournal_NewAccountsFromSeveralProcesses: processes that post to
// ledger accounts none of them knew yet, all at once, each add the
// accounts once between them, and every entry commits.
func TestJournal_NewAccountsFromSeveralProcesses(t *testing.T) {
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	var stores []*pgstore.Store
	for range 3 {
		s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		stores = append(stores, s)
	}
	const each = 8
	var wg sync.WaitGroup
	for i, s := range stores {
		for j := range each {
			wg.Go(func() {
				err := s.Update(ctx, func(tx payments.Tx) error {
					return payments.Post(tx, payments.LedgerEntry{ID: fmt.Sprintf("E:%d-%d", i, j), Postings: []payments.Posting{
						{Account: "external:src", Currency: "USD", Amount: -10},
						{Account: fmt.Sprintf("acct:%d", j%4), Currency: "USD", Amount: 10},
					}})
				})
				assert.NoError(t, err)
			})
		}
	}
	wg.Wait()
	c := sqlConn(t, schema)
	var accounts, distinct, postings int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*), count(DISTINCT (name, currency)), (SELECT count(*) FROM ledger_postings) FROM ledger_accounts`).
		Scan(&accounts, &distinct, &postings))
	assert.Equal(t, 5, accounts, "external:src and four accounts")
	assert.Equal(t, accounts, distinct)
	assert.Equal(t, 2*each*len(stores), postings)
	for _, s := range stores {
		require.NoError(t, payments.CheckLedger(ctx, s))
	}
	require.NoError(t, pgCheck(t, schema))
}
