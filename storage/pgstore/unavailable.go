package pgstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/paygrid/payments/internal/engine"
)

// An unreachable database is not a fault of the store: while PostgreSQL
// restarts, or when a connection is cut, the store's errors wrap
// payments.ErrStoreUnavailable (the API answers 503 SERVICE_UNAVAILABLE
// with Retry-After), and a commit sent on a connection lost before its
// answer came wraps payments.ErrCommitUnknown as well.

// lostConnection reports whether err says that the database could not be
// reached or the connection was lost: a connection that could not be made,
// a connection closed or broken under a statement (pgx's errors that carry
// no SQLSTATE: end of file, reset, refused, a network error), or a server
// that ends sessions (57P01 admin shutdown, 57P02 crash shutdown, 57P03
// cannot connect now, class 08 connection exceptions, 53300 too many
// connections). The caller's own cancellation is not one.
func lostConnection(ctx context.Context, err error) bool {
	if err == nil || errors.Is(err, engine.ErrUnavailable) {
		return false
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return false
	}
	return connectionLost(err)
}

// connectionLost walks err's tree (errors.Join keeps a failed statement's
// error beside that of the ROLLBACK after it) for a sign of a lost
// connection: any one is enough.
func connectionLost(err error) bool {
	switch e := err.(type) {
	case nil:
		return false
	case *pgconn.PgError:
		switch e.Code {
		case "57P01", "57P02", "57P03", "53300":
			return true
		}
		return strings.HasPrefix(e.Code, "08")
	case *pgconn.ConnectError, net.Error:
		return true
	case interface{ Unwrap() []error }:
		for _, c := range e.Unwrap() {
			if connectionLost(c) {
				return true
			}
		}
		return false
	}
	switch err {
	case pgconn.ErrConnClosed, io.EOF, io.ErrUnexpectedEOF, net.ErrClosed, syscall.ECONNRESET, syscall.ECONNREFUSED, syscall.EPIPE:
		return true
	}
	return connectionLost(errors.Unwrap(err))
}

// unavailable returns err wrapping payments.ErrStoreUnavailable when it
// says the database was unreachable (lostConnection), else err.
func unavailable(ctx context.Context, err error) error {
	if !lostConnection(ctx, err) {
		return err
	}
	return fmt.Errorf("pgstore: %w: %w", engine.ErrUnavailable, err)
}

// commitLost reports whether err, the error of a commit's round trip,
// leaves the commit's outcome unknown: the connection was lost (no
// SQLSTATE from the server) after the batch may have reached it, so
// PostgreSQL may have run its COMMIT. An error the server answered
// (SQLSTATE) aborted the transaction; one pgx raised before sending
// anything (pgconn.SafeToRetry) left it unsent.
func commitLost(err error) bool {
	var pe *pgconn.PgError
	return !errors.As(err, &pe) && !pgconn.SafeToRetry(err) && lostConnection(context.Background(), err)
}

// commitHook, when set (by tests), is called after a commit's round trip
// succeeded; an error it returns stands for the round trip's, at COMMIT:
// a connection cut just there is otherwise hard to bring about.
var commitHook func() error
