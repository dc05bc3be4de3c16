package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sync/atomic"
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

// TestRun_ClockSurvivesRestart: the sandbox clock's reading is kept in the
// database: after a restart it resumes where it stood (2030, not today),
// frozen or running, and a delivery scheduled at the advanced time is
// made.
func TestRun_ClockSurvivesRestart(t *testing.T) {
	var answer atomic.Int32
	answer.Store(http.StatusServiceUnavailable)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(int(answer.Load())) }))
	defer recv.Close()
	db := filepath.Join(t.TempDir(), "pay.db")
	cred := "clock-client:clock-secret-0123456789"
	start := func() (string, func()) {
		ctx, cancel := context.WithCancel(context.Background())
		ready, errc := make(chan string, 1), make(chan error, 1)
		go func() {
			errc <- run(ctx, []string{"-db", db, "-addr", "127.0.0.1:0", "-token", cred, "-log-level", "error"},
				func(string) string { return "" }, io.Discard, ready)
		}()
		return <-ready, func() { cancel(); require.NoError(t, <-errc) }
	}
	clockOf := func(base string) (time.Time, bool) {
		status, clock := call(t, cred, "GET", base+"/sandbox/clock", "")
		require.Equal(t, 200, status)
		now, err := time.Parse(time.RFC3339Nano, clock["now"].(string))
		require.NoError(t, err)
		return now, clock["frozen"].(bool)
	}

	base, stop := start()
	status, _ := call(t, cred, "PATCH", base+"/config", `{"webhookEndpoint":"`+recv.URL+`/hooks"}`)
	require.Equal(t, 200, status)
	status, body := call(t, cred, "POST", base+"/sandbox/clock/advance", `{"to":"2030-01-01T00:00:00Z"}`)
	require.Equal(t, 200, status, "%v", body)
	status, accts := call(t, cred, "GET", base+"/platform/internal-accounts", "")
	require.Equal(t, 200, status)
	acct := accts["data"].([]any)[0].(map[string]any)["id"].(string)
	status, _ = call(t, cred, "POST", base+"/sandbox/internal-accounts/"+acct+"/fund", `{"amount":100}`)
	require.Equal(t, 200, status)
	require.Eventually(t, func() bool {
		_, page := call(t, cred, "GET", base+"/sandbox/webhooks?status=PENDING&type=INTERNAL_ACCOUNT.BALANCE_UPDATED", "")
		data := page["data"].([]any)
		return len(data) == 1 && data[0].(map[string]any)["attempts"].(float64) >= 1
	}, 10*time.Second, 20*time.Millisecond, "the delivery failed and waits for 2030's retry")
	stop()

	answer.Store(http.StatusOK)
	base, stop = start()
	now, frozen := clockOf(base)
	assert.False(t, frozen)
	assert.False(t, now.Before(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)), "resumed at %s", now)
	require.Eventually(t, func() bool {
		_, page := call(t, cred, "GET", base+"/sandbox/webhooks?status=PENDING", "")
		return len(page["data"].([]any)) == 0
	}, 10*time.Second, 20*time.Millisecond, "the retry scheduled in 2030 was made")
	status, _ = call(t, cred, "POST", base+"/sandbox/clock/freeze", "")
	require.Equal(t, 200, status)
	frozenAt, _ := clockOf(base)
	stop()

	base, stop = start()
	defer stop()
	now, frozen = clockOf(base)
	assert.True(t, frozen)
	assert.Equal(t, frozenAt, now, "frozen where it stood")
}
