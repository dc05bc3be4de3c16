package pgstore

import (
	"context"

	"github.com/jackc/pgx/v5"
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

// Shapes returns the record tables of s, by engine table name.
func (s *Store) Shapes() map[string]Shape {
	out := map[string]Shape{}
	for name, sh := range s.layout.Load().shapes {
		s := Shape{Table: sh.sql}
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
