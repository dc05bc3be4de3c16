package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/dashboard"
	"github.com/paygrid/payments/webhooks"
)

// pagePaths are every GET page of the dashboard.
var pagePaths = []string{"/dashboard/", "/dashboard/customers", "/dashboard/accounts", "/dashboard/external-accounts",
	"/dashboard/quotes", "/dashboard/transactions", "/dashboard/webhooks", "/dashboard/dead-letters", "/dashboard/requests", "/dashboard/clock"}

// TestDashboard_Auth: no page answers without the API token or a session;
// a wrong secret is refused; any valid token may view; a login link opens
// a session once.
func TestDashboard_Auth(t *testing.T) {
	e := newEnv(t, nil)
	wrong := *e.admin
	wrong.ClientSecret = "not-the-secret-at-all"
	for _, p := range append(pagePaths, "/dashboard/quote?id=x", "/dashboard/transaction?id=x") {
		status, body := e.get(t, p, nil)
		assert.Equal(t, http.StatusUnauthorized, status, p)
		assert.Contains(t, body, "Sign in with the API token", p)
		assert.NotContains(t, body, "<nav>", p)
		status, _ = e.get(t, p, &wrong)
		assert.Equal(t, http.StatusUnauthorized, status, p)
	}
	for _, p := range pagePaths {
		status, _ := e.get(t, p, e.viewer)
		assert.Equal(t, http.StatusOK, status, p)
	}
	res := e.post(t, "/dashboard/clock/advance", nil, url.Values{"duration": {"1h"}}, nil)
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	assert.Equal(t, `Basic realm="payments dashboard", charset="UTF-8"`, res.Header.Get("WWW-Authenticate"))

	t.Run("LoginLink", func(t *testing.T) {
		link := e.d.LoginLink()
		require.True(t, strings.HasPrefix(link, "/dashboard/login?code="), link)
		res, err := noRedirect.Get(e.srv.URL + link)
		require.NoError(t, err)
		_ = res.Body.Close()
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		require.Equal(t, "/dashboard/", res.Header.Get("Location"))
		cookies := res.Cookies()
		require.Len(t, cookies, 1)
		ck := cookies[0]
		assert.True(t, ck.HttpOnly)
		assert.Equal(t, http.SameSiteStrictMode, ck.SameSite)
		assert.Equal(t, "/dashboard/", ck.Path)

		withCookie := func(c *http.Cookie) (int, string) {
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/dashboard/customers", nil)
			req.AddCookie(c)
			return e.do(t, req)
		}
		status, body := withCookie(ck)
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, "Log out")

		// The link is spent; a forged session is nobody.
		res, err = noRedirect.Get(e.srv.URL + link)
		require.NoError(t, err)
		_ = res.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
		status, _ = withCookie(&http.Cookie{Name: ck.Name, Value: "forged"})
		assert.Equal(t, http.StatusUnauthorized, status)

		// Logging out (a form with the session's token) ends the session.
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/dashboard/logout", strings.NewReader(url.Values{"csrf": {csrfIn(t, body)}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(ck)
		res, err = noRedirect.Do(req)
		require.NoError(t, err)
		_ = res.Body.Close()
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		status, _ = withCookie(ck)
		assert.Equal(t, http.StatusUnauthorized, status)
	})
}

