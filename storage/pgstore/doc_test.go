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
	"github.com/paygrid/payments/internal/pgtest"
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
// tells an absent member from a present one is absent from doc wherever
// the column has a value, and so is the record's id, which the row's key
// holds; every record reads back byte for byte as the engine wrote it: by
// Get, by Scan and in the sandbox's export.
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
			require.NoError(t, c.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE doc #> $1 IS NULL),
				count(*) FILTER (WHERE doc #> $1 IS NOT NULL)
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
		var rows, ids int
		require.NoError(t, c.QueryRow(ctx, `SELECT count(*), count(doc->'id') FROM `+pgx.Identifier{table}.Sanitize()).Scan(&rows, &ids))
		assert.Positive(t, rows, table)
		assert.Zero(t, ids, "%s: the id is in doc too", table)
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
// nested members, a member named twice, an id member that is the key as
// the engine spells it or not, a record whose first member is "~"), read back byte for byte by
// Get and Scan; a member spelled as its column's value is left out of
// doc, where "~" says, and so is an id member spelled as the key; any
// other member stays as written, and where leaving members out would not
// read back (a space beside one) they are 0.
func TestTables_DocSpellsBackTrickyMembers(t *testing.T) {
	store, schema := openSchema(t)
	require.NoError(t, store.DeclareTables(ctx, []engine.TableDef{{Name: "things", Rows: &engine.Rows{Columns: append(thingsColumns(),
		engine.Column{Name: "flag", Type: engine.ColBool, Path: "flag", Absent: "false"})}}}))
	records := map[string]string{
		"a":   `{"name":"plain","address":{"city":"Austin","zip":"78701"},"n":42,"amount":1.50,"at":"2026-01-02T03:04:05.123456Z","ok":true,"flag":true}`,
		"b":   `{"name":"\u003cb\u003e \u0026 \"q\" \\ é 日本 \u2028","n":-7,"amount":1e2,"at":"2026-01-02T03:04:05+02:00","ok":false}`,
		"c":   `{"name":"<b>","n":0,"amount":0,"at":"2026-01-02T03:04:05.123456789Z","ok":null,"address":{"city":0}}`,
		"d":   `{"name":0,"n":"0","amount":-0.0,"at":0,"ok":0,"flag":0}`,
		"e":   `{"name":"x","name":"y","address":{"city":"Paris"},"address":{"zip":"1"},"n":1,"n":2}`,
		"f":   `{"name":0,"name":"last","amount":0.000,"at":"2026-01-02T03:04:05.1Z","extra":{"name":"inner"}}`,
		"g":   `{ "name" : "spaced" , "n" : 9223372036854775807 , "amount" : 123456789012345678901234567890.0001 }`,
		"h":   `{"name":"caf\u00e9","at":"0001-01-01T00:00:00Z","amount":-12.340}`,
		"i":   `{}`,
		"j":   `{"id":"j","name":"x","n":3}`,
		"k":   `{"id":"other","name":"k"}`,
		"l":   `{"~":"x","name":"y"}`,
		"<m>": `{"id":"\u003cm\u003e","address":{"city":"Lyon"},"ok":true}`,
		"<n>": `{"id":"<n>","address":{"city":"Lyon"},"ok":true}`,
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
	docs := docsOf(t, c, "things")
	assert.Equal(t, map[string]string{
		"a":   `{"~":"b1c11d15e0f0g0","address":{"zip":"78701"},"flag":true}`,
		"b":   `{"~":"b1d0g45","amount":1e2,"at":"2026-01-02T03:04:05+02:00"}`,
		"c":   `{"~":"d14e0","name":"<b>","at":"2026-01-02T03:04:05.123456789Z","ok":null,"address":{"city":0}}`,
		"d":   `{"name":0,"n":"0","amount":-0.0,"at":0,"ok":0,"flag":0}`,
		"e":   `{"~":"b12c11d29","name":"x","address":{},"address":{"zip":"1"},"n":1}`,
		"f":   `{"~":"b10e0f0","name":0,"extra":{"name":"inner"}}`,
		"g":   `{ "name" : 0 , "n" : 0 , "amount" : 0 }`,
		"h":   `{"~":"f19e0","name":"caf\u00e9"}`,
		"i":   `{}`,
		"j":   `{"~":"a1b0d0"}`,
		"k":   `{"~":"b13","id":"other"}`,
		"l":   `{"~":"b8","~":"x"}`,
		"<m>": `{"~":"a1c11g1","address":{}}`,
		"<n>": `{"~":"c23g1","id":"<n>","address":{}}`,
	}, docs, "the members the columns hold exactly are left out, or 0 where a space is beside one")

	for _, view := range []bool{false, true} {
		run := store.Update
		if view {
			run = store.View
		}
		require.NoError(t, run(ctx, func(tx payments.Tx) error { return readsBack(t, tx, "things", records, "") }))
	}
}

// TestDeclareTables_StrippedColumnsChange: a declaration that no longer
// strips a member the rows' docs leave out (a column no longer declared,
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
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE exchange_rate IS NOT NULL AND doc->'exchangeRate' IS NULL`).Scan(&rates))
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
			case col.Name == "exchange_rate", d.Name == "transactions" && col.Name == "source_currency":
				continue // no longer declared
			case d.Name == "transactions" && col.Name == "sent_currency":
				col.Path, col.Object = "source.currency", "" // another member, naming no object
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
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FILTER (WHERE exchange_rate IS NOT NULL AND doc->'exchangeRate' IS NULL),
		count(*) FILTER (WHERE doc->'status' IS NULL) FROM transactions`).Scan(&rates, &held))
	assert.Zero(t, rates, "a member no column holds is in doc again")
	assert.Equal(t, len(want["transactions"]), held, "the other columns' members are not")

	// Once more with the same declaration: nothing changes; then back.
	require.NoError(t, store.DeclareTables(ctx, changed))
	assert.Equal(t, want, records())
	require.NoError(t, store.DeclareTables(ctx, rec.tables))
	assert.Equal(t, want, records())
}

