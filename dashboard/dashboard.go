package dashboard

import (
	"context"
	"crypto/rand"
	"embed"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
)

// Options configures a Dashboard. Engine is required; every other zero
// value has a working default.
type Options struct {
	// Engine is what the pages show. Required.
	Engine *payments.Engine
	// Now reads the clock the page header shows. Nil means Engine.Now.
	Now func() time.Time
	// Advance moves the sandbox clock forward by d and applies what fell
	// due. Nil shows the clock read-only (a server on real time).
	Advance func(ctx context.Context, d time.Duration) error
	// Freeze stops the sandbox clock, Resume lets it follow real time
	// again, and Frozen reports whether it stands still (the sandbox
	// server passes its sandbox.Controls' methods). Nil Freeze or Resume:
	// the clock page has no such button; nil Frozen: it shows no state.
	Freeze, Resume func(ctx context.Context) error
	Frozen         func() bool
	// Trigger makes an event of a chosen type happen by running the flow
	// behind it (the sandbox server passes its sandbox.Controls' Trigger),
	// and TriggerTypes are the types it takes: the webhooks page then has
	// a select of them and a Trigger button. Nil Trigger: no such form.
	Trigger      func(ctx context.Context, typ payments.EventType) (*payments.Triggered, error)
	TriggerTypes []payments.EventType
	// Requests lists up to limit of the latest API requests, newest first
	// (httpapi.Handler.Requests). Nil: no request log page.
	Requests func(limit int) []httpapi.LoggedRequest
	// RequestStream follows the request log as server-sent events
	// (httpapi.Handler.RequestStream), served to signed-in callers at
	// requests/stream: the request log page adds each new request as it
	// is answered. Nil: the page shows the requests as of its loading.
	RequestStream http.Handler
	// Path is where the dashboard is mounted, with a trailing slash; it
	// sees the whole request path. Empty means "/dashboard/".
	Path string
	// SessionTTL is how long a session opened by a login link lasts. Zero
	// means 12 hours.
	SessionTTL time.Duration
	// LoginTTL is how long an unused login link stays valid. Zero means
	// 24 hours.
	LoginTTL time.Duration
	// Logger receives errors the pages could not show. Nil discards them.
	Logger *slog.Logger
}

// Dashboard is the operator UI, an http.Handler to mount at Options.Path.
type Dashboard struct {
	opts  Options
	pages *pages
	key   []byte // signs CSRF tokens
	// cross refuses state-changing requests a browser sent from another
	// origin (Sec-Fetch-Site, else Origin against Host).
	cross *http.CrossOriginProtection

	mu       sync.Mutex
	logins   map[string]time.Time // one-time login codes and their expiry
	sessions map[string]time.Time // session ids and their expiry
}

//go:embed templates/*.html static/style.css static/requests.js
var assets embed.FS

// New returns the dashboard over opts.Engine. It panics when Engine is nil
// or Path does not start and end with a slash (programming errors).
func New(opts Options) *Dashboard {
	if opts.Engine == nil {
		panic("dashboard: Options.Engine is required")
	}
	if opts.Path == "" {
		opts.Path = "/dashboard/"
	}
	if !strings.HasPrefix(opts.Path, "/") || !strings.HasSuffix(opts.Path, "/") {
		panic("dashboard: Options.Path must start and end with a slash")
	}
	if opts.Now == nil {
		opts.Now = opts.Engine.Now
	}
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = 12 * time.Hour
	}
	if opts.LoginTTL <= 0 {
		opts.LoginTTL = 24 * time.Hour
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Dashboard{opts: opts, pages: parsePages(), key: randomBytes(32), cross: http.NewCrossOriginProtection(),
		logins: map[string]time.Time{}, sessions: map[string]time.Time{}}
}

// route is one page: its handler and whether it changes state (POST).
type route struct {
	post bool
	fn   func(d *Dashboard, w http.ResponseWriter, r *http.Request, c *caller) error
}

