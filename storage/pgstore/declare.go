package pgstore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments/internal/engine"
)

var _ engine.TableDeclarer = (*Store)(nil)

// DeclareTables lays the store's tables out as the engine's declarations
// say (engine.TableDeclarer: payments.New calls it, with every registered
// table, before the engine first reads the store): the records of a table with rows (engine.TableDef.Rows) are
// kept in a real table with its typed columns, and a table written at its
// end (InsertsAtEnd) after every other in payments_kv. Before it, every
// table but the ledger's lives in payments_kv, so a program that opens the
// store on its own and reads a record table sees it empty.
//
// It builds what the database lacks, in one transaction under the lock
// that serializes migrations (processes starting together wait for each
// other, and the first builds): a missing table is created, a column
// declared later is added and filled from each row's doc, the records of a
// newly declared table move out of payments_kv into it, the declared
// indexes and the views of balances (engine.Balances) are created, and
// the entries of the lists answered from the rows (engine.Rows.Lists),
// which a store written before kept in payments_kv, are deleted. A
// database that holds everything already costs one catalog query. A column
// whose type differs from its declaration is an error (the store does not
// convert it); a column no longer declared stays, unwritten.
func (s *Store) DeclareTables(ctx context.Context, tables []engine.TableDef) error {
	l, err := newLayout(tables)
	if err != nil {
		return err
	}
	for _, sh := range l.declared {
		sh.kept = &s.objects
	}
	c, err := s.conn(ctx)
	if err != nil {
		return unavailable(ctx, err)
	}
	err = pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", s.migrateKey); err != nil {
			return err
		}
		if err := build(ctx, tx, l); err != nil {
			return err
		}
		if s.keepListEntries {
			return nil
		}
		// The entries of the lists now answered from the rows, which a
		// store written before kept in payments_kv (once, at the first
		// open after an upgrade; then an empty range of its key).
		_, err := tx.Exec(ctx, "DELETE FROM payments_kv WHERE tbl = ANY($1)", slices.Sorted(maps.Keys(l.lists)))
		return err
	})
	s.pool.release(c, err != nil)
	if err != nil {
		return unavailable(ctx, fmt.Errorf("pgstore: declaring the tables: %w", err))
	}
	s.layout.Store(l)
	s.cache.clear()
	return nil
}

// relation is what the catalog says of one table or view: its kind ('r'
// a table, 'v' a view, ...) and its columns with their types, in order.
type relation struct {
	kind     string
	names    []string
	types    []string
	comments []string // "" for none
	nums     []int    // the columns' numbers (attnum)
}

// attnum returns the number of the column name in the table, 0 where it
// lacks it.
func (r *relation) attnum(name string) int {
	if i := slices.Index(r.names, name); i >= 0 {
		return r.nums[i]
	}
	return 0
}

// catalog reads the tables and views of the current schema named names.
func catalog(ctx context.Context, tx pgx.Tx, names []string) (map[string]*relation, error) {
	rows, err := tx.Query(ctx, `SELECT c.relname::text, c.relkind::text, a.attname::text, format_type(a.atttypid, a.atttypmod),
			coalesce(col_description(c.oid, a.attnum), ''), a.attnum::int
		FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY($1)
		ORDER BY c.relname, a.attnum`, names)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*relation{}
	for rows.Next() {
		var rel, kind, name, typ, comment string
		var num int
		if err := rows.Scan(&rel, &kind, &name, &typ, &comment, &num); err != nil {
			return nil, err
		}
		r := out[rel]
		if r == nil {
			r = &relation{kind: kind}
			out[rel] = r
		}
		r.names, r.types, r.comments = append(r.names, name), append(r.types, typ), append(r.comments, comment)
		r.nums = append(r.nums, num)
	}
	return out, rows.Err()
}

// sqlTypes are the catalog's names of the column types.
var sqlTypes = [...]string{colText: "text", colBigint: "bigint", colNumeric: "numeric",
	colTimestamptz: "timestamp with time zone", colBoolean: "boolean"}

// build creates in tx what the database lacks of layout l.
func build(ctx context.Context, tx pgx.Tx, l *layout) error {
	var names []string
	for _, sh := range l.declared {
		names = append(names, sh.sql)
	}
	for _, v := range l.views {
		names = append(names, v.name)
	}
	have, err := catalog(ctx, tx, names)
	if err != nil {
		return err
	}
	for _, sh := range l.declared {
		if err := buildTable(ctx, tx, sh, have[sh.sql]); err != nil {
			return fmt.Errorf("%s: %w", sh.sql, err)
		}
	}
	for _, ix := range l.indexes {
		if _, err := tx.Exec(ctx, "CREATE INDEX IF NOT EXISTS "+ident(ix.name())+" ON "+ident(ix.sh.sql)+" ("+strings.Join(ix.cols, ", ")+")"+ix.where()); err != nil {
			return fmt.Errorf("index %s: %w", ix.name(), err)
		}
	}
	for _, v := range l.views {
		if err := buildView(ctx, tx, v, have[v.name]); err != nil {
			return fmt.Errorf("view %s: %w", v.name, err)
		}
	}
	var atEnd []string
	for table := range l.atEnd {
		atEnd = append(atEnd, table)
	}
	if len(atEnd) > 0 {
		// The records of a store written before the table was declared
		// so (or by migration 3, which moved them) move after the others.
		slices.Sort(atEnd)
		if _, err := tx.Exec(ctx, "UPDATE payments_kv SET tbl = '"+atEndPrefix+"' || tbl WHERE tbl = ANY($1)", atEnd); err != nil {
			return err
		}
	}
	return nil
}

