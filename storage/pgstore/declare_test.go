package pgstore_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// declaring is a store that notes the tables the engine declares to it,
// and hands them on when it lays tables out by them.
type declaring struct {
	payments.Store
	tables *[]engine.TableDef
	// before leaves out of what the store is given the columns it names
	// ("table.column"): the store is written as by a version that did not
	// declare them yet.
	before []string
}

func (d declaring) DeclareTables(ctx context.Context, tables []engine.TableDef) error {
	*d.tables = tables
	if td, ok := d.Store.(engine.TableDeclarer); ok {
		return td.DeclareTables(ctx, withoutColumns(tables, d.before))
	}
	return nil
}

// withoutColumns returns tables without the columns names names
// ("table.column").
func withoutColumns(tables []engine.TableDef, names []string) []engine.TableDef {
	if len(names) == 0 {
		return tables
	}
	return editRows(tables, func(table string, rows *engine.Rows) {
		rows.Columns = slices.DeleteFunc(slices.Clone(rows.Columns), func(c engine.Column) bool {
			return slices.Contains(names, table+"."+c.Name)
		})
	})
}

// editRows returns a copy of tables with each table's rows as edit leaves
// a copy of them (the tables themselves are not changed).
func editRows(tables []engine.TableDef, edit func(table string, rows *engine.Rows)) []engine.TableDef {
	out := slices.Clone(tables)
	for i := range out {
		d := &out[i]
		if d.Rows == nil {
			continue
		}
		rows := *d.Rows
		edit(d.Name, &rows)
		d.Rows = &rows
	}
	return out
}

// holding keeps webhook events in the outbox (the notifier holds the first
// one until the engine closes), so that neither engine changes it.
func holding(c *payments.Config) {
	c.Notifier = payments.NotifierFunc(func(ctx context.Context, _ payments.Event) error {
		<-ctx.Done()
		return ctx.Err()
	})
}

// declaredWorld is a world on memstore with the tables its engine
// declared.
func declaredWorld(t *testing.T) (*world, []engine.TableDef) {
	t.Helper()
	var tables []engine.TableDef
	w := newWorld(t, declaring{memstore.New(), &tables, nil}, holding)
	require.NotEmpty(t, tables)
	return w, tables
}

// schemaShape describes every table, view and index of schema: columns
// with their types, collations and nullability, index and view
// definitions; the schema's name is left out.
func schemaShape(t *testing.T, schema string) []string {
	t.Helper()
	c := sqlConn(t, schema)
	var out []string
	rows, err := c.Query(ctx, `SELECT c.relname::text, c.relkind::text, a.attname::text, format_type(a.atttypid, a.atttypmod),
			coalesce(co.collname::text, ''), a.attnotnull
		FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 100
		WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'v')
		ORDER BY c.relname, a.attnum`, schema)
	require.NoError(t, err)
	for rows.Next() {
		var rel, kind, name, typ, coll string
		var notNull bool
		require.NoError(t, rows.Scan(&rel, &kind, &name, &typ, &coll, &notNull))
		out = append(out, fmt.Sprintf("%s (%s): %s %s %s %v", rel, kind, name, typ, coll, notNull))
	}
	require.NoError(t, rows.Err())
	rows, err = c.Query(ctx, `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`, schema)
	require.NoError(t, err)
	for rows.Next() {
		var def string
		require.NoError(t, rows.Scan(&def))
		out = append(out, strings.ReplaceAll(def, schema+".", ""))
	}
	require.NoError(t, rows.Err())
	rows, err = c.Query(ctx, `SELECT viewname::text, pg_get_viewdef(format('%I.%I', schemaname, viewname)::regclass)
		FROM pg_views WHERE schemaname = $1 ORDER BY viewname`, schema)
	require.NoError(t, err)
	for rows.Next() {
		var name, def string
		require.NoError(t, rows.Scan(&name, &def))
		out = append(out, name+": "+strings.ReplaceAll(def, schema+".", ""))
	}
	require.NoError(t, rows.Err())
	return out
}

