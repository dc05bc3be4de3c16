package dashboard

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/money"
)

// pages holds one template set per page: the layout and the page's
// "content".
type pages map[string]*template.Template

// parsePages parses every page template with the layout (they are part of
// the binary, so a failure is a programming error).
func parsePages() *pages {
	files, err := fs.Glob(assets, "templates/*.html")
	if err != nil {
		panic(err)
	}
	out := pages{}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		if name == "layout" {
			continue
		}
		out[name] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", f))
	}
	return &out
}

// view is what every page template gets: the layout's members and the
// page's own Data.
type view struct {
	Title      string
	Path       string // where the dashboard is mounted, for links
	Page       string // the page's route, for the navigation and forms
	Here       string // the page's route and query, where its forms return
	Nav        []navLink
	Now        time.Time
	Clock      string // "frozen", "running", or "" when unknown (Options.Frozen is nil)
	CanAdvance bool   // the clock can be advanced by this caller
	CanFreeze  bool   // this caller can freeze the running clock
	CanResume  bool   // this caller can let the frozen clock run
	CanManage  bool   // this caller may change state (send webhooks again)
	RealTime   bool   // the clock cannot be advanced at all (Options.Advance is nil)
	CSRF       string // the caller's form token ("" when not signed in)
	Session    bool   // signed in by a login link (can log out)
	// Flash says what the form that led here did (a Resend's outcome),
	// FlashBad when it did not succeed.
	Flash    string
	FlashBad bool
	// Typed is the duration the caller typed when it was refused, shown
	// again in the field beside the reason (TypedError).
	Typed, TypedError string
	Data              any
}

// deliveryRows is what the events template shows: deliveries, and the
// page's view for the forms of their Resend buttons.
type deliveryRows struct {
	View  view
	Items []payments.WebhookDelivery
}

// render writes page with data as the response, status first.
func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, c *caller, status int, page, title string, data any) {
	d.renderView(w, r, c, status, page, title, data, "", "")
}

// renderTyped is render of a page (without data) whose duration field
// shows typed again, refused for the reason typedErr.
func (d *Dashboard) renderTyped(w http.ResponseWriter, r *http.Request, c *caller, status int, page, title, typed, typedErr string) {
	d.renderView(w, r, c, status, page, title, nil, typed, typedErr)
}

