package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// put is an Update that writes key.
func put(key string) func(payments.Tx) error {
	return func(tx payments.Tx) error { return tx.Put("things", key, []byte(`"v"`)) }
}

// get is a retryable View that reads key.
func get(key string) func(payments.Tx) error {
	return func(tx payments.Tx) error { _, err := tx.Get("things", key); return err }
}

// TestUnavailable_CutDatabase: while the database cannot be reached (its
// connections cut, new ones refused), Updates, Views and leases fail with
// payments.ErrStoreUnavailable (SERVICE_UNAVAILABLE), never an uncoded
// error; once it is back, the store works again on new connections.
func TestUnavailable_CutDatabase(t *testing.T) {
	ctx := context.Background()
	proxy := pgtest.NewProxy(t)
	s, err := pgstore.Open(ctx, proxy.DSN(), &pgstore.Options{Schema: pgtest.Schema(t)})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Update(ctx, put("a")))
	require.NoError(t, s.RetryableView(ctx, get("a")))

	proxy.Cut()
	for name, err := range map[string]error{
		"update":         s.Update(ctx, put("b")),
		"view":           s.View(ctx, get("a")),
		"retryable view": s.RetryableView(ctx, get("zz")),
		"claim":          func() error { _, err := s.Claim(ctx, "me", time.Second, []string{"x"}); return err }(),
		"release":        s.Release(ctx, "me", []string{"x"}),
	} {
		assert.ErrorIs(t, err, payments.ErrStoreUnavailable, name)
		assert.NotErrorIs(t, err, payments.ErrCommitUnknown, "%s: nothing was sent", name)
		assert.Equal(t, payments.CodeServiceUnavailable, payments.CodeOf(err), name)
	}
	_, err = pgstore.Open(ctx, proxy.DSN(), nil)
	assert.ErrorIs(t, err, payments.ErrStoreUnavailable, "open")

	proxy.Restore()
	require.NoError(t, s.Update(ctx, put("b")))
	require.NoError(t, s.RetryableView(ctx, get("b")))

	// Connections cut while idle in the pool are found dead and replaced
	// before a commit is sent on them: no Update reports an unknown
	// outcome for a commit that never left.
	proxy.Cut()
	proxy.Restore()
	for i := range 4 {
		require.NoError(t, s.Update(ctx, put(fmt.Sprint("c", i))), "update %d", i)
	}
}

// TestUnavailable_TerminatedSessions: sessions ended by the server
// (pg_terminate_backend from another connection, as a restart ends them)
// leave the pool's connections dead; the next operations replace them and
// succeed, without reporting an unknown commit.
func TestUnavailable_TerminatedSessions(t *testing.T) {
	ctx := context.Background()
	app := fmt.Sprintf("pgstore_terminate_%d", time.Now().UnixNano())
	dsn := pgtest.DSN(t) + " application_name=" + app
	s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: pgtest.Schema(t)})
	require.NoError(t, err)
	defer s.Close()
	// Several connections in the pool.
	errs := make(chan error, 8)
	for i := range 8 {
		go func() { errs <- s.Update(ctx, put(fmt.Sprint("k", i))) }()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}

	admin, err := pgx.Connect(ctx, pgtest.DSN(t))
	require.NoError(t, err)
	defer admin.Close(ctx)
	var ended int
	require.NoError(t, admin.QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = $1) AS t`, app).Scan(&ended))
	require.Positive(t, ended)
	// The server has sent its notice once the backends are gone.
	require.Eventually(t, func() bool {
		var n int
		return admin.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", app).Scan(&n) == nil && n == 0
	}, 5*time.Second, 10*time.Millisecond)

	for i := range 8 {
		require.NoError(t, s.Update(ctx, put(fmt.Sprint("again", i))), "update %d", i)
		require.NoError(t, s.RetryableView(ctx, get("k0")), "view %d", i)
	}
}

// TestUnavailable_CommitUnknown: a connection lost after the commit was
// sent leaves its outcome unknown: the Update answers
// payments.ErrCommitUnknown (an ErrStoreUnavailable), not an uncoded
// error, and does not run again (which could apply it twice).
func TestUnavailable_CommitUnknown(t *testing.T) {
	ctx := context.Background()
	s := pgtest.Open(t)
	lost := errors.New("read tcp: connection reset by peer")
	remove := pgstore.SetCommitHook(func() error { return fmt.Errorf("failed to receive message: %w", ioUnexpectedEOF(lost)) })
	runs := 0
	err := s.Update(ctx, func(tx payments.Tx) error { runs++; return put("c")(tx) })
	remove()
	assert.ErrorIs(t, err, payments.ErrCommitUnknown)
	assert.ErrorIs(t, err, payments.ErrStoreUnavailable)
	assert.Equal(t, payments.CodeServiceUnavailable, payments.CodeOf(err))
	assert.Equal(t, 1, runs, "an Update whose commit may have applied is not run again")
	// It did commit here; the store goes on.
	require.NoError(t, s.RetryableView(ctx, get("c")))
	require.NoError(t, s.Update(ctx, put("d")))

	// Updates that rode in a leader's commit (group commit) share its
	// unknown outcome: none runs again alone.
	remove = pgstore.SetCommitHook(func() error { return ioUnexpectedEOF(lost) })
	defer remove()
	var mu sync.Mutex
	grouped := map[int]int{}
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			errs <- s.Update(ctx, func(tx payments.Tx) error {
				mu.Lock()
				grouped[i]++
				mu.Unlock()
				time.Sleep(time.Millisecond) // let others queue behind
				return put(fmt.Sprint("g", i))(tx)
			})
		}()
	}
	for range 16 {
		assert.ErrorIs(t, <-errs, payments.ErrCommitUnknown)
	}
	for i := range 16 {
		assert.Equal(t, 1, grouped[i], "update %d", i)
	}
}

// ioUnexpectedEOF wraps err with io.ErrUnexpectedEOF, as pgx reports a
// connection that ended in the middle of a message.
func ioUnexpectedEOF(err error) error { return fmt.Errorf("%w: %w", io.ErrUnexpectedEOF, err) }
