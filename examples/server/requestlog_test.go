package main

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun_RequestStreamEndsOnShutdown: a client following the request log
// (GET /sandbox/requests/stream) receives the requests made after it
// connected, and the server's shutdown ends its stream at once instead of
// waiting out -shutdown-timeout for it.
func TestRun_RequestStreamEndsOnShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc, ready := make(chan error, 1), make(chan string, 1)
	go func() {
		errc <- run(ctx, []string{"-memory", "-addr", "127.0.0.1:0", "-token", "dash-client:dash-secret-0123456789", "-shutdown-timeout", "30s"},
			func(string) string { return "" }, &syncBuffer{}, ready)
	}()
	base := <-ready
	get := func(path string, hdr ...string) *http.Response {
		req, err := http.NewRequest("GET", base+path, nil)
		require.NoError(t, err)
		req.SetBasicAuth("dash-client", "dash-secret-0123456789")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		return res
	}
	stream := get("/sandbox/requests/stream?path=/config")
	defer stream.Body.Close()
	require.Equal(t, 200, stream.StatusCode)
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stream.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	res := get("/config")
	res.Body.Close()
	deadline := time.After(5 * time.Second)
	for found := false; !found; {
		select {
		case l := <-lines:
			found = strings.HasPrefix(l, "data: ") && strings.Contains(l, `"path":"/2025-10-13/config"`)
		case <-deadline:
			t.Fatal("the request made after connecting did not arrive")
		}
	}

	began := time.Now()
	cancel()
	select {
	case err := <-errc:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not shut down with a stream open")
	}
	assert.Less(t, time.Since(began), 5*time.Second)
	for range lines {
	}
}
