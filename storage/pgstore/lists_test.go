package pgstore_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/ixkey"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclare_ListsReadColumnsVerbatim: every index a table's rows declare
// in Lists holds, for the records an engine writes, exactly the entries its
// columns give: each non-empty value of a listed column (or "" for the
// index of every record), then the creation time and the key, in the
// index's key order. This is what lets a relational store answer such a
// list from the rows; an index whose values are computed is declared Kept
// instead, and declaring it in Lists fails here. The store writes the
// entries into payments_kv as well for the test (KeepListEntries), which
// it otherwise never does.
func TestDeclare_ListsReadColumnsVerbatim(t *testing.T) {
	_, tables := declaredWorld(t)
	store, schema := openSchema(t)
	store.KeepListEntries()
	newWorld(t, store, holding)
	c := sqlConn(t, schema)
	checked := 0
	for _, l := range servedIndexes(store, tables) {
		ixTable, cols := l.ixTable, l.cols
		stored := storedEntries(t, c, store, ixTable)
		sqlTable := pgx.Identifier{l.table}.Sanitize()
		created := pgx.Identifier{l.created}.Sanitize()
		var given []string
		read := func(valueSQL string) {
			rows, err := c.Query(ctx, "SELECT "+valueSQL+", "+created+", id FROM "+sqlTable)
			require.NoError(t, err)
			for rows.Next() {
				var v *string
				var at time.Time
				var id string
				require.NoError(t, rows.Scan(&v, &at, &id))
				if v == nil || (*v == "" && valueSQL != "''") {
					continue
				}
				k := engine.EscapeValue(*v) + ixkey.SortSuffix(at, id)
				if !slices.Contains(given, k) {
					given = append(given, k)
				}
			}
			require.NoError(t, rows.Err())
		}
		if len(cols) == 0 {
			read("''")
		}
		for _, col := range cols {
			read(pgx.Identifier{col}.Sanitize())
		}
		slices.Sort(given)
		require.NotEmpty(t, stored, "%s: the world writes entries", ixTable)
		assert.Equal(t, stored, given, "%s: the entries are the columns %s verbatim", ixTable, strings.Join(cols, ", "))
		checked++
	}
	assert.GreaterOrEqual(t, checked, 11, "the lists of customers, accounts, quotes, transactions and the journal are checked")
}