// lists returns the first pages of the engine's lists, encoded.
func lists(t *testing.T, eng *payments.Engine) map[string]string {
	t.Helper()
	out := map[string]string{}
	enc := func(name string, v any, err error) {
		require.NoError(t, err, name)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		out[name] = string(b)
	}
	p := payments.ListParams{Limit: 100}
	cs, err := eng.Customers.List(ctx, payments.CustomerFilter{}, p)
	enc("customers", cs, err)
	ia, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{}, payments.CustomerScope, p)
	enc("internal accounts", ia, err)
	ea, err := eng.Accounts.ListExternal(ctx, payments.ExternalAccountFilter{}, payments.CustomerScope, p)
	enc("external accounts", ea, err)
	qs, err := eng.Quotes.List(ctx, payments.QuoteFilter{}, p)
	enc("quotes", qs, err)
	ts, err := eng.Transactions.List(ctx, payments.TransactionFilter{}, p)
	enc("transactions", ts, err)
	// Each filter, and two at once (the second probed entry by entry),
	// with values of the records listed, and in pages of two.
	require.NotEmpty(t, ts.Data)
	require.NotEmpty(t, qs.Data)
	x := ts.Data[len(ts.Data)-1]
	filters := map[string]payments.TransactionFilter{
		"by customer":          {CustomerID: x.CustomerID},
		"by platform id":       {PlatformCustomerID: x.PlatformCustomerID},
		"by status":            {Status: x.Status},
		"by type":              {Type: x.Type},
		"by status and type":   {Status: x.Status, Type: x.Type},
		"by customer, FAILED":  {CustomerID: x.CustomerID, Status: payments.TransactionStatus("FAILED")},
		"by account":           {AccountIdentifier: x.Destination.AccountID},
		"by receiving account": {ReceiverAccountIdentifier: x.Destination.AccountID},
		"by reference":         {Reference: x.QuoteID},
	}
	if x.Source.AccountID != "" {
		filters["by account"] = payments.TransactionFilter{AccountIdentifier: x.Source.AccountID}
	}
	for name, f := range filters {
		page, err := eng.Transactions.List(ctx, f, payments.ListParams{Limit: 2})
		enc("transactions "+name, page, err)
		if page.NextCursor != "" {
			next, err := eng.Transactions.List(ctx, f, payments.ListParams{Limit: 2, Cursor: page.NextCursor})
			enc("transactions "+name+", page 2", next, err)
		}
	}
	mine, err := eng.Quotes.List(ctx, payments.QuoteFilter{CustomerID: x.CustomerID}, p)
	enc("quotes by customer", mine, err)
	return out
}

