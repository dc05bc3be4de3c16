package pgstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpen_MigratesOnceUnderConcurrentStarts opens one new schema from 4
// goroutines at once: every Open succeeds and each migration is recorded
// once.
func TestOpen_MigratesOnceUnderConcurrentStarts(t *testing.T) {
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
			if assert.NoError(t, err) {
				_ = s.Close()
			}
		}()
	}
	wg.Wait()
	c, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer c.Close(ctx)
	var n, distinct, latest int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*), count(DISTINCT version), max(version) FROM "+
		pgx.Identifier{schema, "payments_schema_migrations"}.Sanitize()).Scan(&n, &distinct, &latest))
	assert.Equal(t, n, distinct, "a migration was applied twice")
	assert.GreaterOrEqual(t, latest, 2)
	var ff []string
	require.NoError(t, c.QueryRow(ctx, "SELECT reloptions FROM pg_class WHERE oid = $1::regclass",
		schema+".payments_kv").Scan(&ff))
	assert.Contains(t, ff, "fillfactor=70", "migration 2 applied")
}

// TestClaim: a lease is held by one owner until released or expired.
func TestClaim(t *testing.T) {
	s := pgtest.Open(t)
	ctx := context.Background()
	got, err := s.Claim(ctx, "a", time.Minute, []string{"x", "y"})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"x", "y"}, got)
	got, err = s.Claim(ctx, "b", time.Minute, []string{"x", "z"})
	require.NoError(t, err)
	assert.Equal(t, []string{"z"}, got, "x is a's")
	got, err = s.Claim(ctx, "a", time.Minute, []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, got, "an owner renews its own lease")
	require.NoError(t, s.Release(ctx, "a", []string{"x"}))
	got, err = s.Claim(ctx, "b", time.Millisecond, []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, got, "released")
	time.Sleep(5 * time.Millisecond)
	got, err = s.Claim(ctx, "c", time.Minute, []string{"x", "y"})
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, got, "b's lease expired; y is still a's")
}

// TestOpen_MovesAppendTablesLast: a store written before migration 3 keeps
// its outbox, ledger entries and quote expiries when opened again (the
// migration stores them under their new names), and a store written after
// it does not keep them under the engine's names.
func TestOpen_MovesAppendTablesLast(t *testing.T) {
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	ctx := context.Background()
	s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	tables := []string{"outbox", "ledger_entries", "quote_expiry", "customers"}
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
		for _, tbl := range tables {
			if err := tx.Insert(tbl, "k1", []byte(tbl)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, s.Close())
	c, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer c.Close(ctx)
	kv := pgx.Identifier{schema, "payments_kv"}.Sanitize()
	var engineNamed int
	require.NoError(t, c.QueryRow(ctx, "SELECT count(*) FROM "+kv+" WHERE tbl = ANY($1)", tables[:3]).Scan(&engineNamed))
	assert.Zero(t, engineNamed, "append tables stored under the engine's names")
	// Back to how a store before migration 3 had them.
	_, err = c.Exec(ctx, "UPDATE "+kv+" SET tbl = substr(tbl, 5) WHERE tbl LIKE 'zz%'")
	require.NoError(t, err)
	_, err = c.Exec(ctx, "DELETE FROM "+pgx.Identifier{schema, "payments_schema_migrations"}.Sanitize()+" WHERE version >= 3")
	require.NoError(t, err)

	s, err = pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		for _, tbl := range tables {
			v, err := tx.Get(tbl, "k1")
			require.NoError(t, err, tbl)
			assert.Equal(t, tbl, string(v))
		}
		return nil
	}))
}