// TestTables_DocFormsBefore: rows a store wrote before docs left members
// out read back unchanged, and a start over them keeps them so: docs
// whose stripped members are 0 (under columns marked as the store then
// marked them), and docs that are the record whole (the engine's
// transactions, quotes and customers, and records of every column type).
// A record written again leaves its members out.
func TestTables_DocFormsBefore(t *testing.T) {
	store, schema := openSchema(t)
	rec := &recording{Store: store, wrote: map[[2]string][]byte{}}
	w := newWorld(t, rec)
	c := sqlConn(t, schema)
	things := engine.TableDef{Name: "things", Rows: &engine.Rows{Columns: thingsColumns()}}
	require.NoError(t, store.DeclareTables(ctx, append(slices.Clone(rec.tables), things)))
	records := map[string]string{
		"a": `{"id":"a","name":"plain","address":{"city":"Austin","zip":"78701"},"n":42,"amount":1.50,"at":"2026-01-02T03:04:05.123456Z","ok":true}`,
		"b": `{"name":"\u003cb\u003e","n":-7,"amount":1e2,"at":"2026-01-02T03:04:05+02:00","ok":false}`,
		"c": `{"name":"<b>","n":0,"amount":0,"ok":null,"address":{"city":0}}`,
		"d": `{"name":"x","name":"y","address":{"city":"Paris"},"address":{"zip":"1"},"n":1,"n":2}`,
	}
	// As the store before wrote them: the members the columns hold 0.
	zeroed := map[string]string{
		"a": `{"id":"a","name":0,"address":{"city":0,"zip":"78701"},"n":0,"amount":0,"at":0,"ok":0}`,
		"b": `{"name":0,"n":0,"amount":1e2,"at":"2026-01-02T03:04:05+02:00","ok":0}`,
		"c": `{"name":"<b>","n":0,"amount":0,"ok":null,"address":{"city":0}}`,
		"d": `{"name":"x","name":0,"address":{"city":0},"address":{"zip":"1"},"n":1,"n":0}`,
	}
	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
		for k, v := range records {
			if err := tx.Put("things", k, []byte(v)); err != nil {
				return err
			}
		}
		return nil
	}))
	for k, doc := range zeroed {
		_, err := c.Exec(ctx, `UPDATE things SET doc = $1::json WHERE id = $2`, doc, k)
		require.NoError(t, err)
	}
	whole := map[string]int{}
	for k, v := range rec.wrote {
		if v == nil || k[0] != "transactions" && k[0] != "quotes" && k[0] != "customers" {
			continue
		}
		tag, err := c.Exec(ctx, `UPDATE `+pgx.Identifier{k[0]}.Sanitize()+` SET doc = $1::json WHERE id = $2`, string(v), k[1])
		require.NoError(t, err)
		whole[k[0]] += int(tag.RowsAffected())
	}
	for _, table := range []string{"transactions", "quotes", "customers"} {
		require.Positive(t, whole[table], table)
	}
	for _, col := range things.Rows.Columns {
		_, err := c.Exec(ctx, `COMMENT ON COLUMN things.`+col.Name+` IS 'the record''s member `+col.Path+`; doc holds 0 in its place'`)
		require.NoError(t, err)
	}
	readsBack := func(msg string) {
		t.Helper()
		want := map[string]map[string]string{"things": records}
		for k, v := range rec.wrote {
			if v != nil && whole[k[0]] > 0 {
				if want[k[0]] == nil {
					want[k[0]] = map[string]string{}
				}
				want[k[0]][k[1]] = string(v)
			}
		}
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
			for table, recs := range want {
				if err := readsBack(t, tx, table, recs, msg); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	readsBack("as written before")
	got, err := w.eng.Transactions.Get(ctx, w.completed)
	require.NoError(t, err)
	assert.Equal(t, w.completed, got.ID)
	assert.Equal(t, "USD", got.SentAmount.Currency.Code)

	// A start over them keeps them, and marks the columns as left out.
	require.NoError(t, store.DeclareTables(ctx, append(slices.Clone(rec.tables), things)))
	readsBack("after a start")
	var note string
	require.NoError(t, c.QueryRow(ctx, `SELECT col_description('things'::regclass, a.attnum) FROM pg_attribute a
		WHERE a.attrelid = 'things'::regclass AND a.attname = 'city'`).Scan(&note))
	assert.Equal(t, "the record's member address.city; doc leaves it out", note)
	var zeros string
	require.NoError(t, c.QueryRow(ctx, `SELECT doc::text FROM things WHERE id = 'a'`).Scan(&zeros))
	assert.Equal(t, zeroed["a"], zeros, "a start writes no row again")

	// Written again, a record leaves its members out.
	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
		return tx.Put("things", "a", []byte(records["a"]))
	}))
	var doc string
	require.NoError(t, c.QueryRow(ctx, `SELECT doc::text FROM things WHERE id = 'a'`).Scan(&doc))
	assert.Equal(t, `{"~":"a1b0c11d14e0f0g0","address":{"zip":"78701"}}`, doc)
	readsBack("written again")
}

