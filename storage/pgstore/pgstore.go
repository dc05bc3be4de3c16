// Package pgstore is a payments.Store on PostgreSQL (through pgx), for
// engines that run as several processes on one database.
//
// # Your data in PostgreSQL
//
// The records the areas declare as rows (engine.TableDef.Rows: customers,
// internal and external accounts, quotes and transactions) are rows of real
// tables with typed columns (the rest of the record in a json column, doc,
// where a member a column holds is 0: no field is stored twice, and the
// store spells the record back whole when the engine reads it);
// the ledger is ledger_balances (one row per account and currency) and
// ledger_journal_entries with ledger_postings (one narrow row per entry
// and per posting, accounts as keys into ledger_accounts), shown as the
// views ledger_journal and ledger_entries;
// a table whose records are ledger accounts (engine.Balances) is also shown
// with their balances in a view. Every other engine table lives in
// payments_kv, one ordered key-value table, whose values are kept
// compressed against a dictionary per table once there is one (codec.go).
// The kernel's tables are created
// and upgraded by embedded migrations applied at Open under an advisory
// lock, so processes may start together; the declared tables are built
// from the declarations by DeclareTables, which payments.New calls, under
// the same lock. A store written by an older version moves its records
// into their tables then.
//
// # One operation, a few round trips
//
// An Update's function runs without a transaction: its reads are answered
// from what this process read or wrote lately (a cache) or by one plain
// statement each, and its writes are kept. Its commit is one round trip:
// BEGIN ISOLATION LEVEL SERIALIZABLE, one statement that checks that
// everything the function read is still what it read and writes everything
// (one data-modifying CTE per table, rows as arrays), COMMIT. A function
// whose reads were stale, or that PostgreSQL refuses with a serialization
// failure or a deadlock, simply runs again (its functions are retryable by
// contract): conflicts never reach the caller. Because the commit reads
// again, in its snapshot, what the function read, SERIALIZABLE sees the
// function's reads as its own: the Update is serializable as if the
// function had run inside it. The engine's Views, retryable too, are
// answered the same way and checked in one statement at the end. Since an
// Update's reads are checked by the commit that writes, the engine reads
// inside its Updates where it would otherwise read in a View first
// (ReadsInUpdate): a quote is priced in the Update that stores it.
//
// # Group commit
//
// The Updates of one process that arrive while another of its Updates runs
// queue; the running one runs their functions after its own, each on the
// writes of those before it, and commits them all in its one round trip
// (group.go). A queued function that fails runs again alone.
//
// # Hot balances
//
// Post does not read the balances it moves (payments.LedgerTx): the commit
// adds each posting's amount to its balance, checking there what Post would
// have refused. The balance of a busy account is therefore locked by its
// row's update inside the commit's round trip only. An operation that
// looks at a balance it moves (an account's webhook announces its new
// balance) reads it, once the balance is hot, under the balance's advisory
// lock, taken in the round trip of that read (late in the operation) and
// given up in the commit's round trip (locks.go).
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
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
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
	// keepListEntries: the commit writes the entries of lists answered
	// from the rows into payments_kv as well (tests compare them).
	keepListEntries bool
	pool            *pool
	lockSpace       int32
	maxAttempts     int
	hot             hotSet

	mu     sync.RWMutex
	closed bool

	group group

	cache cache
	// codecs keep payments_kv's values compressed (codec.go).
	codecs codecs
	// objects are the objects the record tables' docs leave out
	// (objects.go).
	objects keptObjects
	// accounts are the keys of the ledger accounts (journal.go).
	accounts accountIDs
	// layout is where each engine table is kept (layout.go), set by
	// DeclareTables.
	layout atomic.Pointer[layout]
	// migrateKey is the advisory lock of the schema's migrations.
	migrateKey int64

	commits, retries, statements, roundTrips atomic.Int64
}

// Stats counts what the store did since Open.
type Stats struct {
	// Commits is the number of Updates committed.
	Commits int64
	// Retries is the number of Update attempts run again after a
	// serialization failure or deadlock.
	Retries int64
	// Statements is the number of SQL statements Updates and Views ran
	// (BEGIN and COMMIT included).
	Statements int64
	// RoundTrips is the number of round trips to the database they made.
	RoundTrips int64
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	return Stats{Commits: s.commits.Load(), Retries: s.retries.Load(), Statements: s.statements.Load(), RoundTrips: s.roundTrips.Load()}
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
	// The store's statements are few and prepared once per connection;
	// their shape, not their values, decides their plans: every one reads
	// through a primary key (lookups, key ranges, rows joined by key).
	// Planning every run anew (custom plans) cost a third of PostgreSQL's
	// time per payment; and a plan made once must not scan a whole table
	// because the table was small when it was made.
	cfg.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	cfg.RuntimeParams["enable_seqscan"] = "off"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, unavailable(ctx, fmt.Errorf("pgstore: connect: %w", err))
	}
	err = migrate(ctx, conn, o.Schema)
	_ = conn.Close(context.Background())
	if err != nil {
		return nil, err
	}
	s := &Store{pool: newPool(cfg, o.MaxConns), lockSpace: int32(lockKey(o.Schema)), migrateKey: lockKey(o.Schema), maxAttempts: o.MaxAttempts}
	s.layout.Store(kernelLayout())
	return s, nil
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