// TestDashboard_Pages: what the engine holds (and the API shows) is on the
// pages: the customer with its KYC state, its account and balance, the
// external account, both quotes, the transaction and its events in order.
func TestDashboard_Pages(t *testing.T) {
	e := newEnv(t, nil)
	s := e.seed(t)
	acct, err := e.eng.Accounts.Internal(ctx, s.account)
	require.NoError(t, err)
	page := func(path string) string {
		t.Helper()
		status, body := e.get(t, path, e.viewer)
		require.Equal(t, http.StatusOK, status, path)
		return body
	}

	t.Run("Customers", func(t *testing.T) {
		r := row(t, page("/dashboard/customers"), s.customer.ID)
		assert.Contains(t, r, "Ada Lovelace")
		assert.Contains(t, r, s.customer.UmaAddress)
		require.NotEmpty(t, s.customer.Status())
		assert.Contains(t, r, ">"+string(s.customer.Status())+"<")
	})
	t.Run("InternalAccounts", func(t *testing.T) {
		r := row(t, page("/dashboard/accounts"), s.account)
		assert.Contains(t, r, s.customer.ID)
		assert.Equal(t, int64(100_000-12_345), acct.Balance.Amount)
		assert.Contains(t, r, "876.55 USD", "the balance after the executed quote")
	})
	t.Run("ExternalAccounts", func(t *testing.T) {
		r := row(t, page("/dashboard/external-accounts"), s.external.ID)
		assert.Contains(t, r, "USD_ACCOUNT")
		assert.Contains(t, r, string(s.external.Status))
		assert.Contains(t, r, "444555001")
	})
	t.Run("Quotes", func(t *testing.T) {
		body := page("/dashboard/quotes")
		assert.Contains(t, row(t, body, s.executed.ID), "123.45 USD")
		assert.Contains(t, row(t, body, s.pending.ID), ">PENDING<")
		assert.Less(t, strings.Index(body, s.pending.ID), strings.Index(body, s.executed.ID), "newest first")
		q := page("/dashboard/quote?id=" + url.QueryEscape(s.executed.ID))
		assert.Contains(t, q, s.executed.TransactionID)
		assert.Contains(t, q, "OUTGOING_PAYMENT.")
	})
	t.Run("Transactions", func(t *testing.T) {
		now, err := e.eng.Transactions.Get(ctx, s.transaction.ID)
		require.NoError(t, err)
		r := row(t, page("/dashboard/transactions"), s.transaction.ID)
		assert.Contains(t, r, "OUTGOING")
		assert.Contains(t, r, ">"+now.Status+"<")
		assert.Contains(t, r, s.account)
	})
	t.Run("TransactionEventsInOrder", func(t *testing.T) {
		all, err := e.eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Resource: s.transaction.ID}, payments.ListParams{})
		require.NoError(t, err)
		require.NotEmpty(t, all.Data)
		body := page("/dashboard/transaction?id=" + url.QueryEscape(s.transaction.ID))
		assert.Contains(t, body, s.executed.ID)
		last := -1
		for _, d := range all.Data {
			assert.Equal(t, payments.DeliveryDelivered, d.Status)
			i := strings.Index(body, d.Event.ID)
			require.Greater(t, i, last, "event %s %s out of order", d.Event.Type, d.Event.ID)
			last = i
			assert.Contains(t, row(t, body, d.Event.ID), d.Event.Type)
			assert.Contains(t, row(t, body, d.Event.ID), `class="num attempts">1<`, "delivered at the first attempt: 1 attempt")
		}
	})
	t.Run("Overview", func(t *testing.T) {
		body := page("/dashboard/")
		assert.Contains(t, body, s.transaction.ID)
		assert.Contains(t, body, s.customer.ID)
		assert.Contains(t, body, "2025-10-13 12:00:00 UTC", "the test clock")
	})
	t.Run("NotFoundAndBadCursor", func(t *testing.T) {
		status, body := e.get(t, "/dashboard/transaction?id=Transaction:nope", e.viewer)
		assert.Equal(t, http.StatusNotFound, status)
		assert.Contains(t, body, `class="error"`)
		status, body = e.get(t, "/dashboard/customers?cursor=%3Cscript%3E", e.viewer)
		assert.Equal(t, http.StatusBadRequest, status)
		assert.NotContains(t, body, "<script>")
		status, _ = e.get(t, "/dashboard/nothing-here", e.viewer)
		assert.Equal(t, http.StatusNotFound, status)
	})
	t.Run("Pagination", func(t *testing.T) {
		for range 26 {
			_, err := e.eng.Sandbox.Fund(ctx, s.account, 1)
			require.NoError(t, err)
		}
		_, err := e.eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		body := page("/dashboard/webhooks")
		m := strings.Index(body, `href="?cursor=`)
		require.Positive(t, m, "a next-page link")
		next := body[m+len(`href="`):]
		next = next[:strings.IndexByte(next, '"')]
		second := page("/dashboard/webhooks" + strings.ReplaceAll(next, "&amp;", "&"))
		assert.Contains(t, second, "INTERNAL_ACCOUNT.BALANCE_UPDATED")
	})
}

