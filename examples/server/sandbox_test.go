package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun_ChosenPortAndClock starts the server on port 0: it prints the
// port it got, answers with request ids, and its clock follows real time
// until advanced.
func TestRun_ChosenPortAndClock(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	var out syncBuffer
	cred := "clock-client:clock-secret-0123456789"
	go func() {
		errc <- run(ctx, []string{"-memory", "-addr", "127.0.0.1:0", "-token", cred, "-log-level", "warn"},
			func(string) string { return "" }, &out, ready)
	}()
	base := <-ready
	m := regexp.MustCompile(`listening on (http://127\.0\.0\.1:([0-9]+)/2025-10-13)\n`).FindStringSubmatch(out.String())
	require.NotNil(t, m, "%s", out.String())
	assert.NotEqual(t, "0", m[2], "the port the system chose")
	assert.Equal(t, base, m[1])

	status, clock := call(t, cred, "GET", base+"/sandbox/clock", "")
	require.Equal(t, 200, status)
	assert.Equal(t, false, clock["frozen"], "the server runs on real time")
	before := time.Now()
	status, clock = call(t, cred, "POST", base+"/sandbox/clock/advance", `{"duration":"48h"}`)
	require.Equal(t, 200, status, "%v", clock)
	now, err := time.Parse(time.RFC3339Nano, clock["now"].(string))
	require.NoError(t, err)
	assert.False(t, now.Before(before.Add(48*time.Hour).Truncate(time.Millisecond)), "%s", now)
	status, cfg := call(t, cred, "GET", base+"/config", "")
	require.Equal(t, 200, status)
	assert.NotEmpty(t, cfg["id"])

	req, _ := http.NewRequest("GET", base+"/config", nil)
	req.Header.Set("X-Request-Id", "my-trace-1")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 401, res.StatusCode)
	assert.Equal(t, "my-trace-1", res.Header.Get("X-Request-Id"))
	cancel()
	require.NoError(t, <-errc)
}

func TestParseFlags_LogLevel(t *testing.T) {
	env := func(string) string { return "" }
	o, err := parseFlags(nil, env, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, slog.LevelInfo, o.logLevel)
	o, err = parseFlags([]string{"-log-level", "debug"}, env, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, slog.LevelDebug, o.logLevel)
	_, err = parseFlags([]string{"-log-level", "loud"}, env, io.Discard)
	assert.Error(t, err)
}
