// Package rowspec declares how a table's records look as rows of a
// relational store: the SQL table, the typed columns a finance team
// queries, each taken from a member of the record's JSON, and the orders
// queries read them in. An area declares them beside its tables
// (engine.TableDef.Rows); the kernel never reads them, and a store that
// lays its tables out by them (storage/pgstore, through
// engine.TableDeclarer) builds and upgrades its tables from them. It is a
// leaf of plain declarations.
package rowspec

// Rows describes a table's records as rows of a relational store: every
// row keeps the record's key (id) and the whole record as written (doc),
// and beside them the typed Columns.
type Rows struct {
	// Table is the relational table's name; empty means the engine table's
	// Name.
	Table string
	// Columns are the typed columns, in their order in the table.
	Columns []Column
	// Indexes are the orders, besides the key's, in which queries read the
	// rows: each lists the columns it sorts by.
	Indexes [][]string
	// Created is the column of the time a record was created, which orders
	// every list of the table (Indexed's created).
	Created string
	// Lists names the secondary indexes of the table (TableDef.Ix, by
	// name) that a relational store may answer from the rows themselves,
	// each with the columns it reads: every value a record has in such an
	// index is, verbatim, the non-empty value of one of those columns (Ix
	// of a column, IxMany over several), and the index of every record
	// (IxAll) reads none. A relational store keeps the rows in each such
	// order: by the column, then Created, then the key.
	Lists map[string][]string
	// Kept names the secondary indexes whose values are computed from the
	// record (a customer's status index reads "type:status", an account's
	// side is whether it has an owner): no column holds them, so every
	// store keeps their entries as it keeps any key. Register panics when
	// an index of the table is in neither Lists nor Kept, or in both, or a
	// name in them is no index, or a column in Lists is none.
	Kept []string
	// Balances, when set, declares that every record is a ledger account:
	// a relational store shows the records with their balances.
	Balances *Balances
}

// Column is one typed column of a table's rows: its name, its type, and
// the member of the record's JSON its value is taken from, when the record
// is written.
type Column struct {
	// Name is the column's name.
	Name string
	// Type is the column's type.
	Type ColumnType
	// Path is the member of the record's JSON, as a dotted path of object
	// members ("source.accountId"). A member that is absent, null or not of
	// the column's type gives the column no value (NULL), or Absent.
	Path string
	// Absent is the column's value, as the text of a JSON value of its type
	// ("false"), for a record without the member; empty means none (NULL).
	Absent string
	// Object, when set, is the member of the record's JSON, as a dotted
	// path above Path ("sendingCurrency" for "sendingCurrency.code"), of a
	// whole object the column's value names: every record spells the
	// object of one value alike (a currency's name, symbol and decimals,
	// by its code), so a relational store may keep each value's object
	// once rather than in every row. No other column's member may lie in
	// it.
	Object string
}

// Names returns c declaring that its value names the whole object at the
// member path object (Column.Object).
func (c Column) Names(object string) Column {
	c.Object = object
	return c
}

// ColumnType is the type of a Column, named as SQL names it; it also says
// which JSON values the column takes.
type ColumnType string

// The types of columns.
const (
	// ColText takes a JSON string.
	ColText ColumnType = "text"
	// ColBigint takes a JSON integer that fits 64 bits (amounts in minor
	// units).
	ColBigint ColumnType = "bigint"
	// ColNumeric takes a JSON number, kept exactly (rates).
	ColNumeric ColumnType = "numeric"
	// ColTime takes a JSON string holding an RFC 3339 time.
	ColTime ColumnType = "timestamptz"
	// ColBool takes a JSON boolean.
	ColBool ColumnType = "boolean"
)

// TextColumn is the ColText column name taken from path.
func TextColumn(name, path string) Column { return Column{Name: name, Type: ColText, Path: path} }

// BigintColumn is the ColBigint column name taken from path.
func BigintColumn(name, path string) Column { return Column{Name: name, Type: ColBigint, Path: path} }

// NumericColumn is the ColNumeric column name taken from path.
func NumericColumn(name, path string) Column {
	return Column{Name: name, Type: ColNumeric, Path: path}
}

// TimeColumn is the ColTime column name taken from path.
func TimeColumn(name, path string) Column { return Column{Name: name, Type: ColTime, Path: path} }

// BoolColumn is the ColBool column name taken from path.
func BoolColumn(name, path string) Column { return Column{Name: name, Type: ColBool, Path: path} }

// Balances declares a table whose records are ledger accounts: the balance
// of a record's account is kept at the record's key, in the currency its
// column Currency names, and what the account holds for payments in flight
// at the key followed by Held. A relational store shows the records with
// their balances under the name View.
type Balances struct {
	// View is the name under which the records are shown with their
	// balances.
	View string
	// Currency is the column holding the account's currency.
	Currency string
	// Held is the suffix of the key of the account's held funds
	// (money.HeldSuffix).
	Held string
}