// TestTables_DocLeavesOutTheID: a table whose every column has a value for
// absent members (none is left out of doc) still leaves the id member out
// of doc where it is the key, and reads every record back by Get and Scan.
func TestTables_DocLeavesOutTheID(t *testing.T) {
	store, schema := openSchema(t)
	require.NoError(t, store.DeclareTables(ctx, []engine.TableDef{{Name: "flags", Rows: &engine.Rows{Columns: []engine.Column{
		{Name: "flag", Type: engine.ColBool, Path: "flag", Absent: "false"},
	}}}}))
	records := map[string]string{"a": `{"id":"a","flag":true}`, "b": `{"id":"x","flag":false}`, "c": `{"flag":true}`}
	require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
		for k, v := range records {
			if err := tx.Put("flags", k, []byte(v)); err != nil {
				return err
			}
		}
		return nil
	}))
	var doc string
	require.NoError(t, sqlConn(t, schema).QueryRow(ctx, `SELECT doc::text FROM flags WHERE id = 'a'`).Scan(&doc))
	assert.Equal(t, `{"~":"a1","flag":true}`, doc)
	require.NoError(t, store.View(ctx, func(tx payments.Tx) error { return readsBack(t, tx, "flags", records, "") }))
}

// TestTables_DocKeepsObjectsOnce: the currency objects the currency
// columns name are kept once per table, column and code in
// payments_doc_objects, as first written and never changed, and a doc
// leaves one out where it is spelled as kept: once a process has kept a
// code's object, the quotes' and transactions' rows leave it out. Where
// the kept object is spelled otherwise than the engine spells it today
// (here transactions' sent currency USD, kept as "US Dollar"), the rows
// keep the engine's in doc, and a record spelled as kept reads back with
// the kept spelling; every record reads back byte for byte.
func TestTables_DocKeepsObjectsOnce(t *testing.T) {
	store, schema := openSchema(t)
	c := sqlConn(t, schema)
	const usDollar = `{"code":"USD","name":"US Dollar","symbol":"$","decimals":2}`
	_, err := c.Exec(ctx, `INSERT INTO payments_doc_objects (tbl, col, val, obj) VALUES ('transactions', 'sent_currency', 'USD', $1)`, usDollar)
	require.NoError(t, err)
	rec := &recording{Store: store, wrote: map[[2]string][]byte{}}
	w := newWorld(t, rec)
	for range 3 {
		_, err := w.eng.Quotes.Create(ctx, transfer(w.payer, w.payee, 7, true))
		require.NoError(t, err)
	}

	kept := pairs(t, c, `SELECT tbl || '.' || col || '.' || val, obj FROM payments_doc_objects`)
	usd := `{"code":"USD","name":"United States Dollar","symbol":"$","decimals":2}`
	assert.Equal(t, usDollar, kept["transactions.sent_currency.USD"], "never changed")
	assert.Equal(t, usd, kept["transactions.received_currency.USD"])
	assert.Equal(t, usd, kept["quotes.sending_currency.USD"])
	assert.Equal(t, usd, kept["quotes.receiving_currency.USD"])
	assert.Contains(t, kept["quotes.receiving_currency.EUR"], `{"code":"EUR",`)

	var sentKept, receivedOut, sendingOut, all int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FILTER (WHERE sent_currency = 'USD' AND doc #> '{sentAmount,currency}' IS NOT NULL),
		count(*) FILTER (WHERE received_currency = 'USD' AND doc #> '{receivedAmount,currency}' IS NULL),
		(SELECT count(*) FILTER (WHERE doc->'sendingCurrency' IS NULL) FROM quotes),
		count(*) FILTER (WHERE sent_currency = 'USD') FROM transactions`).Scan(&sentKept, &receivedOut, &sendingOut, &all))
	assert.Equal(t, all, sentKept, "an object spelled otherwise than kept stays in doc")
	assert.Positive(t, receivedOut, "objects spelled as kept are left out")
	assert.Positive(t, sendingOut, "objects spelled as kept are left out")

	// A record spelled as kept leaves the object out and reads back so.
	old := string(rec.wrote[[2]string{"transactions", w.completed}])
	spelled := strings.Replace(old, `"currency":`+usd, `"currency":`+usDollar, 1)
	require.NotEqual(t, old, spelled)
	require.NoError(t, rec.Update(ctx, func(tx payments.Tx) error {
		return tx.Put("transactions", w.completed, []byte(spelled))
	}))
	var out bool
	require.NoError(t, c.QueryRow(ctx, `SELECT doc #> '{sentAmount,currency}' IS NULL FROM transactions WHERE id = $1`, w.completed).Scan(&out))
	assert.True(t, out, "the object spelled as kept is left out")

	for _, table := range []string{"transactions", "quotes"} {
		want := map[string]string{}
		for k, v := range rec.wrote {
			if k[0] == table && v != nil {
				want[k[1]] = string(v)
			}
		}
		require.NoError(t, store.View(ctx, func(tx payments.Tx) error { return readsBack(t, tx, table, want, "") }))
	}
	got, err := w.eng.Transactions.Get(ctx, w.completed)
	require.NoError(t, err)
	assert.Equal(t, "US Dollar", got.SentAmount.Currency.Name)
}

// TestTables_DocObjectsRace: two processes (stores) on one database that
// first see one value's object spelled each its own way both keep the one
// stored first, never changed: the other's rows keep their spelling in
// doc, the rows spelled as kept leave it out, and every record reads back
// byte for byte from both. No declaration may name the objects' table.
func TestTables_DocObjectsRace(t *testing.T) {
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	things := []engine.TableDef{{Name: "things", Rows: &engine.Rows{Columns: []engine.Column{
		engine.TextColumn("cur", "money.cur.code").Names("money.cur"),
	}}}}
	var stores []*pgstore.Store
	for range 2 {
		s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		require.NoError(t, s.DeclareTables(ctx, things))
		stores = append(stores, s)
	}
	require.Error(t, stores[0].DeclareTables(ctx, []engine.TableDef{{Name: "payments_doc_objects", Rows: &engine.Rows{}}}))
	const first, second = `{"code":"ABC","name":"First"}`, `{"code":"ABC","name":"Second"}`
	record := func(obj string) string { return `{"money":{"amount":1,"cur":` + obj + `},"note":"x"}` }
	records := map[string]string{}
	put := func(s *pgstore.Store, key, obj string) {
		records[key] = record(obj)
		require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Put("things", key, []byte(records[key])) }))
	}
	put(stores[0], "a1", first)  // kept after this commit
	put(stores[1], "b1", second) // too late: learns first
	put(stores[1], "b2", second)
	put(stores[1], "b3", first)
	put(stores[0], "a2", first)
	put(stores[0], "a3", second)

	c := sqlConn(t, schema)
	var kept string
	require.NoError(t, c.QueryRow(ctx, `SELECT obj FROM payments_doc_objects WHERE tbl = 'things' AND col = 'cur' AND val = 'ABC'`).Scan(&kept))
	assert.Equal(t, first, kept)
	docs := docsOf(t, c, "things")
	assert.Equal(t, map[string]string{
		// The first seen keeps its object in doc (its code in the column).
		"a1": `{"~":"b28","money":{"amount":1,"cur":{"name":"First"}},"note":"x"}`,
		"b1": `{"~":"b28","money":{"amount":1,"cur":{"name":"Second"}},"note":"x"}`,
		"b2": `{"~":"b28","money":{"amount":1,"cur":{"name":"Second"}},"note":"x"}`,
		"b3": `{"~":"*b20","money":{"amount":1},"note":"x"}`,
		"a2": `{"~":"*b20","money":{"amount":1},"note":"x"}`,
		"a3": `{"~":"b28","money":{"amount":1,"cur":{"name":"Second"}},"note":"x"}`,
	}, docs)
	for _, s := range stores {
		require.NoError(t, s.View(ctx, func(tx payments.Tx) error { return readsBack(t, tx, "things", records, "") }))
	}
}

