package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/paygrid/payments"
)

// The dashboard's state-changing forms (POST, checked by checkPost): the
// clock's advance, freeze and resume, and sending a webhook again. Each
// answers with a redirect back to the page its form was on (its "from"
// field), so that reloading that page repeats nothing.

// maxAdvance bounds one advance of the clock.
const maxAdvance = 366 * 24 * time.Hour

// advance moves the clock forward by the form's duration (a preset
// button's value, or the typed one).
func (d *Dashboard) advance(w http.ResponseWriter, r *http.Request, c *caller) error {
	switch {
	case d.opts.Advance == nil:
		d.fail(w, r, c, http.StatusConflict, "This server runs on real time: its clock cannot be advanced.")
		return nil
	case !c.canManage():
		d.fail(w, r, c, http.StatusForbidden, "Advancing the clock needs a token with the MANAGE permission.")
		return nil
	}
	in := r.PostFormValue("duration")
	if in == "" {
		in = strings.TrimSpace(r.PostFormValue("custom"))
	}
	dur, err := time.ParseDuration(in)
	if err != nil || dur <= 0 || dur > maxAdvance {
		// The clock page again, with what was typed kept in its field.
		d.renderTyped(w, r, c, http.StatusBadRequest, "clock", "Clock", r.PostFormValue("custom"),
			"The duration must be positive and at most 8784h, written like 90s, 10m, 1h30m or 48h.")
		return nil
	}
	if err := d.opts.Advance(r.Context(), dur); err != nil {
		return err
	}
	d.back(w, r, "clock")
	return nil
}

// freeze stops the clock.
func (d *Dashboard) freeze(w http.ResponseWriter, r *http.Request, c *caller) error {
	return d.clockMove(w, r, c, d.opts.Freeze, "Freezing")
}

// resume lets the clock follow real time again.
func (d *Dashboard) resume(w http.ResponseWriter, r *http.Request, c *caller) error {
	return d.clockMove(w, r, c, d.opts.Resume, "Resuming")
}

// clockMove runs move (Options.Freeze or Resume) for a caller who may.
func (d *Dashboard) clockMove(w http.ResponseWriter, r *http.Request, c *caller, move func(context.Context) error, what string) error {
	switch {
	case move == nil:
		d.fail(w, r, c, http.StatusConflict, what+" the clock is not possible on this server.")
		return nil
	case !c.canManage():
		d.fail(w, r, c, http.StatusForbidden, what+" the clock needs a token with the MANAGE permission.")
		return nil
	}
	if err := move(r.Context()); err != nil {
		return err
	}
	d.back(w, r, "clock")
	return nil
}

// redeliver sends the form's event again now, as a new try
// (payments.Webhooks.Redeliver).
func (d *Dashboard) redeliver(w http.ResponseWriter, r *http.Request, c *caller) error {
	if !c.canManage() {
		d.fail(w, r, c, http.StatusForbidden, "Sending a webhook again needs a token with the MANAGE permission.")
		return nil
	}
	dl, err := d.opts.Engine.Webhooks.Redeliver(r.Context(), r.PostFormValue("event"))
	if err != nil {
		return err
	}
	// The page it returns to says what happened, once (a cookie the next
	// page shown clears), its address unchanged.
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: resendOutcome(dl) + "|" + dl.Event.ID, Path: d.opts.Path,
		MaxAge: 60, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	d.back(w, r, "webhooks")
	return nil
}

// flashCookie carries what a Resend did to the page it returns to:
// "<outcome>|<event id>", outcome a key of resendMessages.
const flashCookie = "dashboard_flash"

// answeredPattern finds the status class of a failed try's error
// ("receiver answered 5xx", or a Notifier's "endpoint answered 503").
var answeredPattern = regexp.MustCompile(`answered (\d)(\d\d|xx)`)

// resendOutcome names what a Resend's try did, one of resendMessages'
// keys: delivered; failed, with the status class the endpoint answered or
// without an answer; or not sent (the delivery stands as it stood: no
// endpoint, or whatever state the record has).
func resendOutcome(dl *payments.WebhookDelivery) string {
	switch {
	case dl.Status == payments.DeliveryDelivered:
		return "delivered"
	case dl.LastError == "":
		return "not-sent"
	}
	if m := answeredPattern.FindStringSubmatch(dl.LastError); m != nil && m[1] >= "1" && m[1] <= "5" {
		return "failed-" + m[1] + "xx"
	}
	return "failed"
}

// resendMessages are what the page a Resend returns to says.
var resendMessages = map[string]string{
	"delivered":  "Sent again: the endpoint accepted it (delivered).",
	"failed-1xx": "Sent again, but it failed: the endpoint answered 1xx. It will be retried.",
	"failed-3xx": "Sent again, but it failed: the endpoint answered 3xx (a redirect, which is not followed). It will be retried.",
	"failed-4xx": "Sent again, but it failed: the endpoint answered 4xx. It will be retried.",
	"failed-5xx": "Sent again, but it failed: the endpoint answered 5xx. It will be retried.",
	"failed":     "Sent again, but it failed: no answer from the endpoint (refused, unreachable or timed out). It will be retried.",
	"not-sent":   "Not sent: there was nothing to send it to (no webhook endpoint is configured), or it is not due.",
}

// trigger makes an event of the chosen type happen (Options.Trigger) and
// goes back to the webhooks page, which names it and its events.
func (d *Dashboard) trigger(w http.ResponseWriter, r *http.Request, c *caller) error {
	switch {
	case d.opts.Trigger == nil:
		d.fail(w, r, c, http.StatusConflict, "This server cannot trigger events.")
		return nil
	case !c.canManage():
		d.fail(w, r, c, http.StatusForbidden, "Triggering an event needs a token with the MANAGE permission.")
		return nil
	}
	typ := payments.EventType(r.PostFormValue("eventType"))
	if !slices.Contains(d.opts.TriggerTypes, typ) {
		d.fail(w, r, c, http.StatusBadRequest, "Choose one of the event types the list offers.")
		return nil
	}
	got, err := d.opts.Trigger(r.Context(), typ)
	if err != nil {
		return err
	}
	q := url.Values{"triggered": {string(got.EventType)}, "event": got.EventIDs}
	http.Redirect(w, r, d.opts.Path+"webhooks?"+q.Encode(), http.StatusSeeOther)
	return nil
}

// detailPages are the pages of one record, reached from the lists.
var detailPages = []string{"quote", "transaction"}

// back redirects to the page the form came from (its "from" field: a
// page's route with its query, such as "transaction?id=..."), or to the
// page fallback when from names no page of the dashboard.
func (d *Dashboard) back(w http.ResponseWriter, r *http.Request, fallback string) {
	route, query, _ := strings.Cut(r.PostFormValue("from"), "?")
	target := fallback
	if slices.ContainsFunc(navigation, func(l navLink) bool { return l.Route == route }) || slices.Contains(detailPages, route) {
		target = route
		if v, err := url.ParseQuery(query); err == nil && len(v) > 0 {
			target += "?" + v.Encode()
		}
	}
	http.Redirect(w, r, d.opts.Path+target, http.StatusSeeOther)
}
