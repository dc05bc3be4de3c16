//go:build unix

package pgstore

import (
	"syscall"

	"github.com/jackc/pgx/v5"
)

// alive reports whether an idle connection still stands: its socket has
// neither been closed by the server nor received anything (an idle
// connection is sent nothing but the notice of its end, such as 57P01
// when an administrator or a restart ends sessions). One non-blocking
// peek, no round trip: a connection found dead is replaced before a
// commit is sent on it, whose outcome would then be unknown.
func alive(c *pgx.Conn) bool {
	sc, ok := c.PgConn().Conn().(syscall.Conn)
	if !ok {
		return true
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	ok = true
	var buf [1]byte
	// Control, not Read: pgx's background reader may still wait on the
	// socket (it holds the read lock Read takes, until data comes); a
	// peek that does not wait needs no lock and consumes nothing.
	_ = raw.Control(func(fd uintptr) {
		n, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		// Nothing to read (EAGAIN) is the one sign of life.
		ok = n <= 0 && (err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || err == syscall.EINTR)
	})
	return ok
}
