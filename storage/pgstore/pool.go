package pgstore

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
)

// pool is a small bounded pool of connections: at most cap(slots) are open
// or being opened at once, idle ones are reused newest first, and a
// connection that failed is dropped rather than returned.
type pool struct {
	cfg   *pgx.ConnConfig
	slots chan struct{}

	mu     sync.Mutex
	idle   []*pgx.Conn
	closed bool
}

func newPool(cfg *pgx.ConnConfig, size int) *pool {
	return &pool{cfg: cfg, slots: make(chan struct{}, size)}
}

// acquire returns a connection, waiting for a free slot: an idle one that
// is still alive, else a new one.
func (p *pool) acquire(ctx context.Context) (*pgx.Conn, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		<-p.slots
		return nil, payments.ErrClosed
	}
	for n := len(p.idle); n > 0; n = len(p.idle) {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		if alive(c) {
			return c, nil
		}
		// Ended by the server while idle (a restart, a cut): replaced.
		_ = c.Close(context.Background())
		p.mu.Lock()
	}
	p.mu.Unlock()
	c, err := pgx.ConnectConfig(ctx, p.cfg)
	if err != nil {
		<-p.slots
		return nil, err
	}
	return c, nil
}

// release gives c back; broken connections (or any after close) are closed.
func (p *pool) release(c *pgx.Conn, broken bool) {
	defer func() { <-p.slots }()
	p.mu.Lock()
	if broken || p.closed || c.IsClosed() {
		p.mu.Unlock()
		_ = c.Close(context.Background())
		return
	}
	p.idle = append(p.idle, c)
	p.mu.Unlock()
}

// close closes the idle connections; busy ones close when released.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, c := range idle {
		_ = c.Close(context.Background())
	}
}
