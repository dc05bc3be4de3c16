// Package pgtest gives tests fresh Postgres stores on the database named by
// the environment variable PAYMENTS_TEST_POSTGRES (a pgx DSN, for example
// "host=/tmp/pg user=postgres dbname=postgres"). Without it the tests that
// ask for one skip, so go test ./... passes on a machine without Postgres;
// .ci/run starts a server and sets it.
//
// Every store lives in its own schema, dropped when the test ends.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments/storage/pgstore"
)

// EnvDSN is the environment variable naming the test database.
const EnvDSN = "PAYMENTS_TEST_POSTGRES"

// DSN returns the test database's DSN, or skips t when none is configured.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		t.Skip(EnvDSN + " is not set")
	}
	return dsn
}

var seq atomic.Int64

// Schema returns a new schema name, unique to this test process, and drops
// the schema with everything in it when t ends.
func Schema(t testing.TB) string {
	t.Helper()
	dsn := DSN(t)
	name := fmt.Sprintf("t_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, seq.Add(1))
	t.Cleanup(func() { Drop(t, dsn, name) })
	return name
}

// Drop removes schema and its tables.
func Drop(t testing.TB, dsn, schema string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Logf("pgtest: drop %s: %v", schema, err)
		return
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil && !strings.Contains(err.Error(), "does not exist") {
		t.Logf("pgtest: drop %s: %v", schema, err)
	}
}

// Open returns a store on a fresh schema; it is closed and dropped when t
// ends.
func Open(t testing.TB) *pgstore.Store {
	t.Helper()
	dsn := DSN(t)
	schema := Schema(t)
	s, err := pgstore.Open(context.Background(), dsn, &pgstore.Options{Schema: schema})
	if err != nil {
		t.Fatalf("pgtest: open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}
