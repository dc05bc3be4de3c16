// Package pgstore is a payments.Store on PostgreSQL (through pgx), for
// engines that run as several processes on one database.
//
// Every Update is one SERIALIZABLE transaction. The engine's transaction
// functions are deterministic and retryable by contract, so a transaction
// that PostgreSQL refuses with a serialization failure (SQLSTATE 40001) or a
// deadlock (40P01) is simply run again: conflicts never reach the caller.
// A transaction that failed runs again under advisory locks on the records
// it fought over (locks.go): concurrent losers queue there instead of
// retrying against each other, so a hot row (one account paid out of by
// many processes) keeps committing instead of storming, while transactions
// on other records run on. View runs in a
// REPEATABLE READ READ ONLY snapshot.
//
// The schema (one ordered key-value table holding every engine table, and a
// lease table) is created and upgraded by embedded migrations applied at
// Open under an advisory lock, so processes may start together.
//
// Store also implements payments.Claimer: leases on background work items,
// judged by the database's clock, so that each outbox event and due item is
// carried out by one process at a time, and by another once the holder died.
//
//	store, err := pgstore.Open(ctx, "postgres://user@localhost/payments", nil)
//	if err != nil { ... }
//	defer store.Close()
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/paygrid/payments"
)

// Options tune Open. A nil *Options means the defaults.
type Options struct {
	// Schema is the PostgreSQL schema holding the store's tables; Open
	// creates it. Empty means the connection's default search_path
	// (normally public). Separate schemas are separate stores.
	Schema string
	// MaxConns bounds the connections this process opens. Zero means 16.
	MaxConns int
	// MaxAttempts bounds how often one Update runs its function before it
	// gives up with ErrTooManyRetries. Zero means 1000.
	MaxAttempts int
}

// ErrTooManyRetries is returned by Update when its transaction kept failing
// serialization for Options.MaxAttempts attempts.
var ErrTooManyRetries = errors.New("pgstore: too many serialization failures")

// Store is a PostgreSQL-backed payments.Store. Open it with Open.
type Store struct {
	pool        *pool
	lockSpace   int32
	maxAttempts int
	hot         hotSet

	mu     sync.RWMutex
	closed bool

	commits, retries, statements atomic.Int64
}

// Stats counts what the store did since Open.
type Stats struct {
	// Commits is the number of Updates committed.
	Commits int64
	// Retries is the number of Update attempts run again after a
	// serialization failure or deadlock.
	Retries int64
	// Statements is the number of SQL statements transactions ran.
	Statements int64
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	return Stats{Commits: s.commits.Load(), Retries: s.retries.Load(), Statements: s.statements.Load()}
}

var (
	_ payments.Store   = (*Store)(nil)
	_ payments.Claimer = (*Store)(nil)
)

// Open connects to the database named by dsn (a URL or key=value string as
// accepted by pgx), applies the missing migrations and returns the store.
func Open(ctx context.Context, dsn string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 16
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 1000
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	if o.Schema != "" {
		cfg.RuntimeParams["search_path"] = o.Schema
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: connect: %w", err)
	}
	err = migrate(ctx, conn, o.Schema)
	_ = conn.Close(context.Background())
	if err != nil {
		return nil, err
	}
	return &Store{pool: newPool(cfg, o.MaxConns), lockSpace: int32(lockKey(o.Schema)), maxAttempts: o.MaxAttempts}, nil
}

// Close closes the connections. Later calls return payments.ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return payments.ErrClosed
	}
	s.closed = true
	s.pool.close()
	return nil
}

// conn checks the store is open and ctx alive, and acquires a connection.
func (s *Store) conn(ctx context.Context) (*pgx.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return nil, payments.ErrClosed
	}
	return s.pool.acquire(ctx)
}

