package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// get fetches url without credentials and returns the status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestRun_Probes: /healthz and /readyz are served outside the API's base
// path, without credentials; the start lines name them and the database.
func TestRun_Probes(t *testing.T) {
	base, out := serve(t)
	origin := strings.TrimSuffix(base, "/2025-10-13")
	status, body := get(t, origin+"/healthz")
	assert.Equal(t, 200, status)
	assert.JSONEq(t, `{"status":"ok"}`, body)
	status, body = get(t, origin+"/readyz")
	assert.Equal(t, 200, status)
	assert.JSONEq(t, `{"status":"ready","checks":{"store":"ok","workers":"ok"}}`, body)
	status, _ = get(t, base+"/healthz")
	assert.Equal(t, 404, status, "not under the base path")
	assert.Contains(t, out.String(), "database: in memory")
	assert.Contains(t, out.String(), "probes: "+origin+"/healthz")
}

// TestRun_PrintsTheDatabasePath: a server on a file names it, absolute.
func TestRun_PrintsTheDatabasePath(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	ready, errc := make(chan string, 1), make(chan error, 1)
	var out syncBuffer
	go func() {
		errc <- run(ctx, []string{"-db", filepath.Join(dir, "pay.db"), "-addr", "127.0.0.1:0", "-log-level", "error"},
			func(string) string { return "" }, &out, ready)
	}()
	<-ready
	cancel()
	require.NoError(t, <-errc)
	assert.Contains(t, out.String(), "database: "+filepath.Join(dir, "pay.db")+" (webhook signing key in ")
	assert.Contains(t, out.String(), "API token (clientId:secret): ", "the first start")
}

// TestRun_ReadyFailsWhileDraining: on shutdown /readyz fails for
// -shutdown-delay while the API still answers, then the server stops.
func TestRun_ReadyFailsWhileDraining(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready, errc := make(chan string, 1), make(chan error, 1)
	cred := "drain-client:drain-secret-0123456789"
	var out syncBuffer
	go func() {
		errc <- run(ctx, []string{"-memory", "-addr", "127.0.0.1:0", "-token", cred, "-shutdown-delay", "2s", "-log-level", "error"},
			func(string) string { return "" }, &out, ready)
	}()
	base := <-ready
	origin := strings.TrimSuffix(base, "/2025-10-13")
	status, _ := get(t, origin+"/readyz")
	require.Equal(t, 200, status)
	began := time.Now()
	cancel()
	require.Eventually(t, func() bool { s, _ := get(t, origin+"/readyz"); return s == 503 }, time.Second, 10*time.Millisecond)
	_, body := get(t, origin+"/readyz")
	assert.Contains(t, body, `"shutdown":"draining"`)
	status, _ = call(t, cred, "GET", base+"/config", "")
	assert.Equal(t, 200, status, "requests are still served while draining")
	require.NoError(t, <-errc)
	assert.GreaterOrEqual(t, time.Since(began), 2*time.Second)
}

