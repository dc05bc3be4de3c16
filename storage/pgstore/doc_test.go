package pgstore_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recording is a store that notes the last record the engine handed it at
// each key, as it handed it over, in the Updates that committed; and the
// tables the engine declared.
type recording struct {
	*pgstore.Store
	tables []engine.TableDef
	mu     sync.Mutex
	wrote  map[[2]string][]byte // nil: deleted
}

func (r *recording) DeclareTables(ctx context.Context, tables []engine.TableDef) error {
	r.tables = tables
	return r.Store.DeclareTables(ctx, tables)
}

func (r *recording) Update(ctx context.Context, fn func(payments.Tx) error) error {
	var mine map[[2]string][]byte
	err := r.Store.Update(ctx, func(tx payments.Tx) error {
		mine = map[[2]string][]byte{}
		return fn(recTx{tx.(fullTx), mine})
	})
	if err == nil {
		r.mu.Lock()
		for k, v := range mine {
			r.wrote[k] = v
		}
		r.mu.Unlock()
	}
	return err
}

// fullTx is the store's transaction: records and the ledger.
type fullTx interface {
	engine.Tx
	engine.LedgerTx
}

// recTx notes the records written through it.
type recTx struct {
	fullTx
	wrote map[[2]string][]byte
}

func (t recTx) Put(table, key string, v []byte) error {
	err := t.fullTx.Put(table, key, v)
	if err == nil {
		t.wrote[[2]string{table, key}] = slices.Clone(v)
	}
	return err
}

func (t recTx) Insert(table, key string, v []byte) error {
	err := t.fullTx.Insert(table, key, v)
	if err == nil {
		t.wrote[[2]string{table, key}] = slices.Clone(v)
	}
	return err
}

func (t recTx) Delete(table, key string) error {
	err := t.fullTx.Delete(table, key)
	if err == nil {
		t.wrote[[2]string{table, key}] = nil
	}
	return err
}