// routes maps the path below Options.Path to its page.
var routes = map[string]route{
	"":                   {fn: (*Dashboard).overview},
	"customers":          {fn: (*Dashboard).customers},
	"accounts":           {fn: (*Dashboard).internalAccounts},
	"external-accounts":  {fn: (*Dashboard).externalAccounts},
	"quotes":             {fn: (*Dashboard).quotes},
	"quote":              {fn: (*Dashboard).quote},
	"transactions":       {fn: (*Dashboard).transactions},
	"transaction":        {fn: (*Dashboard).transaction},
	"webhooks":           {fn: (*Dashboard).webhooks},
	"webhooks/redeliver": {post: true, fn: (*Dashboard).redeliver},
	"webhooks/trigger":   {post: true, fn: (*Dashboard).trigger},
	"dead-letters":       {fn: (*Dashboard).deadLetters},
	"requests":           {fn: (*Dashboard).requests},
	"requests/stream":    {fn: (*Dashboard).requestStream},
	"ledger":             {fn: (*Dashboard).ledger},
	"clock":              {fn: (*Dashboard).clock},
	"clock/advance":      {post: true, fn: (*Dashboard).advance},
	"clock/freeze":       {post: true, fn: (*Dashboard).freeze},
	"clock/resume":       {post: true, fn: (*Dashboard).resume},
	"logout":             {post: true, fn: (*Dashboard).logout},
}

// ServeHTTP serves the page the path names, to authenticated callers.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// The one script (requests.js, the request log's live rows) and the
	// stream it reads are the dashboard's own.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	rest, ok := strings.CutPrefix(r.URL.Path, d.opts.Path)
	if !ok && r.URL.Path+"/" == d.opts.Path {
		http.Redirect(w, r, d.opts.Path, http.StatusMovedPermanently)
		return
	}
	switch rest {
	case "style.css":
		h.Set("Content-Type", "text/css; charset=utf-8")
		h.Set("Cache-Control", "max-age=3600")
		b, _ := assets.ReadFile("static/style.css")
		_, _ = w.Write(b)
		return
	case "requests.js":
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "max-age=3600")
		b, _ := assets.ReadFile("static/requests.js")
		_, _ = w.Write(b)
		return
	case "login":
		d.login(w, r)
		return
	}
	rt, found := routes[rest]
	if !ok || !found {
		d.fail(w, r, nil, http.StatusNotFound, "There is no such page.")
		return
	}
	c := d.authenticate(r)
	if c == nil {
		h.Set("WWW-Authenticate", `Basic realm="payments dashboard", charset="UTF-8"`)
		d.fail(w, r, nil, http.StatusUnauthorized, "Sign in with the API token (client id and secret), or open the one-time login link the server printed at start.")
		return
	}
	want := http.MethodGet
	if rt.post {
		want = http.MethodPost
	}
	if r.Method != want && !(want == http.MethodGet && r.Method == http.MethodHead) {
		h.Set("Allow", want)
		d.fail(w, r, c, http.StatusMethodNotAllowed, "This page takes "+want+".")
		return
	}
	if rt.post {
		r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
		if msg := d.checkPost(r, c); msg != "" {
			d.fail(w, r, c, http.StatusForbidden, msg)
			return
		}
	}
	if err := rt.fn(d, w, r, c); err != nil {
		d.failErr(w, r, c, err)
	}
}

// failErr shows err: the engine's message for a client's mistake (a bad
// cursor, an unknown id), a generic one (and a log line) for the rest.
func (d *Dashboard) failErr(w http.ResponseWriter, r *http.Request, c *caller, err error) {
	var pe *payments.Error
	if errors.As(err, &pe) && pe.Code.Status() < 500 {
		d.fail(w, r, c, pe.Code.Status(), pe.Message)
		return
	}
	d.opts.Logger.Error("dashboard page failed", "path", r.URL.Path, "err", err)
	d.fail(w, r, c, http.StatusInternalServerError, "The page could not be read; the server log has the reason.")
}

// fail renders the error page with status and message.
func (d *Dashboard) fail(w http.ResponseWriter, r *http.Request, c *caller, status int, msg string) {
	d.render(w, r, c, status, "error", "Error", msg)
}

// randomBytes returns n bytes from crypto/rand (which never fails).
func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}
