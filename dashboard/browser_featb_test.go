package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
)

// TestDashboard_BrowserFollowsAndLinks uses the dashboard in headless
// Chromium as a person does: Resend says what happened (failed with the
// endpoint's status class, then delivered); a refused duration keeps what
// was typed; the header's Freeze and Resume work from any page; customers,
// accounts, transactions and the ledger link to each other; ids and event
// types never wrap mid-word, even on a phone's screen; the request log page
// adds a request answered after it loaded, from the live stream.
// Screenshots go to screenshotDir.
func TestDashboard_BrowserFollowsAndLinks(t *testing.T) {
	b := newBrowser(t)
	var failing atomic.Bool
	failing.Store(true)
	e := newEnv(t, func(_ context.Context, ev payments.Event) error {
		if failing.Load() {
			return errTemporary
		}
		return nil
	})
	s := e.seed(t)
	dir := screenshotDir(t)
	p := b.open(t)
	p.viewport(1280, 900, false)
	p.navigate(e.srv.URL + e.d.LoginLink())
	require.Equal(t, "Overview", p.text("h1"))

	t.Run("ResendSaysWhatHappened", func(t *testing.T) {
		pending, err := e.eng.Webhooks.PendingDeliveries(ctx, s.transaction.ID, 0)
		require.NoError(t, err)
		require.NotEmpty(t, pending)
		id := pending[0].Event.ID
		page := "/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID)
		button := `form.inline:has(input[value="` + id + `"]) button`
		p.navigate(e.srv.URL + page)
		assert.Empty(t, p.text("#flash"), "nothing to say before a Resend")
		p.clickLoads(button)
		assert.Equal(t, e.srv.URL+page, p.url(), "back on the transaction")
		msg := p.text("#flash")
		assert.Contains(t, msg, id)
		assert.Contains(t, msg, "failed")
		assert.Contains(t, msg, "5xx")
		p.screenshot(filepath.Join(dir, "dashboard-resend-failed.png"))

		failing.Store(false)
		p.clickLoads(button)
		msg = p.text("#flash")
		assert.Contains(t, msg, id)
		assert.Contains(t, msg, "delivered")
		assert.NotContains(t, msg, "failed")
		p.navigate(e.srv.URL + page)
		assert.Empty(t, p.text("#flash"), "said once")
	})

	t.Run("RefusedDurationKeepsWhatWasTyped", func(t *testing.T) {
		at := e.clock.Now()
		p.navigate(e.srv.URL + "/dashboard/clock")
		p.typeInto(`input[name="custom"]`, "90 minutes")
		p.clickLoads(`input[name="custom"] ~ button, label + button`)
		var typed string
		p.eval(`document.querySelector('input[name="custom"]').value`, &typed)
		assert.Equal(t, "90 minutes", typed)
		assert.Contains(t, p.text("#typed-error"), "written like 90s")
		assert.Equal(t, at, e.clock.Now(), "the clock did not move")
		p.screenshot(filepath.Join(dir, "dashboard-clock-refused.png"))
		// Corrected in place, it advances.
		p.eval(`document.querySelector('input[name="custom"]').value = ""`, nil)
		p.typeInto(`input[name="custom"]`, "90m")
		p.clickLoads(`input[name="custom"] ~ button, label + button`)
		assert.Equal(t, at.Add(90*time.Minute), e.clock.Now())
		assert.Empty(t, p.text("#typed-error"))
	})

	t.Run("FreezeAndResumeOnEveryPage", func(t *testing.T) {
		for _, path := range []string{"/dashboard/customers", "/dashboard/transactions", "/dashboard/ledger"} {
			p.navigate(e.srv.URL + path)
			frozen := e.controls.Frozen()
			sel := `header button[value="freeze"]`
			if frozen {
				sel = `header button[value="resume"]`
			}
			p.clickLoads(sel)
			assert.Equal(t, e.srv.URL+path, p.url(), "back on the page")
			assert.Equal(t, !frozen, e.controls.Frozen(), path)
			assert.Contains(t, strings.ToLower(p.text("#clock")), map[bool]string{true: "frozen", false: "running"}[!frozen])
		}
	})

	t.Run("Links", func(t *testing.T) {
		p.navigate(e.srv.URL + "/dashboard/customers")
		p.clickLoads(`a[href^="transactions?customerId="]`) // the one customer's
		assert.Contains(t, p.text("main"), s.transaction.ID, "the customer's transactions")
		assert.Equal(t, s.customer.ID, mustQuery(t, p.url()).Get("customerId"))
		p.clickLoads(`a[href^="accounts?customerId="]`)
		assert.Contains(t, p.text("main"), s.account, "the customer's accounts")
		p.clickLoads(`a[href^="ledger?account="]`) // the one customer account's
		body := p.text("main")
		assert.Contains(t, body, s.account)
		assert.Contains(t, body, s.account+"/held", "the account's hold beside it")
		p.navigate(e.srv.URL + "/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID))
		p.clickLoads(`a[href^="ledger?reference="]`)
		assert.Equal(t, "Ledger journal", p.text("h1"))
		body = p.text("main")
		assert.Contains(t, body, s.account)
		assert.Contains(t, body, "123.45 USD")
		p.screenshot(filepath.Join(dir, "dashboard-ledger-journal.png"))
		p.navigate(e.srv.URL + "/dashboard/ledger")
		assert.Contains(t, p.text("main"), "external:")
		p.screenshot(filepath.Join(dir, "dashboard-ledger.png"))
	})

	t.Run("IdsDoNotWrap", func(t *testing.T) {
		p.viewport(375, 812, true)
		defer p.viewport(1280, 900, false)
		for _, path := range []string{"/dashboard/transactions", "/dashboard/webhooks", "/dashboard/customers", "/dashboard/ledger",
			"/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID)} {
			p.navigate(e.srv.URL + path)
			var broken []string
			// An id or event type on one line has one box; wrapped, more.
			p.eval(`[...document.querySelectorAll("main code")].filter(c => c.getClientRects().length > 1).map(c => c.innerText)`, &broken)
			assert.Empty(t, broken, path)
			// Nor is one cut off: it lies within the screen or within a
			// box of its own that scrolls sideways to show it (a table's,
			// a detail's), not only the whole page's content.
			var cut []string
			p.eval(`(() => { const out = [];
				for (const c of document.querySelectorAll("main code")) {
					let box = c.parentElement;
					while (box && box.tagName !== "MAIN" && !["auto", "scroll"].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
					if (box && box.tagName === "MAIN") box = null;
					const r = c.getBoundingClientRect();
					if (!box && r.right > window.innerWidth + 1) out.push(c.innerText);
				}
				return out; })()`, &cut)
			assert.Empty(t, cut, path)
			var page, width int
			p.eval(`document.documentElement.scrollWidth`, &page)
			p.eval(`window.innerWidth`, &width)
			assert.LessOrEqual(t, page, width, "%s scrolls sideways: wide tables scroll in their box", path)
		}
		p.navigate(e.srv.URL + "/dashboard/transactions")
		p.screenshot(filepath.Join(dir, "dashboard-narrow-transactions.png"))
		p.navigate(e.srv.URL + "/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID))
		p.screenshot(filepath.Join(dir, "dashboard-narrow-transaction.png"))
	})

	t.Run("RequestLogIsLive", func(t *testing.T) {
		p.navigate(e.srv.URL + "/dashboard/requests")
		deadline := time.Now().Add(10 * time.Second)
		for !strings.HasPrefix(p.text("#live-state"), "Live") {
			require.True(t, time.Now().Before(deadline), "the stream did not open: %s", p.text("#live-state"))
			time.Sleep(20 * time.Millisecond)
		}
		req, _ := http.NewRequest("GET", e.srv.URL+"/api/customers/Customer:live-nope", nil)
		req.SetBasicAuth(e.admin.ClientID, e.admin.ClientSecret)
		req.Header.Set("X-Request-Id", "live-trace-1")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = res.Body.Close()
		var first string
		for {
			p.eval(`(document.querySelector("table.requests tbody tr") || {innerText: ""}).innerText`, &first)
			if strings.Contains(first, "live-trace-1") {
				break
			}
			require.True(t, time.Now().Before(deadline), "the request did not arrive; first row: %q", first)
			time.Sleep(20 * time.Millisecond)
		}
		assert.Contains(t, first, "GET /api/customers/Customer:live-nope")
		assert.Contains(t, first, "404")
		assert.Equal(t, e.srv.URL+"/dashboard/requests", p.url(), "without reloading")
		p.screenshot(filepath.Join(dir, "dashboard-requests-live.png"))
	})
}

// mustQuery returns the query of the address u.
func mustQuery(t *testing.T, u string) url.Values {
	t.Helper()
	parsed, err := url.Parse(u)
	require.NoError(t, err)
	return parsed.Query()
}