// buildTable creates the record table sh when the database lacks it (rel
// nil), or adds the columns it lacks and fills them, and writes every row
// again when a column whose member its doc holds as 0 is no longer
// stripped so (stripped); then it moves the table's records that
// payments_kv still holds into it.
func buildTable(ctx context.Context, tx pgx.Tx, sh *shape, rel *relation) error {
	switch {
	case rel == nil:
		var b strings.Builder
		b.WriteString("CREATE TABLE " + ident(sh.sql) + " (\n\tid text COLLATE \"C\" PRIMARY KEY")
		for _, c := range sh.cols {
			b.WriteString(",\n\t" + c.name + " " + c.typ.String())
		}
		b.WriteString(",\n\tdoc json NOT NULL\n)")
		if _, err := tx.Exec(ctx, b.String()); err != nil {
			return err
		}
		sh.setCodes(func(name string) int {
			if name == "id" {
				return 1
			}
			return slices.IndexFunc(sh.cols, func(c column) bool { return c.name == name }) + 2
		})
	case rel.kind != "r":
		return fmt.Errorf("a relation of kind %q stands where the table goes", rel.kind)
	default:
		before, err := stripped(sh, rel)
		if err != nil {
			return err
		}
		added := false
		for _, c := range sh.cols {
			i := slices.Index(rel.names, c.name)
			switch {
			case i < 0:
				if _, err := tx.Exec(ctx, "ALTER TABLE "+ident(sh.sql)+" ADD COLUMN "+c.name+" "+c.typ.String()); err != nil {
					return err
				}
				added = true
			case rel.types[i] != sqlTypes[c.typ]:
				return fmt.Errorf("column %s is %s, declared %s", c.name, rel.types[i], c.typ)
			}
		}
		now := rel
		if added {
			have, err := catalog(ctx, tx, []string{sh.sql})
			if err != nil {
				return err
			}
			now = have[sh.sql]
		}
		sh.setCodes(now.attnum)
		switch {
		case before != nil:
			if err := refill(ctx, tx, sh, before); err != nil {
				return err
			}
		case added:
			if err := refill(ctx, tx, sh, sh); err != nil {
				return err
			}
		}
	}
	if err := markStripped(ctx, tx, sh, rel); err != nil {
		return err
	}
	return moveTable(ctx, tx, sh, sh.engine)
}

// The columns whose members a table's docs leave out or hold as 0 (doc.go)
// are marked in the database, each by its comment naming its member and
// the object its value names, if any (strippedNote; a store that held
// them as 0 wrote "...; doc holds 0 in its place"), so that the store
// reads the rows right when a later declaration strips other members or
// objects: a column no longer declared (it stays, unwritten), one
// taking another member, or one that gains a value for absent members.
// Such a declaration writes every row again, read as the marks say and
// written as the declaration says (refill); a declaration that only adds
// stripped columns reads the rows as they are. A table written before the
// store stripped members has no marks and whole docs.

// strippedNote is the comment on a stripped column taken from path, whose
// value names the object at the path object ("" for none).
func strippedNote(path, object string) string {
	if object != "" {
		return "the record's member " + path + "; doc leaves it out, and the object " + object + " it names"
	}
	return "the record's member " + path + "; doc leaves it out"
}

// notedPath returns the path and the object a stripped column's comment
// names, in any of its spellings.
func notedPath(note string) (path, object string, ok bool) {
	if path, ok = strings.CutPrefix(note, "the record's member "); !ok {
		return "", "", false
	}
	if p, rest, ok := strings.Cut(path, "; doc leaves it out"); ok {
		object, named := strings.CutPrefix(rest, ", and the object ")
		if object, named = strings.CutSuffix(object, " it names"); named || rest == "" {
			return p, object, true
		}
		return "", "", false
	}
	path, ok = strings.CutSuffix(path, "; doc holds 0 in its place")
	return path, "", ok
}