// TestDeclare_ListPagesAreIndexScans: a page of every declared list, in
// either direction and after a cursor's (created_at, id), is read from a
// B-tree in its order: the plan has no sort of the table, whatever the
// table's size, only the incremental sort by id of the rows of one
// creation time (sequential scans are ruled out so that a small table's
// plan shows what a large one's would, and so are bitmap scans, which
// lose the order, and full sorts, which a small table's plan would
// rather do and which an index in the list's order spares).
func TestDeclare_ListPagesAreIndexScans(t *testing.T) {
	_, tables := declaredWorld(t)
	store, schema := openSchema(t)
	newWorld(t, store, holding)
	c := sqlConn(t, schema)
	_, err := c.Exec(ctx, "SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
	require.NoError(t, err)
	shapes := store.Shapes()
	plans := 0
	for _, d := range tables {
		if d.Rows == nil {
			continue
		}
		sqlTable := pgx.Identifier{shapes[d.Name].Table}.Sanitize()
		created := pgx.Identifier{d.Rows.Created}.Sanitize()
		for name, cols := range d.Rows.Lists {
			where := []string{"true"}
			args := [][]any{{}}
			for _, col := range cols {
				c := pgx.Identifier{col}.Sanitize()
				where = append(where, c+" = $1 AND "+c+" <> ''")
				args = append(args, []any{"x"})
			}
			if len(cols) > 0 {
				where, args = where[1:], args[1:]
			}
			for i, w := range where {
				for _, dir := range []string{"", " DESC"} {
					cmp := ">"
					if dir != "" {
						cmp = "<"
					}
					for _, after := range []bool{false, true} {
						q, a := w, slices.Clone(args[i])
						if after {
							a = append(a, time.UnixMilli(1_700_000_000_000), "01900000-0000-7000-8000-000000000000")
							q += fmt.Sprintf(" AND (%s, id) %s ($%d, $%d)", created, cmp, len(a)-1, len(a))
						}
						sql := "EXPLAIN SELECT id FROM " + sqlTable + " WHERE " + q + " ORDER BY " + created + dir + ", id" + dir + " LIMIT 21"
						var plan []string
						rows, err := c.Query(ctx, sql, a...)
						require.NoError(t, err)
						for rows.Next() {
							var line string
							require.NoError(t, rows.Scan(&line))
							plan = append(plan, line)
						}
						require.NoError(t, rows.Err(), sql)
						text := strings.Join(plan, "\n")
						assert.Contains(t, text, "Index", "%s %s: %s\n%s", d.Name, name, sql, text)
						// Sorted by id only within one creation time.
						assert.NotContains(t, strings.ReplaceAll(text, "Incremental Sort", ""), "Sort  ", "%s %s: %s\n%s", d.Name, name, sql, text)
						if strings.Contains(text, "Sort") {
							assert.Contains(t, text, "Presorted Key: "+d.Rows.Created, "%s %s: %s\n%s", d.Name, name, sql, text)
						}
						plans++
					}
				}
			}
		}
	}
	assert.GreaterOrEqual(t, plans, 40)
}

// TestScan_ListsFromRowsMatchEntries: a scan of a list index answered from
// the record table yields the keys of the entries payments_kv holds for
// it, in the same order, in both directions, from any prefix (a value's,
// or none) and after any key, in small pages (Scan stopped early) as in
// one; and in an Update it sees the run's own writes. The store writes the
// entries into payments_kv as well for the test (KeepListEntries); the
// engine's lists answer the same when payments_kv holds none of them.
func TestScan_ListsFromRowsMatchEntries(t *testing.T) {
	_, tables := declaredWorld(t)
	store, schema := openSchema(t)
	store.KeepListEntries()
	w := newWorld(t, store, holding)
	c := sqlConn(t, schema)
	before := lists(t, w.eng)
	checked := 0
	served := servedLists(tables)
	for _, l := range servedIndexes(store, tables) {
		ixTable := l.ixTable
		stored := storedEntries(t, c, store, ixTable)
		prefixes := []string{""}
		for _, k := range stored {
			p := k[:strings.Index(k, "|")+1]
			if !slices.Contains(prefixes, p) {
				prefixes = append(prefixes, p)
			}
		}
		for _, prefix := range prefixes {
			var want []string
			for _, k := range stored {
				if strings.HasPrefix(k, prefix) {
					want = append(want, k)
				}
			}
			for _, reverse := range []bool{false, true} {
				w := slices.Clone(want)
				if reverse {
					slices.Reverse(w)
				}
				scan := func(after string, limit int) []string {
					var got []string
					require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
						return tx.Scan(ixTable, payments.ScanOptions{Prefix: prefix, After: after, Reverse: reverse}, func(k string, _ []byte) (bool, error) {
							got = append(got, k)
							return limit == 0 || len(got) < limit, nil
						})
					}))
					return got
				}
				assert.Equal(t, w, scan("", 0), "%s %q reverse %v", ixTable, prefix, reverse)
				for i := range w {
					if i+1 < len(w) {
						assert.Equal(t, w[i+1:min(i+3, len(w))], scan(w[i], 2), "%s %q reverse %v after %s", ixTable, prefix, reverse, w[i])
					}
				}
				checked++
			}
		}
		// A run sees its own writes among the rows'.
		if len(stored) > 0 {
			mine := stored[0][:strings.Index(stored[0], "|")+1] + "0000000000000000|zz-mine"
			gone := stored[0]
			var got []string
			errRollback := errors.New("rolled back")
			require.ErrorIs(t, store.Update(ctx, func(tx payments.Tx) error {
				got = nil
				if err := tx.Put(ixTable, mine, nil); err != nil {
					return err
				}
				if err := tx.Delete(ixTable, gone); err != nil {
					return err
				}
				if err := tx.Scan(ixTable, payments.ScanOptions{}, func(k string, _ []byte) (bool, error) {
					got = append(got, k)
					return true, nil
				}); err != nil {
					return err
				}
				return errRollback
			}), errRollback)
			assert.Contains(t, got, mine, ixTable)
			assert.NotContains(t, got, gone, ixTable)
		}
	}
	assert.GreaterOrEqual(t, checked, 20)
	// The lists read the rows: without the entries they answer the same.
	_, err := c.Exec(ctx, "DELETE FROM payments_kv WHERE tbl = ANY($1)", served)
	require.NoError(t, err)
	assert.Equal(t, before, lists(t, w.eng), "the lists without their entries in payments_kv")
}

