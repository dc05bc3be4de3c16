package engine

import (
	"context"
	"slices"

	"github.com/paygrid/payments/internal/rowspec"
)

// Tables as rows: an area may declare, beside a table of JSON records, how
// its records look as rows of a relational store (TableDef.Rows, package
// rowspec). The engine itself never reads these declarations: its port
// stays ordered tables of bytes, and memstore and boltstore need nothing
// of them. A store that lays its tables out by them implements
// TableDeclarer, and Register hands it every registered table before the
// engine first touches the store.

// Rows describes a table's records as rows of a relational store
// (rowspec.Rows).
type Rows = rowspec.Rows

// Column is one typed column of a table's rows (rowspec.Column).
type Column = rowspec.Column

// ColumnType is the type of a Column, named as SQL names it
// (rowspec.ColumnType).
type ColumnType = rowspec.ColumnType

// Balances declares a table whose records are ledger accounts
// (rowspec.Balances).
type Balances = rowspec.Balances

// The types of columns (rowspec).
const (
	ColText    = rowspec.ColText
	ColBigint  = rowspec.ColBigint
	ColNumeric = rowspec.ColNumeric
	ColTime    = rowspec.ColTime
	ColBool    = rowspec.ColBool
)

// TextColumn is the ColText column name taken from path.
func TextColumn(name, path string) Column { return rowspec.TextColumn(name, path) }

// BigintColumn is the ColBigint column name taken from path.
func BigintColumn(name, path string) Column { return rowspec.BigintColumn(name, path) }

// NumericColumn is the ColNumeric column name taken from path.
func NumericColumn(name, path string) Column { return rowspec.NumericColumn(name, path) }

// TimeColumn is the ColTime column name taken from path.
func TimeColumn(name, path string) Column { return rowspec.TimeColumn(name, path) }

// BoolColumn is the ColBool column name taken from path.
func BoolColumn(name, path string) Column { return rowspec.BoolColumn(name, path) }

// TableDeclarer is the optional capability of a Store that lays out its
// tables by their declarations (TableDef.Rows, TableDef.InsertsAtEnd).
// Register calls DeclareTables once, with every registered table sorted by
// name, before the engine first reads or writes the store; the store
// builds what it lacks and from then on keeps each table where its
// declaration says. An error stops Register (and payments.New).
type TableDeclarer interface {
	DeclareTables(ctx context.Context, tables []TableDef) error
}

// checkRows panics when the rows of d do not match its indexes (Rows.Lists,
// Rows.Created): a programming error, like a table declared twice.
func checkRows(d *TableDef) {
	if d.Rows == nil || d.Ix == nil {
		return
	}
	bad := func(what string) { panic("payments: table " + d.Name + ": " + what) }
	isColumn := func(name string, typ ColumnType) bool {
		return slices.ContainsFunc(d.Rows.Columns, func(c Column) bool { return c.Name == name && (typ == "" || c.Type == typ) })
	}
	if !isColumn(d.Rows.Created, ColTime) {
		bad("Rows.Created names no time column")
	}
	for name := range d.Ix.names {
		_, listed := d.Rows.Lists[name]
		kept := slices.Contains(d.Rows.Kept, name)
		switch {
		case !listed && !kept:
			bad("neither Rows.Lists nor Rows.Kept names the index " + name)
		case listed && kept:
			bad("Rows.Lists and Rows.Kept both name the index " + name)
		}
	}
	for _, name := range d.Rows.Kept {
		if !d.Ix.names[name] {
			bad("Rows.Kept names " + name + ", which is no index")
		}
	}
	for name, cols := range d.Rows.Lists {
		if !d.Ix.names[name] {
			bad("Rows.Lists names " + name + ", which is no index")
		}
		for _, c := range cols {
			if !isColumn(c, "") {
				bad("the index " + name + " reads " + c + ", which is no column")
			}
		}
	}
}

// declareTo hands the registered tables to s when it lays its tables out
// by their declarations (TableDeclarer).
func (r *Registry) declareTo(ctx context.Context, s Store) error {
	d, ok := s.(TableDeclarer)
	if !ok {
		return nil
	}
	tables := make([]TableDef, 0, len(r.names))
	for _, name := range r.names {
		tables = append(tables, *r.Tables[name])
	}
	return d.DeclareTables(ctx, slices.Clip(tables))
}
