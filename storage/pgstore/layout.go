package pgstore

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/paygrid/payments/internal/engine"
)

// layout is where the store keeps each engine table, as the declarations
// handed to DeclareTables say: the record tables (real tables with typed
// columns), the tables kept after every other in payments_kv, and what is
// built beside the record tables (indexes, views). Before DeclareTables
// the layout is the kernel's alone: the ledger in its tables, every other
// table in payments_kv.
type layout struct {
	// shapes are the record tables by engine table name: the journal and
	// the declared ones.
	shapes map[string]*shape
	// declared are the declared record tables, sorted by SQL name.
	declared []*shape
	// atEnd are the tables whose writes insert at their end
	// (TableDef.InsertsAtEnd), kept in payments_kv after the others.
	atEnd map[string]bool
	// indexes are the declared orders of the record tables' rows.
	indexes []rowIndex
	// views show records that are ledger accounts with their balances.
	views []balanceView
	// lists are the list indexes answered from the record tables' rows
	// (engine.Rows.Lists), by the engine's name of the index table.
	lists map[string]*listIndex
}

// rowIndex is a B-tree index of a record table: of every row, or of the
// rows whose first column is not empty (partial: a list's order by a
// column holds the records that have a value in it, as the list does).
type rowIndex struct {
	sh      *shape
	cols    []string
	partial bool
}

// where is the predicate of a partial index ("" for none).
func (ix rowIndex) where() string {
	if !ix.partial {
		return ""
	}
	return " WHERE " + ix.cols[0] + " <> ''"
}

// name is the index's SQL name: the table's and its columns'.
func (ix rowIndex) name() string { return ix.sh.sql + "_" + strings.Join(ix.cols, "_") }

// balanceView is the view of a record table whose records are ledger
// accounts (engine.Balances): every column of the records, with the
// account's balance, held funds and their sum after the currency column.
type balanceView struct {
	name     string
	sh       *shape
	currency string // the column naming the account's currency
	held     string // the suffix of the account's held funds
}

// kernelLayout is the layout before DeclareTables: the journal, and the
// index of its entries by business record (engine.IxLedgerReference)
// answered from its rows by the index ledger_journal_entries_reference.
func kernelLayout() *layout {
	return &layout{shapes: map[string]*shape{journalShape.engine: journalShape}, atEnd: map[string]bool{},
		lists: map[string]*listIndex{
			engine.IndexTable(engine.TableLedgerEntries, engine.IxLedgerReference): {sh: journalShape, cols: []string{"reference"}, created: "created_at"},
		}}
}

// sqlName is what the store accepts as the name of a declared table,
// column, index or view: a lower-case SQL identifier that needs no quotes.
var sqlName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// kernelRelations are the store's own tables and views, which no
// declaration may name.
var kernelRelations = []string{"payments_kv", "payments_kv_dicts", "payments_doc_objects", "payments_leases", "payments_schema_migrations",
	"ledger_balances", "ledger_journal", "ledger_entries", "ledger_accounts", "ledger_journal_entries", "ledger_postings"}

