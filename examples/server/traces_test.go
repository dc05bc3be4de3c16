package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collector is an OTLP/HTTP trace receiver that keeps what it was sent.
type collector struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	if r.URL.Path == "/v1/traces" && r.Header.Get("Content-Type") == "application/x-protobuf" {
		c.mu.Lock()
		c.bodies = append(c.bodies, b)
		c.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
}

// received reports whether some export carried s (span names and
// attribute values travel as plain bytes in the protobuf).
func (c *collector) received(s string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range c.bodies {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// TestRun_Traces: with OTEL_EXPORTER_OTLP_ENDPOINT set the server exports
// the spans of a request, its operation and its store transaction over
// OTLP/HTTP (flushed at shutdown), continuing the caller's trace, and its
// log lines carry the trace id; without it it prints no traces line.
func TestRun_Traces(t *testing.T) {
	c := &collector{}
	otlp := httptest.NewServer(c)
	defer otlp.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc, ready := make(chan error, 1), make(chan string, 1)
	var out, logs syncBuffer
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": otlp.URL, "PAYMENTS_API_TOKEN": "trace-client:trace-secret-0123456789"}
	go func() {
		errc <- runLogging(ctx, []string{"-memory", "-addr", "127.0.0.1:0", "-log-format", "json"}, func(k string) string { return env[k] }, &out, &logs, ready)
	}()
	base := <-ready
	assert.Contains(t, out.String(), "traces: OTLP/HTTP to "+otlp.URL+"/v1/traces")
	const trace = "4bf92f3577b34da6a3ce929d0e0e4736"
	status, _ := call(t, env["PAYMENTS_API_TOKEN"], "GET", base+"/config", "", "traceparent", "00-"+trace+"-00f067aa0ba902b7-01")
	require.Equal(t, http.StatusOK, status)
	cancel()
	require.NoError(t, <-errc)

	for _, s := range []string{"GET /config", "platform.Config", "store.read", "payments.request_id", "payments-sandbox"} {
		assert.True(t, c.received(s), "the export carries %q", s)
	}
	line := regexp.MustCompile(`\{[^\n]*"msg":"request"[^\n]*\}`).FindString(logs.String())
	assert.Contains(t, line, `"trace_id":"`+trace+`"`, "the request line carries the trace id")

	_, out2 := serve(t)
	assert.NotContains(t, out2.String(), "traces:")
	assert.False(t, strings.Contains(out2.String(), "OTLP"))
}
