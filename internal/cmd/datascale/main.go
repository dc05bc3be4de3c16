// Command datascale measures whether what the engine does costs the same
// when its store holds many payments as when it holds few: it fills a store
// with -n payments through the engine's own paths, and measures it beside a
// store of the same kind holding -base payments, in the same run.
//
//	go run ./internal/cmd/datascale -store bolt -n 1000000
//	go run ./internal/cmd/datascale -store pg -n 200000 -postgres 'host=/tmp dbname=payments' -schema datascale
//	go run ./internal/cmd/datascale -store mem -n 100000
//
// # Filling
//
// The payments are quote create+executes with immediatelyExecute, $0.01
// each, sent by many concurrent callers (-callers: 64, 16 on PostgreSQL)
// from the funded USD accounts of a few customers (-customers, each paying
// from its own account) to each one's US bank account; one payment in a
// hundred goes to an account the sandbox rail fails, so that a sparse
// status exists. The
// engine is configured as the sandbox server configures it (sandbox
// providers, the instant rail, the webhook sender with no endpoint; the
// event history, which its dashboard keeps, only with -history: it holds
// every event forever, four a payment, and on bbolt more than doubles a
// payment's bytes), and the store
// batches concurrent commits as it does for any load (bbolt's group commit,
// PostgreSQL's). Filling resumes: a -db file or -schema that already holds
// payments is filled only up to -n, so a large store is filled once and
// measured many times.
//
// # Measures
//
// Each store is measured in the same steps, in this order:
//
//   - bytes on disk: the bbolt file's size after a clean close, or the sum
//     of pg_total_relation_size over every table of the schema after
//     VACUUM ANALYZE (the memory store has none), and the same divided by
//     the payments the store holds;
//   - the 99th percentile of GET /transactions?limit=20 through httpapi on
//     an httptest server in this process, -requests sequential requests
//     a case (latency, not throughput): unfiltered, by customer and by
//     status (COMPLETED, and the sparse FAILED), the first page and the
//     hundredth (its cursor found by following nextCursor);
//   - payments per second: quote create+execute by 8 callers (-rate-callers)
//     for -d, each paying from its own customer's account;
//   - one webhook delivery pass (Webhooks.Flush) with -events events
//     waiting in the outbox, none due (their next attempt an hour away, as
//     in backoff): its time, and the records it read from the store (Get
//     and every record a Scan visited). The events are delivered and gone
//     once measured.
//
// It prints one table: metric, base, full, and full over base. With
// -bolt-stats it also prints, for each bbolt file when its size is
// measured, where its bytes go: per bucket its keys, the bytes of its keys
// and values, its pages, how full they are, and each per payment.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "datascale:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	store       string        // bolt, pg or mem
	n, base     int           // payments of the full and the base store
	db          string        // the full bbolt file
	dsn, schema string        // PostgreSQL: the full store's schema
	customers   int           // paying customers, each with its account
	callers     int           // concurrent callers while filling
	rateCallers int           // callers of the payments/s measure
	rateFor     time.Duration // its length, a round
	rounds      int           // rounds of it, alternating between the stores
	requests    int           // requests per list case
	events      int           // events waiting in the webhook pass
	history     bool          // Config.EventHistory
	boltStats   bool          // print where a bbolt file's bytes go
}