// renderView writes page with data as the response, status first.
func (d *Dashboard) renderView(w http.ResponseWriter, r *http.Request, c *caller, status int, page, title string, data any, typed, typedErr string) {
	v := view{Title: title, Path: d.opts.Path, Page: strings.TrimPrefix(r.URL.Path, d.opts.Path), Now: d.opts.Now().UTC(),
		RealTime: d.opts.Advance == nil, Data: data, Typed: typed, TypedError: typedErr}
	v.Here = v.Page
	if r.URL.RawQuery != "" {
		v.Here += "?" + r.URL.RawQuery
	}
	if ck, err := r.Cookie(flashCookie); err == nil {
		outcome, id, _ := strings.Cut(ck.Value, "|")
		if msg, ok := resendMessages[outcome]; ok && id != "" {
			v.Flash, v.FlashBad = id+": "+msg, outcome != "delivered"
		}
		http.SetCookie(w, &http.Cookie{Name: flashCookie, Path: d.opts.Path, MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	for _, l := range navigation {
		if l.Route != "requests" || d.opts.Requests != nil {
			v.Nav = append(v.Nav, l)
		}
	}
	frozen := false
	if d.opts.Frozen != nil {
		frozen = d.opts.Frozen()
		v.Clock = map[bool]string{true: "frozen", false: "running"}[frozen]
	}
	if c != nil {
		v.CSRF, v.Session = d.csrf(c), c.token == nil
		v.CanManage = c.canManage()
		v.CanAdvance = d.opts.Advance != nil && v.CanManage
		v.CanFreeze = d.opts.Freeze != nil && v.CanManage && d.opts.Frozen != nil && !frozen
		v.CanResume = d.opts.Resume != nil && v.CanManage && d.opts.Frozen != nil && frozen
	}
	var b bytes.Buffer
	if err := (*d.pages)[page].Execute(&b, v); err != nil {
		d.opts.Logger.Error("dashboard template failed", "page", page, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// funcs are the templates' formatting helpers.
var funcs = template.FuncMap{
	"time":           formatTime,
	"ptime":          func(t *time.Time) template.HTML { return formatTime(deref(t)) },
	"amount":         formatAmount,
	"camount":        func(a *payments.CurrencyAmount) string { return formatAmount(deref(a).Amount, deref(a).Currency.Code) },
	"json":           formatJSON,
	"status":         statusClass,
	"name":           customerName,
	"acctType":       func(a payments.ExternalAccount) any { return a.Info()["accountType"] },
	"party":          partyOf,
	"inc":            func(i int) int { return i + 1 },
	"hasPrefix":      strings.HasPrefix,
	"rows":           func(v view, items []payments.WebhookDelivery) deliveryRows { return deliveryRows{v, items} },
	"ms":             func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) + " ms" },
	"advancePresets": func() []string { return []string{"1m", "10m", "1h", "48h"} },
	// current reports whether the navigation's route is the page or, for
	// a detail page (transaction), its list (transactions).
	"current": func(page, route string) bool { return page == route || page+"s" == route },
}

// navLink is one entry of the navigation bar.
type navLink struct{ Route, Label string }

// navigation lists the pages in the navigation bar.
var navigation = []navLink{{"", "Overview"}, {"customers", "Customers"}, {"accounts", "Internal accounts"},
	{"external-accounts", "External accounts"}, {"quotes", "Quotes"}, {"transactions", "Transactions"},
	{"webhooks", "Webhooks"}, {"dead-letters", "Dead letters"}, {"ledger", "Ledger"}, {"requests", "API requests"}, {"clock", "Clock"}}

// deref returns *p, or the zero value for nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// formatTime shows t in UTC to the second as a <time> element, "—" for
// the zero time.
func formatTime(t time.Time) template.HTML {
	if t.IsZero() {
		return "—"
	}
	t = t.UTC()
	return template.HTML(`<time datetime="` + t.Format(time.RFC3339) + `">` + t.Format("2006-01-02 15:04:05 UTC") + `</time>`)
}

// formatAmount shows minor units as a decimal amount with its currency code.
func formatAmount(minor int64, code string) string {
	if code == "" {
		return "—"
	}
	c, ok := money.Lookup(code)
	if !ok {
		c = money.Currency{Code: code}
	}
	return c.Format(minor) + " " + code
}

// formatJSON indents a JSON document for a <pre>.
func formatJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// statusClass is the badge colour of a status: ok, wait or bad, or none
// for one that is neither (an event NOT_SENT: nothing received it, nothing
// failed).
func statusClass(s any) string {
	switch v := strings.ToUpper(toString(s)); {
	case v == payments.DeliveryNotSent:
		return ""
	case strings.Contains(v, "FAIL"), strings.Contains(v, "REJECT"), strings.Contains(v, "EXPIRE"),
		strings.Contains(v, "CANCEL"), strings.Contains(v, "DEAD"), strings.Contains(v, "ERROR"):
		return "bad"
	case strings.Contains(v, "PEND"), strings.Contains(v, "PROCESS"), strings.Contains(v, "CREATED"),
		strings.Contains(v, "REVIEW"), strings.Contains(v, "UNVERIFIED"), strings.Contains(v, "AWAIT"):
		return "wait"
	case v == "":
		return ""
	}
	return "ok"
}

// toString renders a string-kinded status value (KYCStatus, string, ...).
func toString(s any) string {
	if st, ok := s.(interface{ String() string }); ok {
		return st.String()
	}
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// customerName is the person's full name or the business's legal name.
func customerName(c payments.Customer) string {
	if c.BusinessInfo != nil && c.BusinessInfo.LegalName != "" {
		return c.BusinessInfo.LegalName
	}
	return c.FullName
}

// partyOf shows one side of a transaction: its account or UMA address.
func partyOf(p payments.TxParty) string {
	switch {
	case p.AccountID != "":
		return p.AccountID
	case p.UmaAddress != "":
		return p.UmaAddress
	}
	return "—"
}