// TestTables_DocHoldsNoColumn: a row of a record table stores no field
// twice. For the records an engine writes (payments: quotes and
// transactions, customers, accounts), the member of every column that
// tells an absent member from a present one is 0 in doc wherever the
// column has a value, and every record reads back byte for byte as the
// engine wrote it: by Get, by Scan and in the sandbox's export.
func TestTables_DocHoldsNoColumn(t *testing.T) {
	store, schema := openSchema(t)
	rec := &recording{Store: store, wrote: map[[2]string][]byte{}}
	w := newWorld(t, rec)
	c := sqlConn(t, schema)
	require.NotEmpty(t, rec.tables)

	stripped := map[string]int{}
	for _, d := range rec.tables {
		if d.Rows == nil {
			continue
		}
		sql := d.Rows.Table
		if sql == "" {
			sql = d.Name
		}
		for _, col := range d.Rows.Columns {
			path := "{" + strings.ReplaceAll(col.Path, ".", ",") + "}"
			var rows, held, kept int
			require.NoError(t, c.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE doc #>> $1 = '0'),
				count(*) FILTER (WHERE doc #>> $1 IS DISTINCT FROM '0')
				FROM `+pgx.Identifier{sql}.Sanitize()+` WHERE `+pgx.Identifier{col.Name}.Sanitize()+` IS NOT NULL`, path).Scan(&rows, &held, &kept))
			if col.Absent != "" {
				continue // a default for absent members: doc tells absent from present
			}
			assert.Zero(t, kept, "%s.%s: a column's value is in doc too", sql, col.Name)
			stripped[sql] += held
		}
	}
	for _, table := range []string{"transactions", "quotes", "customers", "internal_account_records", "external_accounts"} {
		assert.Positive(t, stripped[table], "%s: members the columns hold", table)
	}

	// Every record reads back as written: by Get, by Scan, in the export.
	want := map[string]map[string][]byte{}
	for k, v := range rec.wrote {
		if v == nil {
			continue
		}
		if want[k[0]] == nil {
			want[k[0]] = map[string][]byte{}
		}
		want[k[0]][k[1]] = v
	}
	export, err := w.eng.Sandbox.Export(ctx)
	require.NoError(t, err)
	for _, d := range rec.tables {
		if d.Rows == nil {
			continue
		}
		require.NotEmpty(t, want[d.Name], d.Name)
		scanned := map[string][]byte{}
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			for key, v := range want[d.Name] {
				got, err := tx.Get(d.Name, key)
				require.NoError(t, err)
				assert.Equal(t, string(v), string(got), "Get %s %s", d.Name, key)
			}
			return tx.Scan(d.Name, payments.ScanOptions{}, func(key string, value []byte) (bool, error) {
				scanned[key] = slices.Clone(value)
				return true, nil
			})
		}))
		assert.Equal(t, stringsOf(want[d.Name]), stringsOf(scanned), "Scan %s", d.Name)
		exported := map[string][]byte{}
		for _, r := range export.Tables[d.Name] {
			exported[r.Key] = r.Value
		}
		assert.Equal(t, stringsOf(want[d.Name]), stringsOf(exported), "export of %s", d.Name)
	}
}

func stringsOf(m map[string][]byte) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// TestTables_DocSpellsBackTrickyMembers: records of a declared table with
// members of every column type, spelled as the engine spells them or not
// (escapes, unicode, <>&, numbers 0, 1.50 and 1e2, times with an offset
// or nanoseconds, absent and null members, a record whose member is 0,
// nested members, a member named twice), read back byte for byte by Get
// and Scan; a member spelled as its column's value is 0 in doc, any other
// stays as written.
func TestTables_DocSpellsBackTrickyMembers(t *testing.T) {
	store, schema := openSchema(t)
	require.NoError(t, store.DeclareTables(ctx, []engine.TableDef{{Name: "things", Rows: &engine.Rows{Columns: []engine.Column{
		engine.TextColumn("name", "name"),
		engine.TextColumn("city", "address.city"),
		engine.BigintColumn("n", "n"),
		engine.NumericColumn("amount", "amount"),
		engine.TimeColumn("at", "at"),
		engine.BoolColumn("ok", "ok"),
		{Name: "flag", Type: engine.ColBool, Path: "flag", Absent: "false"},
	}}}}))
	records := map[string]string{
		"a": `{"name":"plain","address":{"city":"Austin","zip":"78701"},"n":42,"amount":1.50,"at":"2026-01-02T03:04:05.123456Z","ok":true,"flag":true}`,
		"b": `{"name":"\u003cb\u003e \u0026 \"q\" \\ é 日本 \u2028","n":-7,"amount":1e2,"at":"2026-01-02T03:04:05+02:00","ok":false}`,
		"c": `{"name":"<b>","n":0,"amount":0,"at":"2026-01-02T03:04:05.123456789Z","ok":null,"address":{"city":0}}`,
		"d": `{"name":0,"n":"0","amount":-0.0,"at":0,"ok":0,"flag":0}`,
		"e": `{"name":"x","name":"y","address":{"city":"Paris"},"address":{"zip":"1"},"n":1,"n":2}`,
		"f": `{"name":0,"name":"last","amount":0.000,"at":"2026-01-02T03:04:05.1Z","extra":{"name":"inner"}}`,
		"g": `{ "name" : "spaced" , "n" : 9223372036854775807 , "amount" : 123456789012345678901234567890.0001 }`,
		"h": `{"name":"caf\u00e9","at":"0001-01-01T00:00:00Z","amount":-12.340}`,
		"i": `{}`,
	}
	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
		for k, v := range records {
			if err := tx.Put("things", k, []byte(v)); err != nil {
				return err
			}
		}
		return nil
	}))
	c := sqlConn(t, schema)
	docs := map[string]string{}
	rows, err := c.Query(ctx, "SELECT id, doc::text FROM things")
	require.NoError(t, err)
	for rows.Next() {
		var id, doc string
		require.NoError(t, rows.Scan(&id, &doc))
		docs[id] = doc
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, map[string]string{
		"a": `{"name":0,"address":{"city":0,"zip":"78701"},"n":0,"amount":0,"at":0,"ok":0,"flag":true}`,
		"b": `{"name":0,"n":0,"amount":1e2,"at":"2026-01-02T03:04:05+02:00","ok":0}`,
		"c": `{"name":"<b>","n":0,"amount":0,"at":"2026-01-02T03:04:05.123456789Z","ok":null,"address":{"city":0}}`,
		"d": `{"name":0,"n":"0","amount":-0.0,"at":0,"ok":0,"flag":0}`,
		"e": `{"name":"x","name":0,"address":{"city":0},"address":{"zip":"1"},"n":1,"n":0}`,
		"f": `{"name":0,"name":0,"amount":0,"at":0,"extra":{"name":"inner"}}`,
		"g": `{ "name" : 0 , "n" : 0 , "amount" : 0 }`,
		"h": `{"name":"caf\u00e9","at":0,"amount":0}`,
		"i": `{}`,
	}, docs, "the members the columns hold exactly are 0")

	for _, view := range []bool{false, true} {
		run := store.Update
		if view {
			run = store.View
		}
		scanned := map[string]string{}
		require.NoError(t, run(ctx, func(tx payments.Tx) error {
			for k, v := range records {
				got, err := tx.Get("things", k)
				require.NoError(t, err)
				assert.Equal(t, v, string(got), "Get %s", k)
			}
			return tx.Scan("things", payments.ScanOptions{}, func(key string, value []byte) (bool, error) {
				scanned[key] = string(value)
				return true, nil
			})
		}))
		assert.Equal(t, records, scanned, "Scan")
	}
}

// TestDeclareTables_StrippedColumnsChange: a declaration that no longer
// strips a member the rows hold as 0 in doc (a column no longer declared,
// one taking another member, one given a value for absent members) writes
// every row again, read as it was written, so that every record still
// reads back as the engine wrote it; the columns still declared keep their
// values, and a later start with the same declaration changes nothing.
func TestDeclareTables_StrippedColumnsChange(t *testing.T) {
	store, schema := openSchema(t)
	rec := &recording{Store: store, wrote: map[[2]string][]byte{}}
	w := newWorld(t, rec)
	c := sqlConn(t, schema)
	records := func() map[string]map[string]string {
		out := map[string]map[string]string{}
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			for _, table := range []string{"transactions", "quotes"} {
				out[table] = map[string]string{}
				if err := tx.Scan(table, payments.ScanOptions{}, func(key string, value []byte) (bool, error) {
					out[table][key] = string(value)
					return true, nil
				}); err != nil {
					return err
				}
			}
			return nil
		}))
		return out
	}
	want := records()
	require.NotEmpty(t, want["transactions"])
	require.NotEmpty(t, want["quotes"])
	var rates int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE doc->>'exchangeRate' = '0'`).Scan(&rates))
	require.Positive(t, rates, "the rates are stripped")

	changed := slices.Clone(rec.tables)
	for i := range changed {
		d := &changed[i]
		if d.Rows == nil || d.Name != "transactions" && d.Name != "quotes" {
			continue
		}
		rows := *d.Rows
		rows.Columns = nil
		for _, col := range d.Rows.Columns {
			switch {
			case col.Name == "exchange_rate":
				continue // no longer declared
			case d.Name == "transactions" && col.Name == "sent_currency":
				col.Path = "source.currency" // another member
			case d.Name == "quotes" && col.Name == "total_sending_amount":
				col.Absent = "0" // a value for absent members
			}
			rows.Columns = append(rows.Columns, col)
		}
		d.Rows = &rows
	}
	require.NoError(t, store.DeclareTables(ctx, changed))
	assert.Equal(t, want, records(), "every record reads as written")
	got, err := w.eng.Transactions.Get(ctx, w.completed)
	require.NoError(t, err)
	assert.Equal(t, "USD", got.SentAmount.Currency.Code)
	var held int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FILTER (WHERE doc->>'exchangeRate' = '0'),
		count(*) FILTER (WHERE doc->>'status' = '0') FROM transactions`).Scan(&rates, &held))
	assert.Zero(t, rates, "a member no column holds is in doc again")
	assert.Equal(t, len(want["transactions"]), held, "the other columns' members are not")

	// Once more with the same declaration: nothing changes; then back.
	require.NoError(t, store.DeclareTables(ctx, changed))
	assert.Equal(t, want, records())
	require.NoError(t, store.DeclareTables(ctx, rec.tables))
	assert.Equal(t, want, records())
}
