// Package enginetest holds what the module's engine tests share: a sandbox
// engine with a controllable clock and a recording notifier (Env), the
// stores every concurrency test runs on (Stores), customer and payment
// fixtures (FullIndividual, Transfer, Env.USDAccount, ...), fakes for fault
// injection (Recorder, CodeBox, Probe) and seams that write records the way
// their areas do (SeedTransactions, SeedDue, ...).
//
// The tests of each area live beside it, in its external test package
// (quotes_test, customers_test, ...), and go through the public API of the
// root package; this package is what lets them share their set-up without
// the root's test files. It is an adapter-level package: it imports the
// root, the sandbox, the stores and testify, and only tests import it.
//
// A typical test:
//
//	func TestEngine_ConcurrentExecute(t *testing.T) {
//		for name, store := range enginetest.Stores(t) {
//			t.Run(name, func(t *testing.T) {
//				e := enginetest.MoneyEnv(t, store)
//				from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
//				...
//				require.NoError(t, payments.CheckLedger(ctx, e.Store))
//			})
//		}
//	}
package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/storetest"
	"github.com/stretchr/testify/require"
)

// ctx is the context of the helpers' own engine calls.
var ctx = context.Background()

// Env is a sandbox engine under test with what a test reaches past it:
// its clock, the events it delivered and its store.
type Env struct {
	// Eng is the engine, closed when the test ends.
	Eng *payments.Engine
	// Clock is the engine's clock (Config.Now), starting at the zero time.
	Clock *sandbox.Clock
	// Rec is the engine's Notifier.
	Rec *Recorder
	// Store is the engine's store (Config.Store after mutate).
	Store payments.Store
}

// NewEnv returns a sandbox engine on memstore with a controllable clock and
// a recording notifier; mutate lets a test adjust the config (each of
// Stores' values is one). The engine and the store are closed when t ends.
func NewEnv(t testing.TB, mutate ...func(*payments.Config)) *Env {
	t.Helper()
	clock := sandbox.NewClock(time.Time{})
	rec := &Recorder{}
	store := memstore.New()
	cfg := payments.Config{Store: store, Now: clock.Now, NewUUID: sandbox.NewUUID, Notifier: rec, Sandbox: true}
	for _, m := range mutate {
		m(&cfg)
	}
	eng, err := payments.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close(); _ = store.Close() })
	return &Env{Eng: eng, Clock: clock, Rec: rec, Store: store}
}

// MoneyEnv is NewEnv with every sandbox provider: KYC, rail, rates and
// directory.
func MoneyEnv(t testing.TB, mutate ...func(*payments.Config)) *Env {
	return NewEnv(t, append([]func(*payments.Config){func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}
	}}, mutate...)...)
}

// Stores returns, by name, config mutations that put an engine on each
// store a concurrency test must pass on: memstore (the default), boltstore
// in t's temporary directory, memstore wrapped so that every transaction
// function runs twice with the first run discarded (the engine's functions
// must be retryable), and PostgreSQL when PAYMENTS_TEST_POSTGRES names a
// test database (pgtest).
func Stores(t *testing.T) map[string]func(*payments.Config) {
	m := map[string]func(*payments.Config){
		"memstore": func(*payments.Config) {},
		"boltstore": func(c *payments.Config) {
			s, err := boltstore.Open(filepath.Join(t.TempDir(), "p.db"), nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = s.Close() })
			c.Store = s
		},
		// Every transaction function runs twice, the first run discarded:
		// the engine's functions must be retryable.
		"retrying": func(c *payments.Config) { c.Store = storetest.Twice(c.Store) },
	}
	// PostgreSQL, when PAYMENTS_TEST_POSTGRES names a test database.
	if os.Getenv(pgtest.EnvDSN) != "" {
		m["pgstore"] = func(c *payments.Config) { c.Store = pgtest.Open(t) }
	}
	return m
}

// RequireCode asserts err carries code and, when fields are given, that
// exactly those fields are reported.
func RequireCode(t testing.TB, err error, code payments.Code, fields ...string) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, payments.CodeOf(err), "error: %v", err)
	if len(fields) == 0 {
		return
	}
	var pe *payments.Error
	require.ErrorAs(t, err, &pe)
	var got []string
	for _, f := range pe.Fields {
		got = append(got, f.Field)
	}
	require.ElementsMatch(t, fields, got)
}

// Concurrently runs fn from n goroutines at once and counts the error codes
// ("" for success).
func Concurrently(n int, fn func() error) map[payments.Code]int {
	var mu sync.Mutex
	codes := map[payments.Code]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := payments.CodeOf(fn())
			mu.Lock()
			codes[c]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return codes
}

// FlushTypes delivers the outbox and returns the types of every event
// delivered so far.
func (e *Env) FlushTypes(t testing.TB) []string {
	t.Helper()
	_, err := e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	return e.Rec.Types()
}