// TestDashboard_Webhooks: a delivery that keeps failing shows its attempts,
// status and next retry; one given up is a dead letter.
func TestDashboard_Webhooks(t *testing.T) {
	e := newEnv(t, func(_ context.Context, ev payments.Event) error {
		switch ev.Type {
		case "INTERNAL_ACCOUNT.BALANCE_UPDATED":
			return errTemporary
		case payments.EventTest:
			return payments.ErrPermanent
		}
		return nil
	})
	e.seed(t)
	_, err := e.eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: ptr("https://example.com/hooks")})
	require.NoError(t, err)
	e.clock.Advance(time.Minute)
	_, err = e.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	pending, err := e.eng.Webhooks.PendingDeliveries(ctx, "", 0)
	require.NoError(t, err)
	require.NotEmpty(t, pending)
	_, body := e.get(t, "/dashboard/webhooks", e.viewer)
	for _, p := range pending {
		r := row(t, body, p.Event.ID)
		assert.Contains(t, r, ">PENDING<")
		assert.Contains(t, r, "endpoint answered 503")
		assert.Contains(t, r, ">2<", "two failed attempts")
		assert.Contains(t, r, p.NextAttemptAt.Format("2006-01-02 15:04:05"))
		assert.True(t, strings.HasPrefix(p.Resource, "InternalAccount:"), p.Resource)
	}

	dead, err := e.eng.Webhooks.DeadEvents(ctx, 0)
	require.NoError(t, err)
	require.Len(t, dead, 1, "the TEST event of the new endpoint")
	_, body = e.get(t, "/dashboard/dead-letters", e.viewer)
	r := row(t, body, dead[0].Event.ID)
	assert.Contains(t, r, ">FAILED<")
	assert.Contains(t, r, "TEST")
	assert.Contains(t, body, "No dead-lettered work.")
	_, body = e.get(t, "/dashboard/", e.viewer)
	assert.Contains(t, body, "0 dead-lettered work items, 1 dead events")
	assert.Contains(t, body, "https://example.com/hooks")
}

func ptr[T any](v T) *T { return &v }