// update is what the runs of one Update share.
type update struct {
	locks *locks
	// eager are the records whose Insert reads first: an earlier run's
	// insert found them.
	eager map[tkey]bool
	// fresh are the records read from the database, not the cache: an
	// earlier run read them stale.
	fresh map[tkey]bool
	// broken marks a connection to drop (it may hold locks).
	broken bool
	// wantKeys are the records whose locks a run found busy while it
	// held others: the next run takes them with those, in order, before it
	// starts.
	wantKeys []tkey
	// under are the records read under the locks the Update holds
	// (under.go).
	under map[tkey]underRead
}

// Update runs fn, again as long as what it read changed before its commit
// or PostgreSQL reports a conflict, and returns when the commit is durable
// (or fn's error). See tx and commit.go. When the database cannot be
// reached, or the connection is lost before the commit is sent, it runs
// fn once more on a new connection (a restarted server leaves the pool's
// connections dead) and then returns an error wrapping
// payments.ErrStoreUnavailable; when the connection is lost after the
// commit was sent, an error wrapping payments.ErrCommitUnknown.
func (s *Store) Update(ctx context.Context, fn func(payments.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer func() { err = unavailable(ctx, err) }()
	// Queue behind the Update that runs, or lead (group.go).
	lead := true
	if j := s.group.join(ctx, fn); j != nil {
		switch err := s.group.wait(j); {
		case errors.Is(err, errLead):
		case errors.Is(err, errAlone):
			lead = false
		default:
			if err == nil {
				s.commits.Add(1)
			}
			return err
		}
	}
	if lead {
		defer s.group.handOver()
	}
	err = s.update(ctx, fn, lead)
	if lostConnection(ctx, err) {
		s.retries.Add(1)
		err = s.update(ctx, fn, lead)
	}
	return err
}

// update runs fn and commits it, with the functions queued behind it when
// it leads.
func (s *Store) update(ctx context.Context, fn func(payments.Tx) error, lead bool) (err error) {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	u := &update{locks: &locks{space: s.lockSpace}, eager: map[tkey]bool{}, fresh: map[tkey]bool{}}
	defer func() {
		// A connection whose locks could not be given up is closed,
		// which gives them up.
		broken := u.broken || u.locks.release(context.Background(), s, c) != nil
		s.pool.release(c, broken)
	}()
	failures := 0
	for attempt := 1; ; attempt++ {
		err := s.attempt(ctx, c, fn, u, lead)
		if !errors.Is(err, errRerun) {
			if err == nil {
				s.commits.Add(1)
				// After the commit, not in its round trip: a table's
				// dictionary, once its values are enough (codec.go). A
				// failure only leaves its values raw a while longer.
				_ = s.codecs.makeDicts(ctx, s, c)
				// And the objects its rows kept in doc for want of them
				// (objects.go).
				_ = s.objects.keep(ctx, s, c)
			}
			return err
		}
		s.retries.Add(1)
		if attempt >= s.maxAttempts {
			return fmt.Errorf("%w (%d attempts): %w", ErrTooManyRetries, attempt, err)
		}
		failures++
		gate := failures > 2
		if len(u.wantKeys) > 0 || gate && !u.locks.held[gateLock] {
			// Give up the locks held and take them again, in order, with
			// those a run found busy (and the gate), reading their
			// records again.
			want := u.wantKeys
			for k := range u.under {
				want = append(want, k)
			}
			u.wantKeys, u.under = nil, nil
			if err := u.locks.release(ctx, s, c); err != nil {
				return err
			}
			var extra []int32
			if gate {
				extra = []int32{gateLock}
			}
			if err := u.lockRead(ctx, s, c, want, extra, true); err != nil && !retryable(err) {
				return err
			}
		}
	}
}

// attempt runs fn once and commits it. It returns nil, an error wrapping
// errRerun when fn must run again, or the error.
func (s *Store) attempt(ctx context.Context, c *pgx.Conn, fn func(payments.Tx) error, u *update, lead bool) error {
	t := withLedger(&tx{s: s, ctx: ctx, c: c, u: u, writable: true, optimistic: true})
	ferr := t.run(fn)
	var joined []*joiner
	if lead && ferr == nil && t.failed == nil && ctx.Err() == nil {
		joined = s.group.take()
		t.runJoined(joined)
	}
	err := t.finish(ctx, ferr)
	// The queued functions share the outcome of the commit; those that
	// failed, or all when the batch must run again, run alone.
	for _, j := range joined {
		switch {
		case j.ok && err == nil:
			j.done <- nil
		case j.ok && errors.Is(err, engine.ErrCommitUnknown):
			// Its writes were in the commit that may have applied:
			// running it again alone could apply them twice.
			j.done <- err
		default:
			j.done <- errAlone
		}
	}
	return err
}

// finish ends a run whose function returned ferr: it commits it, or checks
// what it read before answering with ferr.
func (t *tx) finish(ctx context.Context, ferr error) error {
	c := t.c
	switch {
	case errors.Is(t.failed, errLockOrder):
		return errors.Join(errRerun, t.failed)
	case t.failed != nil && (retryable(t.failed) || c.IsClosed()):
		if c.IsClosed() {
			return t.failed
		}
		return errors.Join(errRerun, t.failed)
	case t.failed != nil:
		// fn may have swallowed the error of a read.
		return t.failed
	case ferr != nil:
		// Answer with fn's error only if what it read held together.
		if err := t.validate(); err != nil {
			return err
		}
		return ferr
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return t.commit()
}

var _ payments.UpdateReader = (*Store)(nil)

// ReadsInUpdate reports that the engine's operations read inside their
// Updates (payments.UpdateReader): an Update's function runs without locks
// and its reads are checked by its commit, where a View would check its own
// in a round trip more.
func (s *Store) ReadsInUpdate() bool { return true }

// View runs fn in a read-only snapshot (REPEATABLE READ), begun by its
// first read. A retryable View (RetryableView: every View of the engine's
// operations) first runs optimistically: its reads are answered from the
// cache or by one statement each, and checked at the end in one statement,
// unless one statement read them all; when one was stale, fn runs again in
// a snapshot.
func (s *Store) View(ctx context.Context, fn func(payments.Tx) error) error {
	return s.viewAgain(ctx, fn, false)
}

var _ payments.RetryableViewer = (*Store)(nil)

// RetryableView is View for a function that may run more than once
// (payments.RetryableViewer): its reads come from the cache and are checked
// at the end, and it runs again, reading, when they were stale.
func (s *Store) RetryableView(ctx context.Context, fn func(payments.Tx) error) error {
	return s.viewAgain(ctx, fn, true)
}

// viewAgain is view, run once more on a new connection when fn may run
// again (retryable) and the database could not be reached or the
// connection was lost (a restarted server leaves the pool's connections
// dead); an error that persists wraps payments.ErrStoreUnavailable.
func (s *Store) viewAgain(ctx context.Context, fn func(payments.Tx) error, retryable bool) error {
	err := s.view(ctx, fn, retryable)
	if retryable && lostConnection(ctx, err) {
		s.retries.Add(1)
		err = s.view(ctx, fn, true)
	}
	return unavailable(ctx, err)
}

func (s *Store) view(ctx context.Context, fn func(payments.Tx) error, optimistic bool) error {
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	broken := false
	defer func() { s.pool.release(c, broken) }()
	for {
		t := withLedger(&tx{s: s, ctx: ctx, c: c, optimistic: optimistic})
		err := t.run(fn)
		if err == nil {
			err = t.failed
		}
		stale, ferr := t.endView()
		switch {
		case ferr != nil:
			broken = true
			return errors.Join(err, ferr)
		case stale && optimistic:
			s.retries.Add(1)
			optimistic = false
			continue
		}
		return err
	}
}

// endView checks what an optimistic View read (in its snapshot, if it
// began one) and ends its snapshot, in one round trip. stale reports a
// record that changed: the View runs again.
func (t *tx) endView() (stale bool, err error) {
	s := &stmt{}
	if t.optimistic && (t.cached || t.reads > 1) {
		t.checks(s, false)
	}
	b := &batch{}
	if s.ctes > 0 {
		b.exec(s.finish(false), s.args...)
	}
	if t.begun {
		b.exec("ROLLBACK")
	}
	if len(b.reads) == 0 {
		return false, nil
	}
	failed, err := b.send(context.WithoutCancel(t.ctx), t.s, t.c)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != codeStale && pe.Code != codeLedger {
		return false, err
	}
	if k, ok := staleKey(pe); ok {
		t.s.cache.drop(k)
	} else {
		for k := range t.recs {
			t.s.cache.drop(k)
		}
	}
	if t.begun && failed < len(b.reads)-1 {
		t.s.stat(1, 1)
		if _, err := t.c.Exec(context.Background(), "ROLLBACK"); err != nil {
			return true, err
		}
	}
	return true, nil
}

// stat counts statements run and round trips made.
func (s *Store) stat(statements, roundTrips int) {
	s.statements.Add(int64(statements))
	s.roundTrips.Add(int64(roundTrips))
}

// retryable reports a serialization failure, a deadlock, or a lock table
// out of room (codeOutOfSharedMemory).
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01" || pe.Code == codeOutOfSharedMemory)
}

// codeOutOfSharedMemory is PostgreSQL's "out of shared memory": on a busy
// server, the table of the predicate locks that SERIALIZABLE transactions
// hold (max_pred_locks_per_transaction times max_connections) or of the
// ordinary locks was full. The transaction was rolled back, and room comes
// back as the other transactions end: an Update runs again, as after a
// serialization failure, and after two failures runs behind the gate (one
// at a time, holding fewer locks at once).
const codeOutOfSharedMemory = "53200"
