package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serve runs the server with args on a free port and returns the API's
// base URL and what it printed; it stops when the test ends.
func serve(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc, ready := make(chan error, 1), make(chan string, 1)
	out := &syncBuffer{}
	go func() {
		errc <- run(ctx, append([]string{"-memory", "-addr", "127.0.0.1:0", "-token", "dash-client:dash-secret-0123456789"}, args...),
			func(string) string { return "" }, out, ready)
	}()
	base := <-ready
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-errc)
	})
	return base, out
}

// TestRun_Dashboard: the server mounts the dashboard at /dashboard/ and
// prints a one-time login link that opens it; the API token opens it too;
// its clock button advances the sandbox clock.
func TestRun_Dashboard(t *testing.T) {
	base, out := serve(t)
	origin := strings.TrimSuffix(base, "/2025-10-13")
	m := regexp.MustCompile(`dashboard: (\S+) .*once without it: (\S+)`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	assert.Equal(t, origin+"/dashboard/", m[1])

	res, err := http.Get(m[1])
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	res, err = browser.Get(m[2])
	require.NoError(t, err)
	page, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(page), "<h1>Overview</h1>")
	assert.NotContains(t, string(page), "this server runs on real time")
	assert.Contains(t, string(page), "clock/advance", "the sandbox clock can be advanced")

	req, _ := http.NewRequest(http.MethodGet, origin+"/dashboard/accounts", nil)
	req.SetBasicAuth("dash-client", "dash-secret-0123456789")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	page, _ = io.ReadAll(res.Body)
	_ = res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(page), "0.00 USD", "the platform's USD account")

	status, _ := call(t, "dash-client:dash-secret-0123456789", "GET", base+"/config", "", "X-Request-Id", "dash-trace")
	assert.Equal(t, http.StatusOK, status, "the API is still served")

	// The clock can be frozen (it runs on real time), and the request log
	// shows the API's requests.
	for path, want := range map[string]string{"/dashboard/clock": "clock/freeze", "/dashboard/requests": "dash-trace"} {
		res, err := browser.Get(origin + path)
		require.NoError(t, err)
		page, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode, path)
		assert.Contains(t, string(page), want, path)
	}
}

// TestRun_DashboardOff: -dashboard=false serves the API alone.
func TestRun_DashboardOff(t *testing.T) {
	base, out := serve(t, "-dashboard=false")
	assert.NotContains(t, out.String(), "dashboard")
	req, _ := http.NewRequest(http.MethodGet, strings.TrimSuffix(base, "/2025-10-13")+"/dashboard/", nil)
	req.SetBasicAuth("dash-client", "dash-secret-0123456789")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
	assert.NotContains(t, res.Header.Get("Content-Type"), "text/html")
}
