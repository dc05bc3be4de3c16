package pgstore

import (
	"context"
	"embed"
	"fmt"
	"hash/fnv"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// migrations holds the schema, one file per version, named
// NNNN_description.sql and applied in version order.
//
//go:embed migrations/*.sql
var migrations embed.FS

// migration is one numbered schema change.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the embedded migrations in version order.
func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("pgstore: migration %q is not named NNNN_name.sql", e.Name())
		}
		b, err := migrations.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("pgstore: two migrations numbered %d", out[i].version)
		}
	}
	return out, nil
}

// lockKey is the advisory lock that serializes migrations of one schema:
// processes starting together wait for each other, and only the first
// applies what is missing.
func lockKey(schema string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("paygrid/payments pgstore migrate " + schema))
	return int64(h.Sum64())
}

// steps are the parts of migrations written in Go, by version: each runs
// after the version's SQL, in its transaction.
var steps = map[int]func(ctx context.Context, tx pgx.Tx) error{
	4: moveRecords,
	5: moveJournal,
	8: journalView,
}

// migrate brings the schema of conn's search_path up to the newest embedded
// version, under a session advisory lock. Each migration applies in its own
// transaction (its SQL, then its Go step) together with its row in
// payments_schema_migrations.
func migrate(ctx context.Context, conn *pgx.Conn, schema string) (err error) {
	return migrateTo(ctx, conn, schema, 0)
}

// migrateTo is migrate up to version upTo (every version when 0).
func migrateTo(ctx context.Context, conn *pgx.Conn, schema string, upTo int) (err error) {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	key := lockKey(schema)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return fmt.Errorf("pgstore: migration lock: %w", err)
	}
	defer func() {
		if _, uerr := conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", key); uerr != nil && err == nil {
			err = uerr
		}
	}()
	if schema != "" {
		if _, err := conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize()); err != nil {
			return fmt.Errorf("pgstore: create schema: %w", err)
		}
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS payments_schema_migrations (
		version    integer     PRIMARY KEY,
		name       text        NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("pgstore: migrations table: %w", err)
	}
	var current int
	if err := conn.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM payments_schema_migrations").Scan(&current); err != nil {
		return err
	}
	for _, m := range all {
		if m.version <= current || upTo > 0 && m.version > upTo {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			if step := steps[m.version]; step != nil {
				if err := step(ctx, tx); err != nil {
					return err
				}
			}
			_, err := tx.Exec(ctx, "INSERT INTO payments_schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name)
			return err
		})
		if err != nil {
			return fmt.Errorf("pgstore: migration %s: %w", m.name, err)
		}
	}
	return nil
}