// TestOpen_KeepsReleasedTables: a store written by the released code (its
// migrations up to version 4, which created the area tables in SQL, and its
// records in those tables) opened by this code keeps its tables as they
// are and every record: the engine reads the state it had and answers the
// same lists, and what was declared since (columns, the lists' indexes) is
// added. A fresh store is built from the declarations into the same shape
// (up to the order of columns): the same tables, columns, types,
// collations, indexes and view.
func TestOpen_KeepsReleasedTables(t *testing.T) {
	w, tables := declaredWorld(t)
	want, err := w.eng.Sandbox.Export(ctx)
	require.NoError(t, err)
	wantLists := lists(t, w.eng)

	// The store as the released code left it: the records written at
	// version 2 into payments_kv, then migrations 3 and 4 as released.
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	require.NoError(t, pgstore.MigrateReleased(ctx, dsn, schema, 2, tables))
	c := sqlConn(t, schema)
	for table, recs := range want.Tables {
		for _, r := range recs {
			v := []byte(r.Value)
			if r.Base64 != "" {
				v, err = base64.StdEncoding.DecodeString(r.Base64)
				require.NoError(t, err)
			}
			_, err := c.Exec(ctx, "INSERT INTO payments_kv (tbl, k, v) VALUES ($1, $2, $3)", table, []byte(r.Key), append([]byte{}, v...))
			require.NoError(t, err)
		}
	}
	// The entries of the lists now answered from the rows, as the
	// released code kept them in payments_kv (the export has no index:
	// the engine builds the others when it opens the store).
	for _, table := range servedLists(tables) {
		require.NoError(t, w.store.View(ctx, func(tx payments.Tx) error {
			return tx.Scan(table, payments.ScanOptions{}, func(k string, v []byte) (bool, error) {
				_, err := c.Exec(ctx, "INSERT INTO payments_kv (tbl, k, v) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", table, []byte(k), append([]byte{}, v...))
				return err == nil, err
			})
		}))
	}
	require.NoError(t, pgstore.MigrateReleased(ctx, dsn, schema, 4, tables))
	var inTables int
	require.NoError(t, c.QueryRow(ctx, "SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM transactions)").Scan(&inTables))
	require.Equal(t, len(want.Tables["customers"])+len(want.Tables["transactions"]), inTables, "the released code's rows are in place")
	released := schemaShape(t, schema)
	require.Positive(t, listEntriesStored(t, c, tables), "the released store keeps its lists' entries in payments_kv")

	var entries, postings int
	require.NoError(t, c.QueryRow(ctx, "SELECT (SELECT count(*) FROM ledger_journal), (SELECT count(*) FROM ledger_entries)").Scan(&entries, &postings))
	require.Equal(t, len(want.Tables["ledger_entries"]), entries, "the released journal is in place")

	s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer s.Close()
	eng := newEngine(t, s, holding)
	upgraded := schemaShape(t, schema)
	for _, line := range withoutJournal(released) {
		assert.Contains(t, upgraded, line, "the released tables are kept as they are")
	}
	var narrow, docs, oldTables int
	require.NoError(t, c.QueryRow(ctx, `SELECT (SELECT count(*) FROM ledger_entries), (SELECT count(doc) FROM ledger_journal_entries),
		(SELECT count(*) FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname LIKE '%_v4%')`).Scan(&narrow, &docs, &oldTables))
	assert.Equal(t, postings, narrow, "every posting moved into the journal's narrow rows")
	assert.Zero(t, docs, "no entry the engine wrote keeps its record beside its rows")
	assert.Zero(t, oldTables, "the released journal's tables are gone")
	assert.Zero(t, listEntriesStored(t, c, tables), "the lists answered from the rows keep no entries")
	got, err := eng.Sandbox.Export(ctx)
	require.NoError(t, err)
	assert.Equal(t, want.Tables, got.Tables, "every record is read as it was")
	assert.Equal(t, wantLists, lists(t, eng), "the lists answer the same")
	require.NoError(t, payments.CheckLedger(ctx, s))
	var balance int64
	require.NoError(t, c.QueryRow(ctx, "SELECT balance FROM internal_accounts WHERE id = $1", w.payer).Scan(&balance))
	assert.Equal(t, w.funded-w.totalMoved, balance)
	_, err = eng.Quotes.Execute(ctx, w.pending)
	require.NoError(t, err, "and it goes on")
	require.NoError(t, pgCheck(t, schema))

	// A fresh store, built from the declarations.
	fresh, freshSchema := openSchema(t)
	newEngine(t, fresh)
	built := schemaShape(t, freshSchema)
	for _, line := range withoutJournal(released) {
		assert.Contains(t, built, line, "a fresh store has the released tables")
	}
	// Columns declared since the release follow doc in the upgraded
	// tables: the shapes are the same up to the columns' order.
	slices.Sort(upgraded)
	slices.Sort(built)
	assert.Equal(t, upgraded, built, "a fresh store has the upgraded one's tables, columns, indexes and view")
}

// withoutJournal leaves out of a schema's shape the journal's tables,
// indexes and views, which migration 5 changes.
func withoutJournal(shape []string) []string {
	var out []string
	for _, s := range shape {
		if !strings.Contains(s, "ledger_journal") && !strings.Contains(s, "ledger_entries") &&
			!strings.Contains(s, "ledger_postings") && !strings.Contains(s, "ledger_accounts") {
			out = append(out, s)
		}
	}
	return out
}