// TestDashboard_AdvanceClock: the clock form advances the clock, and what
// fell due applies (the pending quote expires); the form needs its token,
// the same origin and MANAGE; a server on real time shows no form.
func TestDashboard_AdvanceClock(t *testing.T) {
	e := newEnv(t, nil)
	s := e.seed(t)
	_, body := e.get(t, "/dashboard/clock", e.admin)
	require.Contains(t, body, `action="/dashboard/clock/advance"`)
	token := csrfIn(t, body)
	start := e.clock.Now()

	res := e.post(t, "/dashboard/clock/advance", e.admin, url.Values{"csrf": {token}, "duration": {"1h"}, "from": {"quotes"}}, nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.Equal(t, "/dashboard/quotes", res.Header.Get("Location"))
	assert.Equal(t, start.Add(time.Hour), e.clock.Now())
	_, body = e.get(t, "/dashboard/quotes", e.admin)
	assert.Contains(t, row(t, body, s.pending.ID), ">EXPIRED<")
	assert.Contains(t, body, "2025-10-13 13:00:00 UTC")

	// A typed duration, from a browser on the same origin.
	res = e.post(t, "/dashboard/clock/advance", e.admin, url.Values{"csrf": {token}, "custom": {" 1h30m "}, "from": {"clock"}},
		map[string]string{"Origin": e.srv.URL, "Sec-Fetch-Site": "same-origin"})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.Equal(t, "/dashboard/clock", res.Header.Get("Location"))
	assert.Equal(t, start.Add(150*time.Minute), e.clock.Now())

	// As Chromium sends the pages' forms: their Referrer-Policy makes the
	// Origin "null", Sec-Fetch-Site says same-origin. Back to a detail
	// page with its query.
	res = e.post(t, "/dashboard/clock/advance", e.admin, url.Values{"csrf": {token}, "duration": {"1m"}, "from": {"transaction?id=" + s.transaction.ID}},
		map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin"})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.Equal(t, "/dashboard/transaction?id="+url.QueryEscape(s.transaction.ID), res.Header.Get("Location"))
	assert.Equal(t, start.Add(151*time.Minute), e.clock.Now())
	for _, from := range []string{"https://evil.example/", "//evil.example", "clock/advance", "logout"} {
		res = e.post(t, "/dashboard/clock/advance", e.admin, url.Values{"csrf": {token}, "duration": {"1m"}, "from": {from}}, nil)
		assert.Equal(t, "/dashboard/clock", res.Header.Get("Location"), "%s is no page to return to", from)
	}
	start = start.Add(4 * time.Minute)

	t.Run("Refused", func(t *testing.T) {
		before := e.clock.Now()
		for name, c := range map[string]struct {
			tok    *payments.CreatedToken
			form   url.Values
			header map[string]string
			status int
		}{
			"NoToken":        {e.admin, url.Values{"duration": {"1h"}}, nil, http.StatusForbidden},
			"WrongToken":     {e.admin, url.Values{"duration": {"1h"}, "csrf": {"x" + token}}, nil, http.StatusForbidden},
			"OtherCaller":    {e.viewer, url.Values{"duration": {"1h"}, "csrf": {token}}, nil, http.StatusForbidden},
			"CrossOrigin":    {e.admin, url.Values{"duration": {"1h"}, "csrf": {token}}, map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
			"CrossSite":      {e.admin, url.Values{"duration": {"1h"}, "csrf": {token}}, map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
			"NullCrossSite":  {e.admin, url.Values{"duration": {"1h"}, "csrf": {token}}, map[string]string{"Origin": "null", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
			"SameSite":       {e.admin, url.Values{"duration": {"1h"}, "csrf": {token}}, map[string]string{"Origin": "http://other.localhost", "Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
			"Negative":       {e.admin, url.Values{"duration": {"-1h"}, "csrf": {token}}, nil, http.StatusBadRequest},
			"Garbage":        {e.admin, url.Values{"custom": {"soon"}, "csrf": {token}}, nil, http.StatusBadRequest},
			"TooFar":         {e.admin, url.Values{"duration": {"9000h"}, "csrf": {token}}, nil, http.StatusBadRequest},
			"ViewOnlyCaller": {e.viewer, url.Values{"duration": {"1h"}}, nil, http.StatusForbidden},
		} {
			form := c.form
			if name == "ViewOnlyCaller" {
				_, page := e.get(t, "/dashboard/clock", e.viewer)
				assert.NotContains(t, page, "clock/advance", "no form for a view-only token")
				form.Set("csrf", csrfIn(t, page))
			}
			res := e.post(t, "/dashboard/clock/advance", c.tok, form, c.header)
			assert.Equal(t, c.status, res.StatusCode, name)
		}
		status, _ := e.get(t, "/dashboard/clock/advance", e.admin)
		assert.Equal(t, http.StatusMethodNotAllowed, status)
		assert.Equal(t, before, e.clock.Now(), "nothing moved")
	})

	t.Run("RealTime", func(t *testing.T) {
		rt := newEnv(t, nil, func(o *dashboard.Options) { o.Advance = nil })
		_, body := rt.get(t, "/dashboard/clock", rt.admin)
		assert.NotContains(t, body, "clock/advance")
		assert.Contains(t, body, "runs on real time")
		res := rt.post(t, "/dashboard/clock/advance", rt.admin, url.Values{"duration": {"1h"}, "csrf": {csrfIn(t, body)}}, nil)
		assert.Equal(t, http.StatusConflict, res.StatusCode)
	})
}

// TestDashboard_Headers: pages forbid framing, scripts and foreign assets,
// and are not cached.
func TestDashboard_Headers(t *testing.T) {
	e := newEnv(t, nil)
	res, err := http.Get(e.srv.URL + "/dashboard/style.css")
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "the stylesheet needs no credentials")
	assert.Equal(t, "text/css; charset=utf-8", res.Header.Get("Content-Type"))
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/dashboard/", nil)
	req.SetBasicAuth(e.viewer.ClientID, e.viewer.ClientSecret)
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "default-src 'none'")
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	res, err = noRedirect.Get(e.srv.URL + "/dashboard")
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, "/dashboard/", res.Header.Get("Location"))
}

// TestDashboard_FreezeResume: the clock page shows whether the clock runs
// and its button freezes or resumes it (MANAGE); without the functions
// there is no button and the forms answer 409.
func TestDashboard_FreezeResume(t *testing.T) {
	e := newEnv(t, nil)
	_, body := e.get(t, "/dashboard/clock", e.admin)
	assert.Contains(t, body, "frozen")
	assert.Contains(t, body, `action="/dashboard/clock/resume"`)
	assert.NotContains(t, body, `action="/dashboard/clock/freeze"`)
	token := csrfIn(t, body)
	res := e.post(t, "/dashboard/clock/resume", e.admin, url.Values{"csrf": {token}, "from": {"clock"}}, nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.False(t, e.controls.Frozen())
	_, body = e.get(t, "/dashboard/clock", e.admin)
	assert.Contains(t, body, "running")
	assert.Contains(t, body, `action="/dashboard/clock/freeze"`)
	res = e.post(t, "/dashboard/clock/freeze", e.admin, url.Values{"csrf": {token}}, nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.True(t, e.controls.Frozen())

	_, page := e.get(t, "/dashboard/clock", e.viewer)
	assert.NotContains(t, page, "clock/resume", "no button for a view-only token")
	res = e.post(t, "/dashboard/clock/resume", e.viewer, url.Values{"csrf": {csrfIn(t, page)}}, nil)
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
	assert.True(t, e.controls.Frozen())

	none := newEnv(t, nil, func(o *dashboard.Options) { o.Freeze, o.Resume, o.Frozen = nil, nil, nil })
	_, body = none.get(t, "/dashboard/clock", none.admin)
	assert.NotContains(t, body, "clock/resume")
	assert.NotContains(t, body, "frozen")
	res = none.post(t, "/dashboard/clock/resume", none.admin, url.Values{"csrf": {csrfIn(t, body)}}, nil)
	assert.Equal(t, http.StatusConflict, res.StatusCode)
}

// TestDashboard_Resend: a delivery's Resend button sends its event again
// now as a new attempt (MANAGE), and returns to the page it was on.
func TestDashboard_Resend(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	sent := map[string]int{}
	var mu sync.Mutex
	e := newEnv(t, func(_ context.Context, ev payments.Event) error {
		mu.Lock()
		defer mu.Unlock()
		sent[ev.ID]++
		if fail.Load() {
			return errTemporary
		}
		return nil
	})
	s := e.seed(t)
	pending, err := e.eng.Webhooks.PendingDeliveries(ctx, s.transaction.ID, 0)
	require.NoError(t, err)
	require.NotEmpty(t, pending)
	ev := pending[0].Event
	from := "transaction?id=" + s.transaction.ID
	_, body := e.get(t, "/dashboard/"+from, e.admin)
	r := row(t, body, ev.ID)
	assert.Contains(t, r, `action="/dashboard/webhooks/redeliver"`)
	assert.Contains(t, r, `class="num attempts">1<`)
	token := csrfIn(t, body)

	fail.Store(false)
	res := e.post(t, "/dashboard/webhooks/redeliver", e.admin, url.Values{"csrf": {token}, "event": {ev.ID}, "from": {from}}, nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.Equal(t, "/dashboard/transaction?id="+url.QueryEscape(s.transaction.ID), res.Header.Get("Location"))
	mu.Lock()
	assert.Equal(t, 2, sent[ev.ID])
	mu.Unlock()
	_, body = e.get(t, "/dashboard/"+from, e.admin)
	r = row(t, body, ev.ID)
	assert.Contains(t, r, ">DELIVERED<")
	assert.Contains(t, r, `class="num attempts">2<`)

	_, page := e.get(t, "/dashboard/webhooks", e.viewer)
	assert.NotContains(t, page, "webhooks/redeliver", "no button for a view-only token")
	res = e.post(t, "/dashboard/webhooks/redeliver", e.viewer, url.Values{"csrf": {csrfIn(t, page)}, "event": {ev.ID}}, nil)
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
	res = e.post(t, "/dashboard/webhooks/redeliver", e.admin, url.Values{"csrf": {token}, "event": {"Webhook:nope"}}, nil)
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
	res = e.post(t, "/dashboard/webhooks/redeliver", e.admin, url.Values{"event": {ev.ID}}, map[string]string{"Sec-Fetch-Site": "cross-site"})
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
}

// TestDashboard_Requests: the request log page lists the API's latest
// requests; without Options.Requests there is no such page.
func TestDashboard_Requests(t *testing.T) {
	e := newEnv(t, nil)
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/customers/Customer:nope", nil)
	req.SetBasicAuth(e.admin.ClientID, e.admin.ClientSecret)
	req.Header.Set("X-Request-Id", "trace-page")
	req.Header.Set("Idempotency-Key", "key-page")
	status, _ := e.do(t, req)
	require.Equal(t, http.StatusNotFound, status)
	status, body := e.get(t, "/dashboard/requests", e.viewer)
	require.Equal(t, http.StatusOK, status)
	r := row(t, body, "trace-page")
	for _, want := range []string{"GET /api/customers/Customer:nope", ">404<", "NOT_FOUND", "key-page", e.admin.ClientID} {
		assert.Contains(t, r, want)
	}
	assert.NotContains(t, body, e.admin.ClientSecret)
	assert.Contains(t, body, `href="/dashboard/requests"`)

	none := newEnv(t, nil, func(o *dashboard.Options) { o.Requests = nil })
	status, body = none.get(t, "/dashboard/requests", none.viewer)
	assert.Equal(t, http.StatusNotFound, status)
	assert.NotContains(t, body, `href="/dashboard/requests"`)
}

// TestDashboard_WebhooksNotSent: on an engine whose webhook sender has no
// endpoint configured, the webhook page shows the events NOT_SENT, in a
// neutral badge, with the reason and no attempt, not DELIVERED.
func TestDashboard_WebhooksNotSent(t *testing.T) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	sender, err := webhooks.New(webhooks.Config{Key: key})
	require.NoError(t, err)
	e := newEnvNotifier(t, sender)
	e.seed(t)
	all, err := e.eng.Webhooks.AllDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, all.Data)
	_, body := e.get(t, "/dashboard/webhooks", e.viewer)
	assert.Contains(t, body, "Delivered, not sent or given up")
	for _, d := range all.Data {
		r := row(t, body, d.Event.ID)
		assert.Contains(t, r, `<span class="badge ">NOT_SENT</span>`)
		assert.Contains(t, r, payments.ReasonNoEndpoint)
		assert.Contains(t, r, `<td class="num attempts">0</td>`, "never sent")
		assert.NotContains(t, r, "DELIVERED")
	}
}

// TestDashboard_LedgerAndStream: the ledger page lists every ledger
// account (an account's own with ?account=) and, with ?reference=, a
// transaction's journal; the request log's stream is served to signed-in
// callers only, and not at all without Options.RequestStream.
func TestDashboard_LedgerAndStream(t *testing.T) {
	e := newEnv(t, nil)
	s := e.seed(t)
	status, body := e.get(t, "/dashboard/ledger", e.viewer)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, s.account)
	assert.Contains(t, body, "external:")
	assert.Contains(t, body, `href="/dashboard/ledger"`, "in the navigation")
	status, body = e.get(t, "/dashboard/ledger?account="+url.QueryEscape(s.account), e.viewer)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, s.account+"/held")
	assert.NotContains(t, body, "external:")
	status, body = e.get(t, "/dashboard/ledger?reference="+url.QueryEscape(s.transaction.ID), e.viewer)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, "123.45 USD")
	assert.Contains(t, body, "-123.45 USD")
	status, _ = e.get(t, "/dashboard/ledger?cursor=nope", e.viewer)
	assert.Equal(t, http.StatusBadRequest, status)

	status, _ = e.get(t, "/dashboard/requests/stream", nil)
	assert.Equal(t, http.StatusUnauthorized, status)
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/dashboard/requests/stream", nil)
	req.SetBasicAuth(e.viewer.ClientID, e.viewer.ClientSecret)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	_ = res.Body.Close()
	_, page := e.get(t, "/dashboard/requests", e.viewer)
	assert.Contains(t, page, `src="/dashboard/requests.js"`)

	none := newEnv(t, nil, func(o *dashboard.Options) { o.RequestStream = nil })
	status, _ = none.get(t, "/dashboard/requests/stream", none.viewer)
	assert.Equal(t, http.StatusNotFound, status)
	_, page = none.get(t, "/dashboard/requests", none.viewer)
	assert.NotContains(t, page, "requests.js", "no stream, no script")
}