// twoProcesses opens a store holding a world, and another process's store
// on the same schema, its tables declared.
func twoProcesses(t *testing.T) (store, other *pgstore.Store) {
	t.Helper()
	store, schema := openSchema(t)
	newWorld(t, store, holding)
	_, tables := declaredWorld(t)
	other, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	require.NoError(t, other.DeclareTables(ctx, tables))
	return store, other
}

// TestScan_ListFromRowsConflicts: an Update that scanned a list answered
// from the rows runs again when another commit adds a record to the range
// it read before it commits, and its second run sees the record; a write
// outside the range does not make it run again.
func TestScan_ListFromRowsConflicts(t *testing.T) {
	store, other := twoProcesses(t)
	ixTable := engine.IndexTable("customers", engine.IxType)
	customer := func(id, typ string) []byte {
		return []byte(`{"id":"` + id + `","customerType":"` + typ + `","createdAt":"2030-01-02T03:04:05.678Z"}`)
	}
	for _, c := range []struct {
		typ      string
		runs     int
		sawAdded bool
	}{{"INDIVIDUAL", 2, true}, {"BUSINESS", 1, false}} {
		runs, sawAdded := 0, false
		added := "Customer:zz-added-" + c.typ
		require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
			runs++
			sawAdded = false
			err := tx.Scan(ixTable, payments.ScanOptions{Prefix: "INDIVIDUAL|"}, func(k string, _ []byte) (bool, error) {
				sawAdded = sawAdded || strings.HasSuffix(k, added)
				return true, nil
			})
			if err != nil || runs > 1 {
				return err
			}
			// Another commit, while this run holds no lock.
			require.NoError(t, other.Update(ctx, func(o payments.Tx) error {
				return o.Put("customers", added, customer(added, c.typ))
			}))
			return tx.Put("widgets", "w-"+c.typ, []byte("{}"))
		}))
		assert.Equal(t, c.runs, runs, c.typ)
		assert.Equal(t, c.sawAdded, sawAdded, c.typ)
	}
}

// storedEntries returns the keys payments_kv holds for the index table
// ixTable, in order.
func storedEntries(t *testing.T, c *pgx.Conn, store *pgstore.Store, ixTable string) []string {
	t.Helper()
	var stored []string
	rows, err := c.Query(ctx, "SELECT k FROM payments_kv WHERE tbl = $1 ORDER BY k", store.Stored(ixTable))
	require.NoError(t, err)
	for rows.Next() {
		var k []byte
		require.NoError(t, rows.Scan(&k))
		stored = append(stored, string(k))
	}
	require.NoError(t, rows.Err())
	return stored
}

// servedList is an index answered from the rows of a table.
type servedList struct {
	ixTable        string   // the engine's index table
	table, created string   // the SQL table (the journal's view, which spells its ids) and its column of creation
	cols           []string // the columns it reads
}

// servedIndexes are the indexes answered from the rows: those the tables
// declare, and the journal's by reference.
func servedIndexes(store *pgstore.Store, tables []engine.TableDef) []servedList {
	out := []servedList{{engine.IndexTable(engine.TableLedgerEntries, engine.IxLedgerReference), "ledger_journal", "created_at", []string{"reference"}}}
	shapes := store.Shapes()
	for _, d := range tables {
		if d.Rows != nil {
			for _, name := range slices.Sorted(maps.Keys(d.Rows.Lists)) {
				out = append(out, servedList{engine.IndexTable(d.Name, name), shapes[d.Name].Table, d.Rows.Created, d.Rows.Lists[name]})
			}
		}
	}
	return out
}