// TestDeclareTables_AddsColumns: a column declared later is added to its
// table and filled from every row's record, the view of balances shows a
// column added to its table, a new index is built, and the store's writes
// fill the new column from then on.
func TestDeclareTables_AddsColumns(t *testing.T) {
	store, schema := openSchema(t)
	var tables []engine.TableDef
	w := newWorld(t, declaring{store, &tables, []string{"transactions.source_currency"}})
	c := sqlConn(t, schema)

	later := editRows(tables, func(table string, rows *engine.Rows) {
		switch table {
		case "transactions":
			rows.Indexes = append(slices.Clone(rows.Indexes), []string{"source_currency", "created_at"})
		case "internal_accounts":
			rows.Columns = append(slices.Clone(rows.Columns), engine.TextColumn("nickname", "nickname"))
		}
	})
	require.NoError(t, store.DeclareTables(ctx, later))
	var rows, filled int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*), count(source_currency) FROM transactions").Scan(&rows, &filled))
	assert.Positive(t, rows)
	assert.Equal(t, rows, filled, "every row filled from its record")
	var mismatched int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE source_currency IS DISTINCT FROM doc->'source'->>'currency'").Scan(&mismatched))
	assert.Zero(t, mismatched)
	var kept int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE received_currency IS NOT NULL").Scan(&kept))
	assert.Equal(t, rows, kept, "the other columns keep their values")
	var currency string
	var nickname *string
	var balance int64
	require.NoError(t, c.QueryRow(ctx, "SELECT currency, balance, nickname FROM internal_accounts WHERE id = $1", w.payer).Scan(&currency, &balance, &nickname))
	assert.Equal(t, "USD", currency)
	assert.Equal(t, w.funded-w.totalMoved, balance)
	assert.Nil(t, nickname, "a member the records lack")
	var ix int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM pg_indexes WHERE schemaname = $1 AND indexname = 'transactions_source_currency_created_at'", schema).Scan(&ix))
	assert.Equal(t, 1, ix)

	q, err := w.eng.Quotes.Create(ctx, transfer(w.payer, w.payee, 7, true))
	require.NoError(t, err)
	require.NoError(t, c.QueryRow(ctx, "SELECT source_currency FROM transactions WHERE id = $1", q.TransactionID).Scan(&currency))
	assert.Equal(t, "USD", currency, "the store's writes fill the new column")

	// Declaring the same again builds nothing.
	before := schemaShape(t, schema)
	require.NoError(t, store.DeclareTables(ctx, later))
	assert.Equal(t, before, schemaShape(t, schema))
}

// TestDeclareTables_RefusesChangedType: a column whose declared type is not
// the type it has is an error naming it (the store does not convert it), as
// are two columns taken from one member.
func TestDeclareTables_RefusesChangedType(t *testing.T) {
	store, _ := openSchema(t)
	var tables []engine.TableDef
	newEngine(t, declaring{store, &tables, nil})
	changed := slices.Clone(tables)
	for i := range changed {
		if changed[i].Name == "transactions" {
			rows := *changed[i].Rows
			rows.Columns = slices.Clone(rows.Columns)
			for j := range rows.Columns {
				if rows.Columns[j].Name == "status" {
					rows.Columns[j].Type = engine.ColBigint
				}
			}
			changed[i].Rows = &rows
		}
	}
	err := store.DeclareTables(ctx, changed)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "column status is text, declared bigint")

	// Nor does it take two columns from one member.
	twice := slices.Clone(tables)
	for i := range twice {
		if twice[i].Name == "transactions" {
			rows := *twice[i].Rows
			rows.Columns = append(slices.Clone(rows.Columns), engine.TextColumn("state", "status"))
			twice[i].Rows = &rows
		}
	}
	err = store.DeclareTables(ctx, twice)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "columns status and state take the same member")
}

// TestDeclareTables_ConcurrentStarts: engines starting together on a new
// schema build its tables once, each waiting for the one that builds.
func TestDeclareTables_ConcurrentStarts(t *testing.T) {
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	var stores []*pgstore.Store
	for range 4 {
		s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		stores = append(stores, s)
	}
	var wg sync.WaitGroup
	for _, s := range stores {
		wg.Go(func() {
			eng, err := payments.New(payments.Config{Store: s, Sandbox: true})
			if assert.NoError(t, err) {
				_ = eng.Close()
			}
		})
	}
	wg.Wait()
	var n int
	require.NoError(t, sqlConn(t, schema).QueryRow(ctx, "SELECT count(*) FROM pg_views WHERE schemaname = $1 AND viewname <> ALL($2)",
		schema, []string{"ledger_journal", "ledger_entries"}).Scan(&n)) // the journal's views are the migrations'
	assert.Equal(t, 1, n, "the view of balances")
}
