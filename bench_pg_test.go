package payments_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/paygrid/payments/storage/storetest"
)

// BenchmarkProcesses measures quote create+execute (account to account,
// settled at once) with 1, 2 and 4 engine processes on one store, each
// process running PAYMENTS_BENCH_CALLERS callers (default 4), on distinct
// accounts (every caller pays from and to its own accounts) and on one hot
// account (every caller pays out of the same funded account). An engine
// process is an Engine with its own pgstore connection pool, as a separate
// OS process would have. boltstore runs the same workload with all callers
// in its one process (a bbolt file serves one process). Each case reports
// quotes/s, cpu-ms/quote (this process's CPU: the engines and their
// callers) and, beyond one process, x-1proc: its speed-up over one process;
// each hot case x-distinct: its speed over the distinct case with as many
// processes, in the same run. The PostgreSQL cases also report
// retries/quote, stmts/quote and rtts/quote (statements run and round
// trips made, from pgstore.Stats) and, when the server runs on this
// machine, pg-cpu-ms/quote (the CPU its processes used).
// The Postgres cases need PAYMENTS_TEST_POSTGRES.
func BenchmarkProcesses(b *testing.B) {
	callers := 4
	if n, err := strconv.Atoi(os.Getenv("PAYMENTS_BENCH_CALLERS")); err == nil && n > 0 {
		callers = n
	}
	for _, storeName := range []string{"boltstore", "pgstore"} {
		distinct := map[int]float64{} // quotes/s on distinct accounts, by procs
		for _, hot := range []bool{false, true} {
			var oneProc float64
			for _, procs := range []int{1, 2, 4} {
				workload := "distinct"
				if hot {
					workload = "hot"
				}
				b.Run(fmt.Sprintf("%s/%s/procs=%d", storeName, workload, procs), func(b *testing.B) {
					engines := benchProcesses(b, storeName, procs)
					before := pgStats(engines)
					pgCPU := func() (time.Duration, bool) { return 0, false }
					if storeName == "pgstore" {
						pgCPU = pgtest.ServerCPU(b, pgtest.DSN(b))
					}
					var cpu0, pg0 time.Duration
					rate := quoteLoad(b, engines, callers, hot, func() {
						cpu0, _ = storetest.CPUTime()
						pg0, _ = pgCPU()
					})
					if cpu1, ok := storetest.CPUTime(); ok {
						b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/quote")
					}
					if pg1, ok := pgCPU(); ok {
						b.ReportMetric(float64(pg1-pg0)/float64(time.Millisecond)/float64(b.N), "pg-cpu-ms/quote")
					}
					b.ReportMetric(rate, "quotes/s")
					if storeName == "pgstore" {
						after := pgStats(engines)
						b.ReportMetric(float64(after.Retries-before.Retries)/float64(b.N), "retries/quote")
						b.ReportMetric(float64(after.Statements-before.Statements)/float64(b.N), "stmts/quote")
						b.ReportMetric(float64(after.RoundTrips-before.RoundTrips)/float64(b.N), "rtts/quote")
					}
					if procs == 1 {
						oneProc = rate
					} else if oneProc > 0 {
						b.ReportMetric(rate/oneProc, "x-1proc")
					}
					if !hot {
						distinct[procs] = rate
					} else if distinct[procs] > 0 {
						b.ReportMetric(rate/distinct[procs], "x-distinct")
					}
				})
			}
		}
	}
}

// benchProcesses starts procs engines on one store.
func benchProcesses(b *testing.B, storeName string, procs int) []*payments.Engine {
	b.Helper()
	var open func() payments.Store
	switch storeName {
	case "boltstore":
		s, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = s.Close() })
		open = func() payments.Store { return s }
	default:
		dsn, schema := pgtest.DSN(b), pgtest.Schema(b)
		open = func() payments.Store {
			s, err := pgstore.Open(context.Background(), dsn, &pgstore.Options{Schema: schema})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = s.Close() })
			return s
		}
	}
	var engines []*payments.Engine
	for range procs {
		eng, err := payments.New(payments.Config{Store: open(), Sandbox: true, KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{}})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = eng.Close() })
		engines = append(engines, eng)
	}
	return engines
}

// quoteLoad funds the accounts, then runs b.N quote create+executes spread
// over callers goroutines per engine, and returns quotes per second. start
// runs just before the measured load begins.
func quoteLoad(b *testing.B, engines []*payments.Engine, callers int, hot bool, start func()) float64 {
	b.Helper()
	e := &enginetest.Env{Eng: engines[0]}
	n := len(engines) * callers
	from := make([]string, n)
	to := make([]string, n)
	for i := range n {
		to[i] = e.USDAccount(b, fmt.Sprintf("Bo Payee%d", i))
		if hot && i > 0 {
			from[i] = from[0]
			continue
		}
		from[i] = e.USDAccount(b, fmt.Sprintf("Ann Payer%d", i))
		if _, err := e.Eng.Sandbox.Fund(ctx, from[i], payments.MaxSandboxFunding); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	start()
	b.ResetTimer()
	began := time.Now()
	for i := range n {
		eng := engines[i%len(engines)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if _, err := eng.Quotes.Create(ctx, enginetest.Transfer(from[i], to[i], 1, true)); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	rate := float64(b.N) / time.Now().Sub(began).Seconds()
	b.StopTimer()
	return rate
}

// pgStats sums the counters of the engines' pgstores.
func pgStats(engines []*payments.Engine) pgstore.Stats {
	var sum pgstore.Stats
	for _, e := range engines {
		if s, ok := e.Store().(*pgstore.Store); ok {
			st := s.Stats()
			sum.Commits += st.Commits
			sum.Retries += st.Retries
			sum.Statements += st.Statements
			sum.RoundTrips += st.RoundTrips
		}
	}
	return sum
}
