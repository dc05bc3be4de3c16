package dashboard_test

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromiumBin is Debian's chromium package's binary (.ci/run installs it).
const chromiumBin = "/usr/bin/chromium"

// browser runs headless Chromium from its command line: no driver, no Go
// module beyond the standard library.
type browser struct {
	bin, profile string
}

// newBrowser returns the browser, skipping the test when Chromium is not
// installed, unless CI is set (then it fails: CI installs it).
func newBrowser(t *testing.T) *browser {
	t.Helper()
	bin := chromiumBin
	if p := os.Getenv("PAYMENTS_CHROMIUM"); p != "" {
		bin = p
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but Chromium is missing at %s: %v", bin, err)
		}
		t.Skipf("Chromium is not installed at %s (apt-get install chromium); skipping the browser test", bin)
	}
	return &browser{bin: bin, profile: t.TempDir()}
}

// run runs Chromium headless with args and returns its standard output.
// Each run is a fresh browser process sharing one profile directory, so a
// session cookie set by one run is sent by the next. A browser that dies
// of a signal of its own (Chromium occasionally segfaults at start on a
// loaded machine) is run again, twice at most.
func (b *browser) run(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--disable-extensions", "--disable-background-networking", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + b.profile}
	for attempt := 1; ; attempt++ {
		cmd := exec.CommandContext(ctx, b.bin, append(base, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == -1 && ctx.Err() == nil && attempt < 3 {
			t.Logf("chromium %v died (%v); running it again", args, err)
			continue
		}
		require.NoError(t, err, "chromium %v: %s", args, stderr.String())
		return string(out)
	}
}

// dom loads u and returns the DOM as the browser built it.
func (b *browser) dom(t *testing.T, u string) string {
	t.Helper()
	return b.run(t, "--dump-dom", u)
}

// screenshot saves a 1280×900 PNG of u as file and checks it is a PNG.
func (b *browser) screenshot(t *testing.T, u, file string) {
	t.Helper()
	b.run(t, "--screenshot="+file, "--window-size=1280,900", u)
	png, err := os.ReadFile(file)
	require.NoError(t, err)
	require.True(t, len(png) > 8 && string(png[1:4]) == "PNG", "%s is not a PNG", file)
}

// screenshotDir is where screenshots go: $PAYMENTS_SCREENSHOTS when set
// (CI sets /tmp/screenshots and keeps it), else a temporary directory.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PAYMENTS_SCREENSHOTS")
	if dir == "" {
		return t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// TestDashboard_Browser loads every page in headless Chromium after
// signing in with a one-time login link, checks that it shows what the
// engine holds, and takes a screenshot of each.
func TestDashboard_Browser(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, nil)
	s := e.seed(t)
	dir := screenshotDir(t)

	// Without a session the browser is challenged for credentials (a
	// headless one shows nothing).
	dom := b.dom(t, e.srv.URL+"/dashboard/customers")
	assert.NotContains(t, dom, s.customer.ID)
	assert.NotContains(t, dom, "<nav>")

	// The login link opens a session; the redirect lands on the overview.
	dom = b.dom(t, e.srv.URL+e.d.LoginLink())
	assert.Contains(t, dom, "<h1>Overview</h1>")
	assert.Contains(t, dom, s.transaction.ID)

	// Every page shows what the engine holds; the main ones are also
	// photographed (each Chromium run takes a second or more).
	pages := []struct {
		name, path string
		want       []string
		shot       bool
	}{
		{"overview", "/dashboard/", []string{"Latest transactions", s.customer.ID, s.transaction.ID, "2025-10-13 12:00:00 UTC"}, true},
		{"customers", "/dashboard/customers", []string{s.customer.ID, "Ada Lovelace", string(s.customer.Status())}, false},
		{"accounts", "/dashboard/accounts", []string{s.account, "876.55 USD"}, true},
		{"external-accounts", "/dashboard/external-accounts", []string{s.external.ID, "USD_ACCOUNT"}, false},
		{"quotes", "/dashboard/quotes", []string{s.executed.ID, s.pending.ID, "123.45 USD"}, false},
		{"transactions", "/dashboard/transactions", []string{s.transaction.ID, "OUTGOING"}, false},
		{"transaction", "/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID), []string{s.executed.ID, "OUTGOING_PAYMENT.", "DELIVERED"}, true},
		{"quote", "/dashboard/quote?id=" + url.QueryEscape(s.executed.ID), []string{s.transaction.ID, "OUTGOING_PAYMENT."}, false},
		{"webhooks", "/dashboard/webhooks", []string{"INTERNAL_ACCOUNT.BALANCE_UPDATED", "DELIVERED"}, true},
		{"dead-letters", "/dashboard/dead-letters", []string{"No dead-lettered work."}, false},
		{"clock", "/dashboard/clock", []string{"2025-10-13 12:00:00 UTC", "Advance by"}, false},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			dom := b.dom(t, e.srv.URL+p.path)
			for _, w := range p.want {
				assert.Contains(t, dom, w)
			}
			assert.NotContains(t, dom, `class="error"`)
			if p.shot {
				b.screenshot(t, e.srv.URL+p.path, filepath.Join(dir, "dashboard-"+p.name+".png"))
			}
		})
	}
}
