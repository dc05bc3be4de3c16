package dashboard

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/paygrid/payments"
)

// cookieName names the session cookie a login link sets.
const cookieName = "payments_dashboard"

// caller is who a request comes from: a session opened by a login link
// (every right) or an API token given with HTTP Basic.
type caller struct {
	id    string // "session:<id>" or "token:<token id>", what CSRF tokens are bound to
	token *payments.Token
}

// canManage reports whether the caller may change state (advance the clock).
func (c *caller) canManage() bool { return c.token == nil || c.token.Has(payments.PermManage) }

// csrf is the form token of the caller's POSTs.
func (d *Dashboard) csrf(c *caller) string {
	m := hmac.New(sha256.New, d.key)
	m.Write([]byte("csrf\x00" + c.id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// authenticate returns the request's caller: its session cookie when it
// names a live session, else its Basic credentials when the engine accepts
// them; nil otherwise.
func (d *Dashboard) authenticate(r *http.Request) *caller {
	if ck, err := r.Cookie(cookieName); err == nil && d.live(d.sessions, ck.Value, false) {
		return &caller{id: "session:" + ck.Value}
	}
	user, secret, ok := r.BasicAuth()
	if !ok {
		return nil
	}
	tok, err := d.opts.Engine.Platform.Authenticate(r.Context(), user, secret)
	if err != nil {
		return nil
	}
	return &caller{id: "token:" + tok.ID, token: tok}
}

// live reports whether key is an unexpired entry of set (d.logins or
// d.sessions), removing it when spend is set, and drops expired entries.
func (d *Dashboard) live(set map[string]time.Time, key string, spend bool) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now()
	for k, exp := range set {
		if now.After(exp) {
			delete(set, k)
		}
	}
	_, ok := set[key]
	if ok && spend {
		delete(set, key)
	}
	return ok
}

// LoginLink returns a new one-time login path (Options.Path + "login?code=…"):
// opening it within Options.LoginTTL sets a session cookie and redirects to
// the overview; it works once. Prefix it with the server's base URL to print.
func (d *Dashboard) LoginLink() string {
	code := base64.RawURLEncoding.EncodeToString(randomBytes(32))
	d.mu.Lock()
	d.logins[code] = time.Now().Add(d.opts.LoginTTL)
	d.mu.Unlock()
	return d.opts.Path + "login?code=" + code
}

// login spends a login code and opens a session.
func (d *Dashboard) login(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	if code == "" || !d.live(d.logins, code, true) {
		d.fail(w, r, nil, http.StatusUnauthorized, "This login link is unknown, used or expired. Ask the server for a new one (restart it), or sign in with the API token.")
		return
	}
	sid := base64.RawURLEncoding.EncodeToString(randomBytes(32))
	d.mu.Lock()
	d.sessions[sid] = time.Now().Add(d.opts.SessionTTL)
	d.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: sid, Path: d.opts.Path, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode, MaxAge: int(d.opts.SessionTTL / time.Second)})
	http.Redirect(w, r, d.opts.Path, http.StatusSeeOther)
}

// logout ends the caller's session (Basic callers have none to end).
func (d *Dashboard) logout(w http.ResponseWriter, r *http.Request, c *caller) error {
	if ck, err := r.Cookie(cookieName); err == nil {
		d.live(d.sessions, ck.Value, true)
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: d.opts.Path, HttpOnly: true, MaxAge: -1})
	http.Redirect(w, r, d.opts.Path, http.StatusSeeOther)
	return nil
}

// checkPost returns why a state-changing request is refused, "" when it is
// not: a browser must have sent it from this origin (the standard
// library's cross-origin protection: Sec-Fetch-Site, else Origin against
// Host; the pages' Referrer-Policy makes browsers send "Origin: null", so
// Origin alone cannot tell), and it must carry the caller's form token.
func (d *Dashboard) checkPost(r *http.Request, c *caller) string {
	const refused = "This form was not sent from the dashboard's own page; reload the page and try again."
	if d.cross.Check(r) != nil {
		return refused
	}
	if subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(d.csrf(c))) != 1 {
		return refused
	}
	return ""
}