// TestRun_Pprof: -pprof serves the runtime's profiles on an address of
// their own (-pprof-addr, loopback by default), printed at start, never on
// the API's; they are off by default; the command line, which may carry
// the secrets, is not served.
func TestRun_Pprof(t *testing.T) {
	base, _ := serve(t)
	origin := strings.TrimSuffix(base, "/2025-10-13")
	status, _ := get(t, origin+"/debug/pprof/")
	assert.Equal(t, 404, status)

	base, out := serve(t, "-pprof")
	origin = strings.TrimSuffix(base, "/2025-10-13")
	m := regexp.MustCompile(`profiles: (http://127\.0\.0\.1:\d+)/debug/pprof/`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	profiles := m[1]
	assert.NotEqual(t, origin, profiles)
	status, body := get(t, profiles+"/debug/pprof/")
	assert.Equal(t, 200, status)
	assert.Contains(t, body, "goroutine")
	status, body = get(t, profiles+"/debug/pprof/goroutine?debug=1")
	assert.Equal(t, 200, status)
	assert.Contains(t, body, "goroutine profile")
	for _, u := range []string{profiles + "/debug/pprof/cmdline", origin + "/debug/pprof/cmdline", origin + "/debug/pprof/", origin + "/debug/pprof/goroutine?debug=1"} {
		status, body = get(t, u)
		assert.Equal(t, 404, status, u)
		assert.NotContains(t, body, "dash-secret", u)
	}

	_, err := parseFlags([]string{"-pprof", "-pprof-addr", "127.0.0.1:99999"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() {
		errc <- run(context.Background(), []string{"-memory", "-addr", "127.0.0.1:0", "-pprof", "-pprof-addr", "127.0.0.1:99999", "-log-level", "error"},
			func(string) string { return "" }, io.Discard, nil)
	}()
	assert.ErrorContains(t, <-errc, "-pprof-addr")
}

// TestRun_SecretsFromFiles: the API credential and the PostgreSQL DSN may
// come from files (-token-file, -postgres-file, or the same through
// PAYMENTS_API_TOKEN_FILE and PAYMENTS_POSTGRES_FILE) or the environment
// (PAYMENTS_API_TOKEN, PAYMENTS_POSTGRES), so that they need not be on the
// command line; a flag and its file exclude each other.
func TestRun_SecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	cred := "file-client:file-secret-0123456789"
	tokenFile, dsnFile := filepath.Join(dir, "token"), filepath.Join(dir, "dsn")
	require.NoError(t, os.WriteFile(tokenFile, []byte(cred+"\n"), 0o600))
	require.NoError(t, os.WriteFile(dsnFile, []byte("host=/nowhere password=pg-secret\n"), 0o600))
	none := func(string) string { return "" }

	ctx, cancel := context.WithCancel(context.Background())
	ready, errc := make(chan string, 1), make(chan error, 1)
	var out syncBuffer
	go func() {
		errc <- run(ctx, []string{"-memory", "-addr", "127.0.0.1:0", "-token-file", tokenFile, "-log-level", "error"}, none, &out, ready)
	}()
	base := <-ready
	status, _ := call(t, cred, "GET", base+"/config", "")
	assert.Equal(t, 200, status, "the credential of the file")
	cancel()
	require.NoError(t, <-errc)

	o, err := parseFlags([]string{"-postgres-file", dsnFile}, none, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "host=/nowhere password=pg-secret", o.postgres)
	env := map[string]string{"PAYMENTS_API_TOKEN_FILE": tokenFile, "PAYMENTS_POSTGRES_FILE": dsnFile}
	o, err = parseFlags(nil, func(k string) string { return env[k] }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, cred, o.token)
	assert.Equal(t, "host=/nowhere password=pg-secret", o.postgres)
	env = map[string]string{"PAYMENTS_API_TOKEN": cred, "PAYMENTS_POSTGRES": "host=/env"}
	o, err = parseFlags(nil, func(k string) string { return env[k] }, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, cred, o.token)
	assert.Equal(t, "host=/env", o.postgres)

	_, err = parseFlags([]string{"-token", cred, "-token-file", tokenFile}, none, io.Discard)
	assert.ErrorContains(t, err, "-token and -token-file exclude each other")
	_, err = parseFlags([]string{"-postgres", "host=/x", "-postgres-file", dsnFile}, none, io.Discard)
	assert.ErrorContains(t, err, "-postgres and -postgres-file exclude each other")
	_, err = parseFlags([]string{"-token-file", filepath.Join(dir, "missing")}, none, io.Discard)
	assert.ErrorContains(t, err, "-token-file")
}

// TestParseFlags_LogFormat: -log-format is text (the default) or json.
func TestParseFlags_LogFormat(t *testing.T) {
	env := func(string) string { return "" }
	o, err := parseFlags(nil, env, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "text", o.logFormat)
	o, err = parseFlags([]string{"-log-format", "json"}, env, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "json", o.logFormat)
	_, err = parseFlags([]string{"-log-format", "xml"}, env, io.Discard)
	assert.ErrorContains(t, err, "-log-format")
}

// TestNewLogger: -log-format json writes a JSON object a line, and the
// lines of an API request carry its request id.
func TestNewLogger(t *testing.T) {
	for _, format := range []string{"json", "text"} {
		t.Run(format, func(t *testing.T) {
			var buf syncBuffer
			o, err := parseFlags([]string{"-log-format", format}, func(string) string { return "" }, io.Discard)
			require.NoError(t, err)
			logger := newLogger(o, &buf)
			eng, err := payments.New(payments.Config{Store: memstore.New(), Logger: logger})
			require.NoError(t, err)
			defer eng.Close()
			srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{Logger: logger}))
			defer srv.Close()
			req, _ := http.NewRequest("GET", srv.URL+"/config", nil)
			req.Header.Set("X-Request-Id", "trace-42")
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			_ = res.Body.Close()
			line := ""
			for l := range strings.SplitSeq(buf.String(), "\n") {
				if strings.Contains(l, "/config") {
					line = l
				}
			}
			require.NotEmpty(t, line, buf.String())
			if format == "json" {
				var m map[string]any
				require.NoError(t, json.Unmarshal([]byte(line), &m), line)
				assert.Equal(t, "request", m["msg"])
				assert.Equal(t, "trace-42", m["request_id"])
				assert.EqualValues(t, 401, m["status"])
			} else {
				assert.Contains(t, line, "msg=request")
				assert.Contains(t, line, "request_id=trace-42")
			}
		})
	}
}