func parseFlags(args []string, out io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("datascale", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.store, "store", "bolt", "the store: bolt, pg or mem")
	fs.IntVar(&o.n, "n", 100_000, "payments in the full store")
	fs.IntVar(&o.base, "base", 20_000, "payments in the base store it is compared with (0: empty; enough for 100 pages by customer needs 2,000 a customer)")
	fs.StringVar(&o.db, "db", filepath.Join(os.TempDir(), "datascale.db"), "bbolt file of the full store (kept, and filled further by a later run)")
	fs.StringVar(&o.dsn, "postgres", os.Getenv("PAYMENTS_POSTGRES"), "PostgreSQL DSN (env PAYMENTS_POSTGRES)")
	fs.StringVar(&o.schema, "schema", "datascale", "PostgreSQL schema of the full store (kept); the base store is in <schema>_base, dropped at the end")
	fs.IntVar(&o.customers, "customers", 8, "paying customers, each with a funded account")
	fs.IntVar(&o.callers, "callers", 0, "concurrent callers while filling; 0 means 64, and 16 on PostgreSQL (with more, its group commits run out of predicate locks at the default max_pred_locks_per_transaction)")
	fs.IntVar(&o.rateCallers, "rate-callers", 8, "callers of the payments/s measure")
	fs.DurationVar(&o.rateFor, "d", 10*time.Second, "length of one round of the payments/s measure")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds of the payments/s measure, alternating between the base and the full store")
	fs.IntVar(&o.requests, "requests", 300, "sequential requests per list case")
	fs.IntVar(&o.events, "events", 100_000, "events waiting in the outbox during the webhook pass")
	fs.BoolVar(&o.history, "history", false, "keep the event history, as the sandbox server does with its dashboard on (it grows by every event and is never purged)")
	fs.BoolVar(&o.boltStats, "bolt-stats", false, "print where the bytes of each bbolt file go: per bucket, its keys, their bytes and their values', its pages and how full they are")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.callers == 0 {
		o.callers = 64
		if o.store == "pg" {
			o.callers = 16
		}
	}
	switch {
	case o.store != "bolt" && o.store != "pg" && o.store != "mem":
		return o, fmt.Errorf("-store %q: bolt, pg or mem", o.store)
	case o.store == "pg" && o.dsn == "":
		return o, errors.New("-store pg needs -postgres (or PAYMENTS_POSTGRES)")
	case o.n < 0 || o.base < 0 || o.customers < 1 || o.callers < 1 || o.rateCallers < 1 || o.requests < 1 || o.events < 0 || o.rounds < 1:
		return o, errors.New("-n, -base and -events must not be negative; -customers, -callers, -rate-callers, -requests and -rounds must be positive")
	}
	return o, nil
}

// run fills and measures the base store, then the full one, and prints
// the table on out; progress goes to log.
func run(ctx context.Context, args []string, out, log io.Writer) error {
	o, err := parseFlags(args, log)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "datascale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	base := storeSpec{kind: o.store, path: filepath.Join(tmp, "base.db"), dsn: o.dsn, schema: o.schema + "_base", fresh: true}
	full := storeSpec{kind: o.store, path: o.db, dsn: o.dsn, schema: o.schema}
	var subjects [2]*subject
	defer func() {
		for _, s := range subjects {
			if s != nil {
				_ = s.close(ctx)
			}
		}
	}()
	for i, s := range []struct {
		name string
		spec storeSpec
		n    int
	}{{"base", base, o.base}, {"full", full, o.n}} {
		fmt.Fprintf(log, "%s store (%s, %d payments):\n", s.name, s.spec.describe(), s.n)
		sub, err := prepare(ctx, o, s.spec, s.n, log)
		if err != nil {
			return fmt.Errorf("%s store: %w", s.name, err)
		}
		subjects[i] = sub
	}
	// The payments/s rounds alternate between the stores (base, full,
	// base, full, ...), so that what else the machine does weighs on both
	// alike; the table gives each store's median and the median of the
	// rounds' ratios.
	for round := range o.rounds {
		for i, s := range subjects {
			rate, err := measureRate(ctx, s.eng, s.ps, o.rateCallers, o.rateFor)
			if err != nil {
				return fmt.Errorf("%s store, payments/s round %d: %w", [2]string{"base", "full"}[i], round+1, err)
			}
			s.r.rates = append(s.r.rates, rate)
		}
	}
	var res [2]*results
	for i, s := range subjects {
		if err := s.finish(ctx, o); err != nil {
			return fmt.Errorf("%s store: %w", [2]string{"base", "full"}[i], err)
		}
		res[i] = s.r
	}
	printTable(out, o, res[0], res[1])
	return nil
}