// servedLists names the index tables answered from the rows of tables and
// the journal's.
func servedLists(tables []engine.TableDef) []string {
	out := []string{engine.IndexTable(engine.TableLedgerEntries, engine.IxLedgerReference)}
	for _, d := range tables {
		if d.Rows != nil {
			for name := range d.Rows.Lists {
				out = append(out, engine.IndexTable(d.Name, name))
			}
		}
	}
	slices.Sort(out)
	return out
}

// listEntriesStored counts the rows of payments_kv holding entries of the
// lists answered from the rows.
func listEntriesStored(t *testing.T, c *pgx.Conn, tables []engine.TableDef) int {
	t.Helper()
	var n int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM payments_kv WHERE tbl = ANY($1)", servedLists(tables)).Scan(&n))
	return n
}

// TestCommit_WritesNoListEntries: the engine's writes leave no entry of a
// list answered from the rows in payments_kv, and those lists, filtered
// once or twice, in pages, still answer.
func TestCommit_WritesNoListEntries(t *testing.T) {
	_, tables := declaredWorld(t)
	require.GreaterOrEqual(t, len(servedLists(tables)), 10)
	store, schema := openSchema(t)
	w := newWorld(t, store, holding)
	c := sqlConn(t, schema)
	assert.Zero(t, listEntriesStored(t, c, tables))
	for name, page := range lists(t, w.eng) {
		if !strings.Contains(name, "FAILED") {
			assert.Contains(t, page, `"data":[{`, name)
		}
	}
}

// TestGet_ListEntryFromRowsConflicts: an Update that read an entry of a
// list answered from the rows (a list's probe) runs again when another
// commit changes the record so that the entry goes (or comes) before it
// commits, and its second run reads the entry as it is then; a change
// that keeps the entry does not make it run again.
func TestGet_ListEntryFromRowsConflicts(t *testing.T) {
	store, other := twoProcesses(t)
	ixTable := engine.IndexTable("customers", engine.IxType)
	customer := func(id, typ, name string) []byte {
		return []byte(`{"id":"` + id + `","customerType":"` + typ + `","fullName":"` + name + `","createdAt":"2030-01-02T03:04:05.678Z"}`)
	}
	for _, c := range []struct {
		typ   string // the type the other commit gives the customer
		runs  int
		found []bool // per run: the INDIVIDUAL entry was found
	}{{"BUSINESS", 2, []bool{true, false}}, {"INDIVIDUAL", 1, []bool{true}}} {
		id := "Customer:zz-probed-" + c.typ
		require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
			return tx.Put("customers", id, customer(id, "INDIVIDUAL", "before"))
		}))
		entry := "INDIVIDUAL" + ixkey.SortSuffix(time.UnixMilli(1893553445678), id)
		var found []bool
		require.NoError(t, store.Update(ctx, func(tx payments.Tx) error {
			_, err := tx.Get(ixTable, entry)
			if err != nil && !errors.Is(err, payments.ErrNotFound) {
				return err
			}
			found = append(found, err == nil)
			if len(found) > 1 {
				return nil
			}
			// Another commit, while this run holds no lock.
			require.NoError(t, other.Update(ctx, func(o payments.Tx) error {
				return o.Put("customers", id, customer(id, c.typ, "after"))
			}))
			return tx.Put("widgets", "w-"+c.typ, []byte("{}"))
		}))
		assert.Equal(t, c.found, found, c.typ)
		assert.Len(t, found, c.runs, c.typ)
	}
	// A key that is no entry's is none.
	require.NoError(t, store.View(ctx, func(tx payments.Tx) error {
		for _, k := range []string{"INDIVIDUAL", "INDIVIDUAL|", "INDIVIDUAL|zz|Customer:zz-probed-BUSINESS", "|0000000000000000|x"} {
			_, err := tx.Get(ixTable, k)
			assert.ErrorIs(t, err, payments.ErrNotFound, k)
		}
		return nil
	}))
}
