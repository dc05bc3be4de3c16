package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
)

// chromiumBin is Debian's chromium package's binary (.ci/run installs it).
const chromiumBin = "/usr/bin/chromium"

// browser is headless Chromium, driven over its DevTools debugging pipe
// (cdp_test.go): no driver, no Go module beyond the standard library.
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

// flags are the command-line flags of every run: headless, with nothing
// reaching outside the machine, on a fresh profile.
func (b *browser) flags() []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + b.profile}
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

// TestDashboard_Browser signs in to the dashboard in headless Chromium
// with a one-time login link and uses it as a person does, with the
// mouse and the keyboard: every page shows what the engine holds; the
// clock's buttons (+1m, +10m, a typed duration, Freeze, Resume) move the
// clock; Resend sends a failed webhook again; Trigger makes an event of
// the chosen type happen; the pages stay readable on
// a phone's narrow screen; Log out ends the session. Screenshots of the
// main pages go to screenshotDir.
func TestDashboard_Browser(t *testing.T) {
	b := newBrowser(t)
	var failing atomic.Bool // the webhook endpoint answers 503
	failing.Store(true)
	var sent atomic.Int64
	e := newEnv(t, func(_ context.Context, ev payments.Event) error {
		sent.Add(1)
		if failing.Load() {
			return errTemporary
		}
		return nil
	})
	s := e.seed(t)
	dir := screenshotDir(t)
	p := b.open(t)
	p.viewport(1280, 900, false)

	// The login link opens a session; the redirect lands on the overview.
	p.navigate(e.srv.URL + e.d.LoginLink())
	require.Equal(t, "Overview", p.text("h1"), p.html())
	assert.NotEmpty(t, p.cookies()["payments_dashboard"])

	t.Run("Pages", func(t *testing.T) {
		req, _ := http.NewRequest("GET", e.srv.URL+"/api/config", nil)
		req.SetBasicAuth(e.admin.ClientID, e.admin.ClientSecret)
		req.Header.Set("X-Request-Id", "browser-trace-1")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = res.Body.Close()
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
			{"transaction", "/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID), []string{s.executed.ID, "OUTGOING_PAYMENT.", "PENDING", "Resend"}, true},
			{"quote", "/dashboard/quote?id=" + url.QueryEscape(s.executed.ID), []string{s.transaction.ID, "OUTGOING_PAYMENT."}, false},
			{"webhooks", "/dashboard/webhooks", []string{"INTERNAL_ACCOUNT.BALANCE_UPDATED", "PENDING", "endpoint answered 503"}, false},
			{"dead-letters", "/dashboard/dead-letters", []string{"No dead-lettered work."}, false},
			{"requests", "/dashboard/requests", []string{"GET /api/config", "browser-trace-1", e.admin.ClientID}, true},
			{"clock", "/dashboard/clock", []string{"2025-10-13 12:00:00 UTC", "Advance by", "frozen"}, false},
		}
		for _, pg := range pages {
			p.navigate(e.srv.URL + pg.path)
			body := p.text("body")
			for _, w := range pg.want {
				assert.Contains(t, body, w, pg.name)
			}
			assert.Empty(t, p.text(".error"), pg.name)
			if pg.shot {
				p.screenshot(filepath.Join(dir, "dashboard-"+pg.name+".png"))
			}
		}
	})

	t.Run("ClockButtons", func(t *testing.T) {
		start := e.clock.Now()
		p.navigate(e.srv.URL + "/dashboard/clock")
		require.Equal(t, "2025-10-13 12:00:00 UTC", p.text(".big"))
		p.clickLoads(`button[name="duration"][value="1m"]`)
		assert.Equal(t, "2025-10-13 12:01:00 UTC", p.text(".big"), "back on the clock page, a minute later")
		assert.Equal(t, start.Add(time.Minute), e.clock.Now())
		p.clickLoads(`button[name="duration"][value="10m"]`)
		assert.Equal(t, "2025-10-13 12:11:00 UTC", p.text(".big"))
		p.typeInto(`input[name="custom"]`, "1h30m")
		p.clickLoads(`input[name="custom"] ~ button, label + button`)
		assert.Equal(t, "2025-10-13 13:41:00 UTC", p.text(".big"))
		assert.Equal(t, start.Add(101*time.Minute), e.clock.Now())
		_, body := e.get(t, "/dashboard/quotes", e.viewer)
		assert.Contains(t, row(t, body, s.pending.ID), ">EXPIRED<", "what fell due applied")

		// From another page the buttons return there.
		p.navigate(e.srv.URL + "/dashboard/")
		p.clickLoads(`button[name="duration"][value="1m"]`)
		assert.Equal(t, e.srv.URL+"/dashboard/", p.url())
		assert.Contains(t, p.text("#clock"), "13:42:00")

		// Freeze and Resume: the page says which, and the clock does it.
		p.navigate(e.srv.URL + "/dashboard/clock")
		assert.Contains(t, p.text(".clock-state"), "frozen")
		assert.Contains(t, strings.ToLower(p.text("#clock")), "frozen", "the header too")
		p.clickLoads(`button[value="resume"]`)
		assert.Contains(t, p.text(".clock-state"), "running")
		assert.False(t, e.controls.Frozen())
		assert.Empty(t, p.text(`button[value="resume"]`))
		p.clickLoads(`button[value="freeze"]`)
		assert.Contains(t, p.text(".clock-state"), "frozen")
		assert.True(t, e.controls.Frozen())
		p.screenshot(filepath.Join(dir, "dashboard-clock.png"))
	})

	t.Run("Resend", func(t *testing.T) {
		pending, err := e.eng.Webhooks.PendingDeliveries(ctx, s.transaction.ID, 0)
		require.NoError(t, err)
		require.NotEmpty(t, pending)
		ev := pending[0]
		tries := ev.Tries()
		require.Positive(t, tries)
		failing.Store(false)
		before := sent.Load()
		page := "/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID)
		p.navigate(e.srv.URL + page)
		p.clickLoads(`form.inline:has(input[value="` + ev.Event.ID + `"]) button`)
		assert.Equal(t, e.srv.URL+page, p.url(), "back on the transaction")
		d, err := e.eng.Webhooks.Delivery(ctx, ev.Event.ID)
		require.NoError(t, err)
		assert.Equal(t, payments.DeliveryDelivered, d.Status)
		assert.Equal(t, tries+1, d.Tries())
		assert.GreaterOrEqual(t, sent.Load(), before+1)
		var cells []string
		p.eval(`[...document.querySelectorAll("tr")].filter(r => r.innerText.includes("`+ev.Event.ID+`")).map(r => r.innerText)`, &cells)
		require.Len(t, cells, 1)
		assert.Contains(t, cells[0], "DELIVERED")
		assert.Contains(t, strings.Fields(cells[0]), strconv.Itoa(tries+1), "attempts: the failed ones and the resend")
		p.screenshot(filepath.Join(dir, "dashboard-transaction-resent.png"))
	})

	t.Run("Trigger", func(t *testing.T) {
		// Pick an event type on the webhooks page and click Trigger: the
		// flow behind it runs, and the page names the event it made.
		p.navigate(e.srv.URL + "/dashboard/webhooks")
		var options []string
		p.eval(`[...document.querySelectorAll('select[name="eventType"] option')].map(o => o.value)`, &options)
		assert.Contains(t, options, "OUTGOING_PAYMENT.COMPLETED")
		assert.Contains(t, options, "CARD.STATE_CHANGE")
		var picked string
		p.eval(`(() => { const s = document.querySelector('select[name="eventType"]'); s.value = "CARD.STATE_CHANGE";
			s.dispatchEvent(new Event("change")); return s.value; })()`, &picked)
		require.Equal(t, "CARD.STATE_CHANGE", picked)
		p.clickLoads(`form.trigger button`)
		assert.Equal(t, "Webhook deliveries", p.text("h1"))
		assert.Empty(t, p.text(".error"))
		assert.Contains(t, p.text(".triggered"), "Triggered CARD.STATE_CHANGE")
		all, err := e.eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{Limit: payments.MaxLimit})
		require.NoError(t, err)
		var ids []string
		for _, d := range all.Data {
			if d.Event.Type == "CARD.STATE_CHANGE" {
				ids = append(ids, d.Event.ID)
			}
		}
		require.NotEmpty(t, ids, "a CARD.STATE_CHANGE event was emitted")
		assert.Contains(t, p.text(".triggered"), ids[0], "the page names it")
		p.screenshot(filepath.Join(dir, "dashboard-webhooks-triggered.png"))
	})

	t.Run("Narrow", func(t *testing.T) {
		p.viewport(375, 812, true)
		defer p.viewport(1280, 900, false)
		for _, path := range []string{"/dashboard/", "/dashboard/webhooks", "/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID),
			"/dashboard/clock", "/dashboard/requests", "/dashboard/customers"} {
			p.navigate(e.srv.URL + path)
			var fit struct {
				Page, Width int
				Outside     []string
			}
			// The page never scrolls sideways (wide tables scroll in their
			// box), and the header, navigation, title and buttons lie
			// within the screen.
			p.eval(`(() => { const w = window.innerWidth; const out = [];
				for (const e of document.querySelectorAll("header, header *, nav, nav a, h1, main > p, .advance button, .card")) {
					const r = e.getBoundingClientRect();
					if (r.width > 0 && (r.left < -1 || r.right > w + 1)) out.push(e.tagName + "." + e.className + " " + Math.round(r.left) + ".." + Math.round(r.right));
				}
				return {page: document.documentElement.scrollWidth, width: w, outside: out}; })()`, &fit)
			assert.Equal(t, 375, fit.Width, path)
			assert.LessOrEqual(t, fit.Page, fit.Width, "%s scrolls sideways", path)
			assert.Empty(t, fit.Outside, path)
		}
		p.navigate(e.srv.URL + "/dashboard/")
		p.screenshot(filepath.Join(dir, "dashboard-narrow-overview.png"))
		p.navigate(e.srv.URL + "/dashboard/webhooks")
		p.screenshot(filepath.Join(dir, "dashboard-narrow-webhooks.png"))

		// The buttons work on the narrow screen too.
		at := e.clock.Now()
		p.navigate(e.srv.URL + "/dashboard/clock")
		p.clickLoads(`button[name="duration"][value="10m"]`)
		assert.Equal(t, at.Add(10*time.Minute), e.clock.Now())
	})

	t.Run("LogOut", func(t *testing.T) {
		session := p.cookies()["payments_dashboard"]
		require.NotEmpty(t, session)
		p.navigate(e.srv.URL + "/dashboard/customers")
		p.clickLoads(`form.logout button`)
		assert.Empty(t, p.cookies()["payments_dashboard"], "the cookie is gone")
		assert.Empty(t, p.text("nav"), "signed out: no navigation")
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/dashboard/customers", nil)
		req.AddCookie(&http.Cookie{Name: "payments_dashboard", Value: session})
		status, _ := e.do(t, req)
		assert.Equal(t, http.StatusUnauthorized, status, "the session is over")
	})
}
