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
	"strconv"
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

// ServerCPU returns a function reporting the CPU time the PostgreSQL
// server behind dsn has used so far (its postmaster with every process it
// started, those that ended included), or ok false when the server is not
// on this machine or /proc does not show it. Benchmarks take it before and
// after a run to report the database's CPU per operation beside their own.
func ServerCPU(tb testing.TB, dsn string) func() (d time.Duration, ok bool) {
	tb.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return func() (time.Duration, bool) { return 0, false }
	}
	var backend int
	err = c.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend)
	_ = c.Close(ctx)
	if err != nil {
		return func() (time.Duration, bool) { return 0, false }
	}
	st, ok := procStat(backend)
	if !ok {
		return func() (time.Duration, bool) { return 0, false }
	}
	postmaster := int(st.ppid)
	return func() (time.Duration, bool) {
		pm, ok := procStat(postmaster)
		if !ok {
			return 0, false
		}
		ticks := pm.utime + pm.stime + pm.cutime + pm.cstime
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return 0, false
		}
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if st, ok := procStat(pid); ok && int(st.ppid) == postmaster {
				ticks += st.utime + st.stime
			}
		}
		return time.Duration(ticks) * time.Second / clockTicks, true
	}
}

// clockTicks is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on
// Linux).
const clockTicks = 100

type stat struct{ ppid, utime, stime, cutime, cstime int64 }

// procStat reads /proc/<pid>/stat.
func procStat(pid int) (stat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	// The command is in parentheses and may hold spaces: fields start
	// after the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 15 {
		return stat{}, false
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(f[i], 10, 64); return v }
	// f[0] is field 3 (state): ppid is field 4, utime..cstime 14..17.
	return stat{ppid: n(1), utime: n(11), stime: n(12), cutime: n(13), cstime: n(14)}, true
}
