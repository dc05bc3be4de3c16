package pgstore_test

import (
	"context"
	"encoding/base64"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/memstore"
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
	assert.Contains(t, ff, "fillfactor=100", "migration 7 applied (after 2 left room on every page)")
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

// TestOpen_UpgradesKeyValueStore: a store written before the user's own
// tables (every record in payments_kv, as versions 2 and 3 kept them) is
// upgraded in place when opened: its records move into their tables, the
// engine on it reads exactly the state it had, and SQL sees the ledger.
func TestOpen_UpgradesKeyValueStore(t *testing.T) {
	// The state to start from, made on memstore.
	// Webhook events stay in the outbox (the notifier holds the first one
	// until the engine closes), so that it is among the tables moved and
	// neither engine changes it while its state is exported.
	w := newWorld(t, memstore.New(), holding)
	want, err := w.eng.Sandbox.Export(ctx)
	require.NoError(t, err)
	for _, table := range []string{"customers", "internal_accounts", "external_accounts", "quotes", "transactions",
		"ledger_entries", "ledger_balances", "outbox", "quote_expiry"} {
		require.NotEmpty(t, want.Tables[table], table)
	}

	// The store as version 2 left it: every record in payments_kv under
	// its engine table's name.
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	require.NoError(t, pgstore.MigrateTo(ctx, dsn, schema, 2))
	c := sqlConn(t, schema)
	rows := 0
	for table, recs := range want.Tables {
		for _, r := range recs {
			v := []byte(r.Value)
			if r.Base64 != "" {
				v, err = base64.StdEncoding.DecodeString(r.Base64)
				require.NoError(t, err)
			}
			_, err := c.Exec(ctx, "INSERT INTO payments_kv (tbl, k, v) VALUES ($1, $2, $3)", table, []byte(r.Key), append([]byte{}, v...))
			require.NoError(t, err)
			rows++
		}
	}

	s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer s.Close()
	var version, left int
	require.NoError(t, c.QueryRow(ctx, "SELECT max(version) FROM payments_schema_migrations").Scan(&version))
	assert.GreaterOrEqual(t, version, 4)

	// The engine declares its tables to the store, which builds them and
	// moves their records.
	eng := newEngine(t, s, holding)
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM payments_kv WHERE tbl = ANY($1)`,
		[]string{"customers", "internal_accounts", "external_accounts", "quotes", "transactions", "ledger_entries",
			"zz1_ledger_entries", "ledger_balances", "quote_expiry"}).Scan(&left))
	assert.Zero(t, left, "records of the tables left behind in payments_kv")
	var atEnd int
	require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM payments_kv WHERE tbl = $1`, s.Stored("quote_expiry")).Scan(&atEnd))
	assert.Equal(t, len(want.Tables["quote_expiry"]), atEnd, "the quote expiries, kept after the other tables")
	assert.Equal(t, "zz0_quote_expiry", s.Stored("quote_expiry"))
	got, err := eng.Sandbox.Export(ctx)
	require.NoError(t, err)
	assert.Equal(t, want.Tables, got.Tables, "the engine reads the state it had")
	require.NoError(t, payments.CheckLedger(ctx, s))
	require.NoError(t, pgCheck(t, schema))
	var balance int64
	require.NoError(t, c.QueryRow(ctx, "SELECT balance FROM internal_accounts WHERE id = $1", w.payer).Scan(&balance))
	assert.Equal(t, w.funded-w.totalMoved, balance)
	var status string
	var sent int64
	require.NoError(t, c.QueryRow(ctx, "SELECT status, sent_amount FROM transactions WHERE id = $1", w.completed).Scan(&status, &sent))
	assert.Equal(t, "COMPLETED", status)
	assert.EqualValues(t, 300, sent)

	// And it goes on: the pending quote executes.
	_, err = eng.Quotes.Execute(ctx, w.pending)
	require.NoError(t, err)
	require.NoError(t, pgCheck(t, schema))
	t.Logf("%d records moved", rows)
}
