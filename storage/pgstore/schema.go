package pgstore

import (
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/paygrid/payments/internal/engine"
)

// The shape of the engine's tables on PostgreSQL.
//
// The engine's port carries named tables of byte records; the areas declare
// which of them are the user's records and how they look as rows
// (engine.TableDef.Rows), and the store learns it from them (DeclareTables,
// declare.go). Each such table is a real table: the record's key in id, the
// columns a finance team queries (typed, taken from the record's JSON when
// it is written), and the rest of the record in doc (json: the record as
// written, but for the members the columns hold, each replaced by 0 and
// spelled back from its column when the record is read, doc.go, so that
// the engine reads back exactly what it wrote). Every other engine
// table (indexes, outbox, idempotency, due work...) lives in payments_kv,
// one ordered key-value table.
//
// The ledger is the kernel's: its two engine tables are stored by ledger.go
// and journal.go as ledger_balances (one row per account and currency) and
// ledger_journal_entries with ledger_postings (one narrow row per entry, one
// per posting, accounts as keys into ledger_accounts), which the migrations
// create, with the views ledger_journal and ledger_entries over them;
// journalShape (journal.go) is the journal's row.
//
// The paths name members of the records' JSON encoding, which the areas
// own; TestTables_UsersQueries writes real records through the engine and
// fails when a declared path is missing, and TestTables_MatchDeclarations
// compares the declarations with the tables the store built.

// column is one typed column of a record table: its SQL name and type, and
// the member of the record's JSON it is taken from (a dotted path of object
// members). A member that is absent, null or not of the column's type is
// stored as NULL.
type column struct {
	name string
	typ  colType
	path string
	// absent is the value of a record without the member ("" for NULL).
	absent string
}

// colType is the SQL type of a column.
type colType int

const (
	colText colType = iota
	colBigint
	colNumeric
	colTimestamptz
	colBoolean
)

var colTypeNames = [...]string{colText: "text", colBigint: "bigint", colNumeric: "numeric", colTimestamptz: "timestamptz", colBoolean: "boolean"}

func (c colType) String() string { return colTypeNames[c] }

// colTypeOf returns the column type a declaration names.
func colTypeOf(t engine.ColumnType) (colType, bool) {
	for i, n := range colTypeNames {
		if n == string(t) {
			return colType(i), true
		}
	}
	return 0, false
}

// shape is one record table: the engine's table name, the SQL table and
// its typed columns.
type shape struct {
	engine string
	sql    string
	cols   []column
	paths  *pathNode     // cols' paths, for extract
	absent []pgtype.Text // cols' values when a record lacks them
	// journal marks the ledger's entries: a record is written as one row
	// of ledger_journal_entries and one of ledger_postings per posting, and
	// read back through journalDoc (journal.go).
	journal bool
	// key is the SQL expression of a record's key, read from a row of the
	// table: id, or for the journal journalKey (keyIs reads by it).
	key string
	// doc is the SQL expression of a record's value, read from a row of
	// the table (named by the table's own name): its doc column, or for
	// the journal the entry spelled back from its rows.
	doc string
	// strip are the columns whose members doc does not hold again, by
	// index (doc.go): none but in the declared tables.
	strip    []int
	stripSel string // their values' select list (stripSQL)
	// objects are, by column, the member above its path whose whole
	// object its value names ("" for none; doc.go keeps each value's
	// object once); kept is the store's record of those objects.
	objects []string
	kept    *keptObjects
	// codes are the letters that name the stripped columns' members in a
	// doc that leaves them out (doc.go: from the columns' numbers in the
	// table; 0 for none), keys those members' names as doc spells them
	// (`"status":`), both by strip's index; idCode names the record's id
	// member (0 where it is never cut).
	codes  []byte
	keys   []string
	idCode byte
	// objKeys are, by strip's index, the names of the objects the
	// columns' values name as doc spells them (`"sendingCurrency":`, ""
	// for none), and objVals where their kept objects are among the values
	// stripSQL selects.
	objKeys []string
	objVals []int
	// shapes: a doc may name its shape (shapes.go), which stripSQL
	// selects last.
	shapes bool

	// getSQL reads one record, made once from the declaration: by its
	// key in id (get chooses).
	getSQL string
	// getByUID reads one entry of the journal by the UUID of its id.
	getByUID string
}

// newShape returns the record table of the engine's table, stored as the
// SQL table sql with the typed columns cols.
func newShape(table, sql string, cols ...column) *shape {
	s := &shape{engine: table, sql: sql, cols: cols, key: "id", doc: "doc::text"}
	s.paths, s.absent = newPaths(cols), absentValues(cols)
	s.statements()
	return s
}

func text(name, path string) column { return column{name: name, typ: colText, path: path} }
func timestamptz(name, path string) column {
	return column{name: name, typ: colTimestamptz, path: path}
}

// statements makes the table's read statement from its declaration: a
// row of (xmin, doc, the stripped columns), which scanRecord reads.
func (s *shape) statements() {
	s.stripSel = s.stripSelect()
	s.getSQL = "SELECT xmin::text::bigint, " + s.doc + s.stripSQL() + " FROM " + ident(s.sql) + " WHERE id = $1"
	if s.journal {
		s.getByUID = "SELECT xmin::text::bigint, " + s.doc + " FROM " + ident(s.sql) + " WHERE uid = $1"
	}
}

// get returns the statement reading the record at key, and its
// arguments: for an entry of the journal whose id is kept as a UUID
// (entryUID), the probe of uid; else the probe of id.
func (s *shape) get(key string) (string, []any) {
	if s.journal {
		if u := entryUID(key); u.Valid {
			return s.getByUID, []any{u}
		}
	}
	return s.getSQL, []any{key}
}

// keyIs is the SQL condition that the row of the table qualified by row
// ("" or "alias.") has the key v, an SQL text expression: a probe of the
// primary key, or for the journal of the B-tree keeping the id
// (journalKeyIs).
func (s *shape) keyIs(row, v string) string {
	if s.journal {
		return journalKeyIs(row, v)
	}
	return row + "id = " + v
}

// insert returns the insert (upsert: or replace) of rows of the table,
// whose columns (columnArgs) it adds to st. Typed values travel as text and
// are cast by PostgreSQL.
func (s *shape) insert(st *stmt, args []any, upsert bool) string {
	names := make([]string, 0, len(s.cols)+2)
	typs := make([]string, 0, len(s.cols)+2)
	names, typs = append(names, "id"), append(typs, "text")
	var b strings.Builder
	b.WriteString("INSERT INTO " + ident(s.sql) + " (id")
	for _, c := range s.cols {
		b.WriteString(", " + c.name)
		names, typs = append(names, c.name), append(typs, "text")
	}
	names, typs = append(names, "doc"), append(typs, "text")
	b.WriteString(", doc) SELECT u.id")
	for _, c := range s.cols {
		b.WriteString(", u." + c.name + "::" + c.typ.String())
	}
	b.WriteString(", u.doc::json FROM " + st.rows("u", names, typs, args...))
	if upsert {
		b.WriteString(" ON CONFLICT (id) DO UPDATE SET ")
		for _, c := range s.cols {
			b.WriteString(c.name + " = excluded." + c.name + ", ")
		}
		b.WriteString("doc = excluded.doc")
	}
	return b.String()
}

func ident(name string) string { return `"` + name + `"` }