// readsBack checks in tx that each of records (key: record) of table reads
// back byte for byte by Get, and that a Scan of the table finds them all
// and no other; msg says which reading it is.
func readsBack(t *testing.T, tx payments.Tx, table string, records map[string]string, msg string) error {
	t.Helper()
	for k, v := range records {
		got, err := tx.Get(table, k)
		require.NoError(t, err)
		assert.Equal(t, v, string(got), "%s: Get %s %s", msg, table, k)
	}
	scanned := map[string]string{}
	if err := tx.Scan(table, payments.ScanOptions{}, func(key string, value []byte) (bool, error) {
		scanned[key] = string(value)
		return true, nil
	}); err != nil {
		return err
	}
	assert.Equal(t, records, scanned, "%s: Scan %s", msg, table)
	return nil
}

// docsOf returns the doc of every row of table, by id, as stored.
func docsOf(t *testing.T, c *pgx.Conn, table string) map[string]string {
	return pairs(t, c, "SELECT id, doc::text FROM "+table)
}

// pairs returns the rows of query, two text columns, as a map of the
// first to the second.
func pairs(t *testing.T, c *pgx.Conn, query string) map[string]string {
	t.Helper()
	out := map[string]string{}
	rows, err := c.Query(ctx, query)
	require.NoError(t, err)
	for rows.Next() {
		var k, v string
		require.NoError(t, rows.Scan(&k, &v))
		out[k] = v
	}
	require.NoError(t, rows.Err())
	return out
}

// thingsColumns are the columns of the tests' table "things", one of each
// type.
func thingsColumns() []engine.Column {
	return []engine.Column{
		engine.TextColumn("name", "name"),
		engine.TextColumn("city", "address.city"),
		engine.BigintColumn("n", "n"),
		engine.NumericColumn("amount", "amount"),
		engine.TimeColumn("at", "at"),
		engine.BoolColumn("ok", "ok"),
	}
}
