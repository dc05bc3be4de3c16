package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startServer runs the server in memory with extra flags and returns its
// base URL, the cancel function and the channel run's result arrives on.
func startServer(t *testing.T, flags ...string) (string, context.CancelFunc, <-chan error) {
	t.Helper()
	errc := make(chan error, 1)
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		errc <- run(ctx, append([]string{"-memory", "-addr", "127.0.0.1:0", "-token", "limits-client:limits-secret-0123456789"}, flags...),
			func(string) string { return "" }, io.Discard, ready)
	}()
	select {
	case base := <-ready:
		return base, cancel, errc
	case err := <-errc:
		t.Fatalf("server did not start: %v", err)
	}
	return "", nil, nil
}

// slowBody opens a connection and sends a POST that announces a 100-byte
// body and sends 6 bytes of it.
func slowBody(t *testing.T, base string) net.Conn {
	t.Helper()
	u := strings.TrimPrefix(base, "http://")
	host, path, _ := strings.Cut(u, "/")
	conn, err := net.Dial("tcp", host)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = io.WriteString(conn, "POST /"+path+"/tokens HTTP/1.1\r\nHost: "+host+"\r\nContent-Type: application/json\r\n"+
		"Authorization: Basic bGltaXRzLWNsaWVudDpsaW1pdHMtc2VjcmV0LTAxMjM0NTY3ODk=\r\nContent-Length: 100\r\n\r\n{\"nam")
	require.NoError(t, err)
	return conn
}

// TestServer_BoundsBodyReads: a body that never completes is answered when
// -body-timeout passes instead of holding the connection.
func TestServer_BoundsBodyReads(t *testing.T) {
	base, _, _ := startServer(t, "-body-timeout", "300ms")
	conn := slowBody(t, base)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	start := time.Now()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "the server answers (or closes) before 5 s")
	defer res.Body.Close()
	assert.Equal(t, 400, res.StatusCode)
	assert.Less(t, time.Since(start), 4*time.Second)
}

// TestServer_ShutdownIsBounded: SIGTERM (a cancelled context) with a stuck
// request in flight stops the server after -shutdown-timeout.
func TestServer_ShutdownIsBounded(t *testing.T) {
	base, cancel, errc := startServer(t, "-body-timeout", "1h", "-shutdown-timeout", "200ms")
	slowBody(t, base)
	time.Sleep(100 * time.Millisecond) // the request is being read
	start := time.Now()
	cancel()
	select {
	case <-errc:
		assert.Less(t, time.Since(start), 3*time.Second)
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown waited on the stuck request")
	}
}

// TestEngineConfig_SandboxDefaults: the server follows the reference and
// the hosted sandbox by default; flags turn each behaviour off.
func TestEngineConfig_SandboxDefaults(t *testing.T) {
	o, err := parseFlags(nil, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	cfg := engineConfig(o, nil, nil, nil)
	assert.True(t, cfg.IncomingApproval, "202 answers to INCOMING_PAYMENT.PENDING are honoured")
	assert.True(t, cfg.SkipCheckDigits, "identifiers checked against the published patterns only")
	o, err = parseFlags([]string{"-incoming-approval=false", "-strict-check-digits"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	cfg = engineConfig(o, nil, nil, nil)
	assert.False(t, cfg.IncomingApproval)
	assert.False(t, cfg.SkipCheckDigits)
}

// gcPercent reads the collector's target.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestRun_MemoryGCTarget: a server on the memory store collects garbage at
// memoryGCTarget while it runs, unless GOGC chooses, and gives the process
// its target back when it stops; other stores leave it alone.
func TestRun_MemoryGCTarget(t *testing.T) {
	before := gcPercent()
	run1 := func(getenv func(string) string, flags ...string) int {
		ctx, cancel := context.WithCancel(context.Background())
		errc, ready := make(chan error, 1), make(chan string, 1)
		go func() {
			errc <- run(ctx, append([]string{"-addr", "127.0.0.1:0", "-token", "gc-client:gc-secret-0123456789"}, flags...), getenv, io.Discard, ready)
		}()
		select {
		case <-ready:
		case err := <-errc:
			t.Fatalf("server did not start: %v", err)
		}
		p := gcPercent()
		cancel()
		require.NoError(t, <-errc)
		require.Equal(t, before, gcPercent(), "the target is given back")
		return p
	}
	none := func(string) string { return "" }
	require.Equal(t, memoryGCTarget, run1(none, "-memory"))
	require.Equal(t, before, run1(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}, "-memory"), "GOGC chooses")
	require.Equal(t, before, run1(none, "-db", filepath.Join(t.TempDir(), "p.db")), "bbolt keeps its data off the heap")
}