// stripped returns the table as its rows were written, when a column
// marked stripped there is not stripped so by sh (nil when sh reads them
// right).
func stripped(sh *shape, rel *relation) (*shape, error) {
	var before []column
	var objects []string
	same := true
	for i, note := range rel.comments {
		path, object, ok := notedPath(note)
		if !ok {
			continue
		}
		t := slices.Index(sqlTypes[:], rel.types[i])
		if t < 0 {
			return nil, fmt.Errorf("column %s is %s, which the store does not write", rel.names[i], rel.types[i])
		}
		c := column{name: rel.names[i], typ: colType(t), path: path}
		before, objects = append(before, c), append(objects, object)
		// A column that came to name an object reads the rows as they are.
		same = same && slices.ContainsFunc(sh.strip, func(j int) bool { return sh.cols[j] == c && (object == "" || sh.object(j) == object) })
	}
	if same {
		return nil, nil
	}
	old := newShape(sh.engine, sh.sql, before...)
	old.objects = objects
	old.stripColumns()
	old.setCodes(rel.attnum)
	return old, nil
}

// markStripped sets the comments of the columns of sh (rel: as the
// database had it, nil for a new table) to its stripped columns' notes,
// and removes the note of a column no longer stripped.
func markStripped(ctx context.Context, tx pgx.Tx, sh *shape, rel *relation) error {
	have := map[string]string{}
	if rel != nil {
		for i, n := range rel.names {
			have[n] = rel.comments[i]
		}
	}
	want := map[string]string{}
	for _, i := range sh.strip {
		want[sh.cols[i].name] = strippedNote(sh.cols[i].path, sh.object(i))
	}
	for _, name := range slices.Sorted(maps.Keys(have)) {
		if _, _, noted := notedPath(have[name]); noted && want[name] == "" {
			if _, err := tx.Exec(ctx, "COMMENT ON COLUMN "+ident(sh.sql)+"."+ident(name)+" IS NULL"); err != nil {
				return err
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if have[name] != want[name] {
			if _, err := tx.Exec(ctx, "COMMENT ON COLUMN "+ident(sh.sql)+"."+ident(name)+" IS "+literal(want[name])); err != nil {
				return err
			}
		}
	}
	return nil
}

// refill writes every row of sh again from its record, read as the table
// read wrote it (sh itself, or the table before its stripped columns
// changed: stripped), 500 rows at a time, by the same code as the store's
// own writes: after columns were added, each row keeps its doc (the
// members of the columns it holds stay out of it, those of the added
// columns stay in it until the record is written again, doc.go); after
// its stripped columns changed, its doc is stripped as sh says.
func refill(ctx context.Context, tx pgx.Tx, sh, read *shape) error {
	after := ""
	for {
		rows, err := tx.Query(ctx, "SELECT id, doc::text"+read.stripSQL()+" FROM "+ident(sh.sql)+" WHERE id > $1 ORDER BY id LIMIT 500", after)
		if err != nil {
			return err
		}
		var keys []string
		var values, docs [][]byte
		for rows.Next() {
			var id string
			doc, v, err := scanRow(rows, read, &id)
			if err != nil {
				rows.Close()
				return err
			}
			keys, values, docs = append(keys, id), append(values, v), append(docs, doc)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(keys) == 0 {
			return nil
		}
		if read != sh {
			docs = nil
		}
		args, err := columnArgs(sh, keys, values, docs)
		if err != nil {
			return err
		}
		s := &stmt{}
		s.cte(sh.insert(s, args, true))
		if _, err := tx.Exec(ctx, s.finish(false), s.args...); err != nil {
			return err
		}
		after = keys[len(keys)-1]
	}
}

// buildView creates the view of balances v when the database lacks it (rel
// nil) or has it with other columns (a column declared later).
func buildView(ctx context.Context, tx pgx.Tx, v balanceView, rel *relation) error {
	cols := []string{"r.id"}
	names := []string{"id"}
	for _, c := range v.sh.cols {
		cols, names = append(cols, "r."+c.name), append(names, c.name)
		if c.name == v.currency {
			cols = append(cols, "coalesce(b.balance, 0) AS balance", "coalesce(h.balance, 0) AS held",
				"coalesce(b.balance, 0) + coalesce(h.balance, 0) AS total_balance")
			names = append(names, "balance", "held", "total_balance")
		}
	}
	cols, names = append(cols, "r.doc"), append(names, "doc")
	switch {
	case rel == nil:
	case rel.kind != "v":
		return fmt.Errorf("a relation of kind %q stands where the view goes", rel.kind)
	case slices.Equal(rel.names, names):
		return nil
	default:
		if _, err := tx.Exec(ctx, "DROP VIEW "+ident(v.name)); err != nil {
			return err
		}
	}
	cur := "r." + v.currency
	_, err := tx.Exec(ctx, "CREATE VIEW "+ident(v.name)+" AS\nSELECT "+strings.Join(cols, ", ")+
		"\nFROM "+ident(v.sh.sql)+" r"+
		"\nLEFT JOIN ledger_balances b ON b.account = r.id AND b.currency = "+cur+
		"\nLEFT JOIN ledger_balances h ON h.account = r.id || "+literal(v.held)+" AND h.currency = "+cur)
	return err
}

// literal quotes s as an SQL string literal.
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
