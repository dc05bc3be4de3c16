package main

import (
	"context"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/pgstore"
)

// storeSpec says where one store of the run lives.
type storeSpec struct {
	kind   string // bolt, pg or mem
	path   string // bolt: the file
	dsn    string // pg: the server
	schema string // pg: the schema
	fresh  bool   // start empty: remove what is there first, and at the end
}

// describe names the store for the progress lines.
func (s storeSpec) describe() string {
	switch s.kind {
	case "bolt":
		return "bbolt " + s.path
	case "pg":
		return "PostgreSQL schema " + s.schema
	}
	return "memory"
}

// open opens the store; a fresh one is emptied first.
func (s storeSpec) open(ctx context.Context) (payments.Store, error) {
	switch s.kind {
	case "bolt":
		if s.fresh {
			if err := os.Remove(s.path); err != nil && !os.IsNotExist(err) {
				return nil, err
			}
		}
		return boltstore.Open(s.path, nil)
	case "pg":
		if s.fresh {
			if err := s.dropSchema(ctx); err != nil {
				return nil, err
			}
		}
		return pgstore.Open(ctx, s.dsn, &pgstore.Options{Schema: s.schema})
	}
	return memstore.New(), nil
}

// reopen closes a durable store and opens it again (the memory store is
// kept: closing would lose it).
func (s storeSpec) reopen(ctx context.Context, st payments.Store) (payments.Store, error) {
	if s.kind == "mem" {
		return st, nil
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	return storeSpec{kind: s.kind, path: s.path, dsn: s.dsn, schema: s.schema}.open(ctx)
}

// cleanup removes a fresh store once the run is over.
func (s storeSpec) cleanup(ctx context.Context) error {
	if !s.fresh {
		return nil
	}
	switch s.kind {
	case "bolt":
		return os.Remove(s.path)
	case "pg":
		return s.dropSchema(ctx)
	}
	return nil
}

func (s storeSpec) dropSchema(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{s.schema}.Sanitize()+" CASCADE")
	return err
}

// size returns the bytes the store takes on disk: the bbolt file after a
// clean close (st is closed and opened again, the returned store is the
// one to use), or every table of the schema with its indexes and TOAST
// after VACUUM ANALYZE. ok is false for the memory store. With stats set,
// where a bbolt file's bytes go is printed there for payments payments.
func (s storeSpec) size(ctx context.Context, st payments.Store, stats io.Writer, payments int) (payments.Store, int64, bool, error) {
	switch s.kind {
	case "bolt":
		if err := st.Close(); err != nil {
			return nil, 0, false, err
		}
		fi, err := os.Stat(s.path)
		if err != nil {
			return nil, 0, false, err
		}
		if stats != nil {
			if err := boltStats(stats, s.path, payments); err != nil {
				return nil, 0, false, err
			}
		}
		st, err = storeSpec{kind: s.kind, path: s.path}.open(ctx)
		return st, fi.Size(), true, err
	case "pg":
		n, err := s.pgSize(ctx)
		return st, n, err == nil, err
	}
	return st, 0, false, nil
}

// pgSize is the schema's size after VACUUM ANALYZE of each of its tables.
func (s storeSpec) pgSize(ctx context.Context) (int64, error) {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = $1", s.schema)
	if err != nil {
		return 0, err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, err
	}
	for _, t := range tables {
		if _, err := conn.Exec(ctx, "VACUUM ANALYZE "+pgx.Identifier{s.schema, t}.Sanitize()); err != nil {
			return 0, err
		}
	}
	var n int64
	err = conn.QueryRow(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
		JOIN pg_namespace ns ON ns.oid = c.relnamespace WHERE ns.nspname = $1 AND c.relkind IN ('r', 'p', 'm')`, s.schema).Scan(&n)
	return n, err
}

// countPayments counts the outgoing transactions in st, from the quotes
// area's index of transactions by type (read by name: a measuring tool,
// not an area).
func countPayments(ctx context.Context, st payments.Store) (int, error) {
	n := 0
	err := st.View(ctx, func(tx payments.Tx) error {
		n = 0
		return tx.Scan(engine.IndexTable("transactions", engine.IxType), engine.ScanOptions{Prefix: engine.EscapeValue(string(payments.TxOutgoing)) + "|"},
			func(string, []byte) (bool, error) { n++; return true, nil })
	})
	return n, err
}

// counting is a Store that counts the records read by the transactions
// whose context carries countReads: each Get, and each record a Scan
// visits. It keeps the inner store's retryable reads and leases
// (countingClaimer), which a delivery pass uses.
type counting struct {
	payments.Store
	reads atomic.Int64
}

// countKey marks a context whose store reads are counted.
type countKey struct{}

// countReads returns ctx with its store reads counted by a counting store.
func countReads(ctx context.Context) context.Context { return context.WithValue(ctx, countKey{}, true) }

// countingStore wraps st.
func countingStore(st payments.Store) (payments.Store, *counting) {
	c := &counting{Store: st}
	if cl, ok := st.(engine.Claimer); ok {
		return countingClaimer{c, cl}, c
	}
	return c, c
}

func (c *counting) wrap(ctx context.Context, fn func(payments.Tx) error) func(payments.Tx) error {
	if ctx.Value(countKey{}) == nil {
		return fn
	}
	return func(tx payments.Tx) error { return fn(countingTx{tx, &c.reads}) }
}

// Update is the inner store's Update.
func (c *counting) Update(ctx context.Context, fn func(payments.Tx) error) error {
	return c.Store.Update(ctx, c.wrap(ctx, fn))
}

// View is the inner store's View.
func (c *counting) View(ctx context.Context, fn func(payments.Tx) error) error {
	return c.Store.View(ctx, c.wrap(ctx, fn))
}

// RetryableView is the inner store's, or its View.
func (c *counting) RetryableView(ctx context.Context, fn func(payments.Tx) error) error {
	if rv, ok := c.Store.(engine.RetryableViewer); ok {
		return rv.RetryableView(ctx, c.wrap(ctx, fn))
	}
	return c.View(ctx, fn)
}

// countingClaimer is a counting store over a store with leases.
type countingClaimer struct {
	*counting
	cl engine.Claimer
}

// Claim is the inner store's.
func (c countingClaimer) Claim(ctx context.Context, owner string, ttl time.Duration, names []string) ([]string, error) {
	return c.cl.Claim(ctx, owner, ttl, names)
}

// Release is the inner store's.
func (c countingClaimer) Release(ctx context.Context, owner string, names []string) error {
	return c.cl.Release(ctx, owner, names)
}

// countingTx counts the reads of a transaction.
type countingTx struct {
	payments.Tx
	n *atomic.Int64
}

func (t countingTx) Get(table, key string) ([]byte, error) {
	t.n.Add(1)
	return t.Tx.Get(table, key)
}

func (t countingTx) Scan(table string, opts engine.ScanOptions, fn func(string, []byte) (bool, error)) error {
	return t.Tx.Scan(table, opts, func(k string, v []byte) (bool, error) {
		t.n.Add(1)
		return fn(k, v)
	})
}