// newLayout returns the layout of the declared tables, or an error naming
// the first declaration the store cannot follow.
func newLayout(tables []engine.TableDef) (*layout, error) {
	l := kernelLayout()
	names := map[string]string{} // SQL relations taken, with what took them
	for _, r := range kernelRelations {
		names[r] = "the store"
	}
	take := func(name, by string) error {
		if !sqlName.MatchString(name) || len(name) > 63 {
			return fmt.Errorf("pgstore: %s: %q is not a lower-case SQL name of at most 63 bytes", by, name)
		}
		if other, ok := names[name]; ok {
			return fmt.Errorf("pgstore: %s: the name %q is taken by %s", by, name, other)
		}
		names[name] = by
		return nil
	}
	for _, d := range tables {
		if d.InsertsAtEnd && d.Rows == nil {
			l.atEnd[d.Name] = true
		}
		if d.Rows == nil {
			continue
		}
		if _, dup := l.shapes[d.Name]; dup {
			return nil, fmt.Errorf("pgstore: table %s declared twice", d.Name)
		}
		sql := d.Rows.Table
		if sql == "" {
			sql = d.Name
		}
		by := "table " + d.Name
		if err := take(sql, by); err != nil {
			return nil, err
		}
		cols := make([]column, len(d.Rows.Columns))
		seen := map[string]bool{"id": true, "doc": true}
		for i, c := range d.Rows.Columns {
			typ, ok := colTypeOf(c.Type)
			switch {
			case !ok:
				return nil, fmt.Errorf("pgstore: %s: column %s has the unknown type %q", by, c.Name, c.Type)
			case !sqlName.MatchString(c.Name) || len(c.Name) > 63:
				return nil, fmt.Errorf("pgstore: %s: %q is not a lower-case SQL name of at most 63 bytes", by, c.Name)
			case seen[c.Name]:
				return nil, fmt.Errorf("pgstore: %s: column %s declared twice (id and doc are the store's)", by, c.Name)
			case c.Path == "" || slices.Contains(strings.Split(c.Path, "."), ""):
				return nil, fmt.Errorf("pgstore: %s: column %s has no path", by, c.Name)
			case c.Absent != "" && !typed([]byte(c.Absent), typ).Valid:
				return nil, fmt.Errorf("pgstore: %s: column %s: %q is not a %s value", by, c.Name, c.Absent, c.Type)
			case c.Object != "" && (!strings.HasPrefix(c.Path, c.Object+".") || c.Absent != ""):
				return nil, fmt.Errorf("pgstore: %s: column %s names the object %s, which is not above its member %s or it has a value for absent members", by, c.Name, c.Object, c.Path)
			}
			for _, o := range cols[:i] {
				if o.path == c.Path || strings.HasPrefix(o.path, c.Path+".") || strings.HasPrefix(c.Path, o.path+".") {
					return nil, fmt.Errorf("pgstore: %s: columns %s and %s take the same member (%s, %s)", by, o.name, c.Name, o.path, c.Path)
				}
			}
			seen[c.Name] = true
			cols[i] = column{name: c.Name, typ: typ, path: c.Path, absent: c.Absent}
		}
		objects := make([]string, len(cols))
		for i, c := range d.Rows.Columns {
			objects[i] = c.Object
			for _, o := range cols {
				if c.Object != "" && o.name != c.Name && (o.path == c.Object || strings.HasPrefix(o.path, c.Object+".")) {
					return nil, fmt.Errorf("pgstore: %s: column %s takes a member of the object %s that column %s names", by, o.name, c.Object, c.Name)
				}
			}
		}
		sh := newShape(d.Name, sql, cols...)
		sh.objects = objects
		sh.stripColumns()
		l.shapes[d.Name], l.declared = sh, append(l.declared, sh)
		for name, cols := range d.Rows.Lists {
			l.lists[engine.IndexTable(d.Name, name)] = &listIndex{sh: sh, cols: cols, created: d.Rows.Created}
		}
		for _, ix := range listOrders(d.Rows) {
			if !seen[d.Rows.Created] {
				return nil, fmt.Errorf("pgstore: %s: the lists' order %q is no column", by, d.Rows.Created)
			}
			x := rowIndex{sh: sh, cols: ix, partial: ix[0] != d.Rows.Created}
			if !slices.ContainsFunc(l.indexes, func(o rowIndex) bool { return o.name() == x.name() }) {
				if err := take(x.name(), by+"'s index"); err != nil {
					return nil, err
				}
				l.indexes = append(l.indexes, x)
			}
		}
		for _, ix := range d.Rows.Indexes {
			for _, c := range ix {
				if !seen[c] || c == "doc" {
					return nil, fmt.Errorf("pgstore: %s: an index reads %q, which is no column", by, c)
				}
			}
			if len(ix) == 0 {
				return nil, fmt.Errorf("pgstore: %s: an index reads no column", by)
			}
			x := rowIndex{sh: sh, cols: slices.Clone(ix)}
			if slices.ContainsFunc(l.indexes, func(o rowIndex) bool { return o.name() == x.name() && !o.partial }) {
				continue // a list's order already
			}
			if err := take(x.name(), by+"'s index"); err != nil {
				return nil, err
			}
			l.indexes = append(l.indexes, x)
		}
		if b := d.Rows.Balances; b != nil {
			if !seen[b.Currency] || b.Currency == "id" || b.Currency == "doc" {
				return nil, fmt.Errorf("pgstore: %s: the balances' currency %q is no column", by, b.Currency)
			}
			if b.Held == "" {
				return nil, fmt.Errorf("pgstore: %s: the balances name no suffix of held funds", by)
			}
			if err := take(b.View, by+"'s balances"); err != nil {
				return nil, err
			}
			l.views = append(l.views, balanceView{name: b.View, sh: sh, currency: b.Currency, held: b.Held})
		}
	}
	slices.SortFunc(l.declared, func(a, b *shape) int { return strings.Compare(a.sql, b.sql) })
	return l, nil
}

// listOrders returns the orders of the rows the lists of a table read
// (engine.Rows.Lists): for each column an index reads, (column, created)
// of the rows with a value in it (rowIndex.partial); for the index of
// every record, (created). Each once, sorted. The key is left out: a list
// orders by (created, id), and a page reads the B-tree in created order
// and sorts by id only the rows of one creation time (PostgreSQL's
// incremental sort), which are few; each entry is the size of its id
// smaller, which is most of it.
func listOrders(r *engine.Rows) [][]string {
	var out [][]string
	add := func(cols ...string) {
		if !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, cols) }) {
			out = append(out, cols)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.Lists)) {
		if len(r.Lists[name]) == 0 {
			add(r.Created)
		}
		for _, c := range r.Lists[name] {
			add(c, r.Created)
		}
	}
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out
}

// shape returns the record table of the engine's table, or nil when the
// table lives in payments_kv.
func (s *Store) shape(table string) *shape { return s.layout.Load().shapes[table] }

// stored is the tbl value of an engine table in payments_kv. Records are
// ordered by (tbl, k) in one B-tree, and SERIALIZABLE's predicate locks on
// it are per leaf page: a page where every operation inserts (the tail of a
// table with time-ordered keys) must not also hold records that operations
// read, or every operation conflicts with every other (each read a page the
// other wrote). The outbox's tail and the tails of the tables declared to
// be written at their end (engine.TableDef.InsertsAtEnd: written by every
// quote) sat beside the platform's config, read by every operation: those
// are stored after every other table (prefixed "zz", which sorts after the
// engine's names in any collation), the outbox last, so its tail is the
// B-tree's last page.
func (s *Store) stored(table string) string {
	switch {
	case table == engine.TableOutbox:
		return "zz2_" + table
	case s.layout.Load().atEnd[table]:
		return atEndPrefix + table
	}
	return table
}

// atEndPrefix prefixes the tbl of the tables written at their end.
const atEndPrefix = "zz0_"