// Update runs fn in a SERIALIZABLE transaction, again as long as PostgreSQL
// reports a serialization failure or deadlock, and returns when the commit
// is durable (or fn's error). Runs again after a conflict wait for the locks
// of the records fought over (locks.go).
func (s *Store) Update(ctx context.Context, fn func(payments.Tx) error) (err error) {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	l := &locks{space: s.lockSpace}
	defer func() {
		// A connection whose locks could not be given up is closed,
		// which gives them up.
		broken := l.release(context.Background(), c) != nil
		s.pool.release(c, broken)
	}()
	// Records the caller named as contended (payments.WithContended) that
	// are hot here are locked before the first attempt, which then does
	// not stop at them (locks.go).
	if want := s.hot.hotOf(payments.ContendedKeys(ctx)); len(want) > 0 {
		if err := s.lock(ctx, c, l, want); err != nil {
			return err
		}
	}
	failures := 0
	eager := map[tkey]bool{}
	for attempt := 1; ; attempt++ {
		err, retry, want := s.attempt(ctx, c, fn, l, eager)
		if !retry {
			if err == nil {
				s.commits.Add(1)
			}
			return err
		}
		s.retries.Add(1)
		if attempt >= s.maxAttempts {
			return fmt.Errorf("%w (%d attempts): %w", ErrTooManyRetries, attempt, err)
		}
		if errors.Is(err, errLateConflict) {
			continue
		}
		if !errors.Is(err, errHotKey) {
			failures++
			if failures > 1 {
				want = append(want, gateLock)
			}
		}
		if len(want) == 0 {
			time.Sleep(time.Duration(rand.Int64N(int64(time.Millisecond))))
			continue
		}
		if err := s.lock(ctx, c, l, want); err != nil {
			return err
		}
	}
}

// lock takes the locks want (l.acquire) and records which of them another
// transaction held, for their heat.
func (s *Store) lock(ctx context.Context, c *pgx.Conn, l *locks, want []int32) error {
	busy, err := l.acquire(ctx, c, want)
	if err != nil {
		return err
	}
	s.hot.observe(busy, true)
	s.hot.observe(slices.DeleteFunc(want, func(k int32) bool { return slices.Contains(busy, k) }), false)
	return nil
}

// attempt runs fn once; retry reports a serialization failure, a deadlock or
// a hot record touched without its lock. want names the records read and
// rewritten without a lock, or the hot one: the locks to take before
// running again.
func (s *Store) attempt(ctx context.Context, c *pgx.Conn, fn func(payments.Tx) error, l *locks, eager map[tkey]bool) (err error, retry bool, want []int32) {
	ptx, err := c.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.Serializable})
	if err != nil {
		return err, false, nil
	}
	t := &tx{ctx: ctx, ptx: ptx, writable: true, stmts: &s.statements, hot: &s.hot, locks: l, eager: eager}
	ferr := t.run(fn)
	rollback := func() { _ = ptx.Rollback(context.Background()) }
	switch {
	case t.failed != nil && (retryable(t.failed) || errors.Is(t.failed, errHotKey) || errors.Is(t.failed, errLateConflict)):
		rollback()
		return t.failed, true, t.contended()
	case ferr != nil:
		rollback()
		return ferr, false, nil
	case ctx.Err() != nil:
		rollback()
		return ctx.Err(), false, nil
	case t.failed != nil:
		// fn swallowed a database error; the transaction is aborted.
		rollback()
		return t.failed, false, nil
	}
	if err := t.flush(); err != nil {
		rollback()
		return err, retryable(err) || errors.Is(err, errLateConflict), t.contended()
	}
	if err := ptx.Commit(ctx); err != nil {
		return err, retryable(err), t.contended()
	}
	return nil, false, nil
}

// View runs fn in a read-only snapshot.
func (s *Store) View(ctx context.Context, fn func(payments.Tx) error) error {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	defer s.pool.release(c, false)
	ptx, err := c.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer func() { _ = ptx.Rollback(context.Background()) }()
	t := &tx{ctx: ctx, ptx: ptx, stmts: &s.statements}
	if err := t.run(fn); err != nil {
		return err
	}
	return t.failed
}

// retryable reports a serialization failure or a deadlock.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}
