package pgtest

import (
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// Proxy stands between stores and the test database: it forwards every
// connection made to its loopback port to the database, and can cut them
// all and refuse new ones (Cut), as a database that restarts or a network
// that fails would, and take connections again (Restore).
type Proxy struct {
	t               testing.TB
	network, target string
	addr            string
	dsn             string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

// NewProxy starts a proxy to the test database (skipping t when none is
// configured); it stops when t ends.
func NewProxy(t testing.TB) *Proxy {
	t.Helper()
	dsn := DSN(t)
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		t.Fatalf("pgtest: proxy: %v", err)
	}
	p := &Proxy{t: t, network: "tcp", target: net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), conns: map[net.Conn]bool{}}
	if strings.HasPrefix(cfg.Host, "/") {
		p.network, p.target = "unix", cfg.Host+"/.s.PGSQL."+strconv.Itoa(int(cfg.Port))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("pgtest: proxy: %v", err)
	}
	p.addr = ln.Addr().String()
	host, port, _ := net.SplitHostPort(p.addr)
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Host = p.addr
		q := u.Query()
		q.Del("host")
		q.Del("port")
		u.RawQuery = q.Encode()
		p.dsn = u.String()
	} else {
		// In a keyword/value DSN the last setting of a keyword wins.
		p.dsn = dsn + " host=" + host + " port=" + port
	}
	p.serve(ln)
	t.Cleanup(p.Cut)
	return p
}

// DSN is the test database's DSN with the proxy's address.
func (p *Proxy) DSN() string { return p.dsn }

// serve accepts on ln until it is closed.
func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

// forward joins c to a new connection to the database.
func (p *Proxy) forward(c net.Conn) {
	d, err := net.Dial(p.network, p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // cut meanwhile
		p.mu.Unlock()
		_, _ = c.Close(), d.Close()
		return
	}
	p.conns[c], p.conns[d] = true, true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(d, c)
	go pipe(c, d)
	<-done
	_, _ = c.Close(), d.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, d)
	p.mu.Unlock()
}

// Cut closes every connection through the proxy and stops listening: the
// stores' connections break and new ones are refused.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
		delete(p.conns, c)
	}
}

// Restore listens again on the same address.
func (p *Proxy) Restore() {
	p.t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("pgtest: proxy: listen again: %v", err)
	}
	p.serve(ln)
}
