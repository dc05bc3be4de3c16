package pgstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/ixkey"
)

// MigrateTo creates schema on the database dsn as the migrations up to
// version left it: a store written by an older version.
func MigrateTo(ctx context.Context, dsn, schema string, version int) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["search_path"] = schema
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	return migrateTo(ctx, c, schema, version)
}

// Stored is the tbl under which payments_kv keeps the records of an engine
// table.
func (s *Store) Stored(table string) string { return s.stored(table) }

// Shape is a record table as the store knows it: the kernel's journal and
// the tables declared to it.
type Shape struct {
	Table   string
	Columns []Column
}

// Column is one typed column.
type Column struct{ Name, Type, Path string }

// Shapes returns the record tables of s, by engine table name: for the
// journal, the view of its rows that a user reads (ledger_journal).
func (s *Store) Shapes() map[string]Shape {
	out := map[string]Shape{}
	for name, sh := range s.layout.Load().shapes {
		s := Shape{Table: sh.sql}
		if sh.journal {
			s.Table = "ledger_journal"
		}
		for _, c := range sh.cols {
			s.Columns = append(s.Columns, Column{c.name, c.typ.String(), c.path})
		}
		out[name] = s
	}
	return out
}

// SetCommitHook makes every commit that went through report err as lost
// at COMMIT (the outcome the store cannot know) while f returns it; the
// returned function removes the hook.
func SetCommitHook(f func() error) (remove func()) {
	commitHook = f
	return func() { commitHook = nil }
}

// MigrateReleased brings schema on the database dsn to version upTo as the
// released migrations left it (testdata/released: migration 4 built the
// area tables itself and its Go step moved every record table's rows out of
// payments_kv, the areas' included, each row made as the store's writes
// make it; tables are the engine's declarations, which name those
// tables).
func MigrateReleased(ctx context.Context, dsn, schema string, upTo int, tables []engine.TableDef) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["search_path"] = schema
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize()); err != nil {
		return err
	}
	if _, err := c.Exec(ctx, `CREATE TABLE IF NOT EXISTS payments_schema_migrations (
		version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	var current int
	if err := c.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM payments_schema_migrations").Scan(&current); err != nil {
		return err
	}
	files, err := filepath.Glob("testdata/released/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(files)
	l, err := newLayout(tables)
	if err != nil {
		return err
	}
	for i, f := range files {
		v := i + 1
		if v <= current || v > upTo {
			continue
		}
		sql, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		err = pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(sql)); err != nil {
				return err
			}
			if v == 4 {
				if err := moveRecords(ctx, tx); err != nil {
					return err
				}
				for _, sh := range l.declared {
					// The released table's columns: those declared since
					// are added when this code opens the store.
					have, err := catalog(ctx, tx, []string{sh.sql})
					if err != nil {
						return err
					}
					var cols []column
					for _, c := range sh.cols {
						if have[sh.sql] != nil && slices.Contains(have[sh.sql].names, c.name) {
							cols = append(cols, c)
						}
					}
					if err := moveTable(ctx, tx, newShape(sh.engine, sh.sql, cols...), sh.engine); err != nil {
						return err
					}
				}
			}
			_, err := tx.Exec(ctx, "INSERT INTO payments_schema_migrations (version, name) VALUES ($1, $2)", v, filepath.Base(f))
			return err
		})
		if err != nil {
			return fmt.Errorf("released %s: %w", f, err)
		}
	}
	return nil
}

// KeepListEntries makes the store's commits write the entries of the
// lists answered from the rows into payments_kv too, as the store did
// before, so that a test can compare the rows' answers with them.
func (s *Store) KeepListEntries() { s.keepListEntries = true }

// Dict returns the dictionary this process keeps for table's values in
// payments_kv, or nil.
func (s *Store) Dict(table string) []byte {
	if d := s.codecs.dict(table); d != nil {
		return d.Bytes()
	}
	return nil
}

// JournalRead is one statement the store reads the journal with by an
// entry's id, and its arguments.
type JournalRead struct {
	Name string
	SQL  string
	Args []any
}

// JournalReadsByID are the store's reads of the journal by the entry id
// (created at created, of the business record reference), as the store
// builds them: a Get, the commit's check of a read and of a deleted
// entry's existence, a delete, and the probe and a page of the list of
// the record's entries (engine.IxLedgerReference), a scan's batch from
// the entry on and the commit's check of that range.
func JournalReadsByID(id, reference string, created time.Time) []JournalRead {
	ix := kernelLayout().lists[engine.IndexTable(engine.TableLedgerEntries, engine.IxLedgerReference)]
	get, args := journalShape.get(id)
	out := []JournalRead{{"get", get, args}}
	check := &stmt{}
	check.check("0", check.rows("r", []string{"k"}, []string{"text"}, []string{id})+
		` WHERE (SELECT x.xmin::text::bigint FROM ledger_journal_entries x WHERE `+journalShape.keyIs("x.", "r.k")+`) IS DISTINCT FROM 1`)
	check.check("0", check.rows("r", []string{"k"}, []string{"text"}, []string{id})+
		` WHERE NOT EXISTS (SELECT FROM ledger_journal_entries x WHERE `+journalShape.keyIs("x.", "r.k")+`)`)
	out = append(out, JournalRead{"checks", check.finish(false), check.args})
	del := &stmt{}
	journalDeletes(del, []string{id})
	out = append(out, JournalRead{"delete", del.finish(false), del.args})
	key := engine.EscapeValue(reference) + ixkey.SortSuffix(created, id)
	sql, args := ix.getSQL(key)
	out = append(out, JournalRead{"list probe", sql, args})
	page := JournalRead{Name: "list page"}
	page.SQL = ix.query(listRange{prefix: engine.EscapeValue(reference) + "|", limit: 21}, func(v any, typ string) string {
		page.Args = append(page.Args, v)
		return "$" + strconv.Itoa(len(page.Args)) + "::" + typ
	})
	out = append(out, page)
	q, args := (*tx)(nil).journalScanQuery("", id, false, firstBatch)
	out = append(out, JournalRead{"scan", q, args})
	scanCheck := JournalRead{Name: "scan check"}
	scanCheck.SQL = journalRange("convert_to("+journalKey+", 'UTF8') AS k, xmin::text::bigint AS v", keyConds("", id, "", false), false, "", func(v any, typ string) string {
		scanCheck.Args = append(scanCheck.Args, v)
		return "$" + strconv.Itoa(len(scanCheck.Args)) + "::" + typ
	})
	return append(out, scanCheck)
}

// EntryUID is the UUID the store keeps an entry's id as, when it does.
func EntryUID(id string) pgtype.UUID { return entryUID(id) }
