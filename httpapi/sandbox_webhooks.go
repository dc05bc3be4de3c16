package httpapi

import (
	"net/http"
	"time"

	"github.com/paygrid/payments"
)

// sandboxWebhookRoutes are ours, not in the reference: the webhook
// deliveries of the platform (every event with where its delivery stands)
// and sending one again, in sandbox mode only. The reference's own POST
// /sandbox/webhooks/test is served with the quotes (quotes.go). Deliveries
// are listed from where the engine keeps them: pending ones from the
// outbox, given-up ones from its dead letters, and delivered ones only with
// payments.Config.EventHistory, which keeps them after delivery.
func sandboxWebhookRoutes() []route {
	return []route{
		{method: "GET", path: "/sandbox/webhooks", fn: listWebhookDeliveries},
		{method: "POST", path: "/sandbox/webhooks/{id}/redeliver", perm: manage, fn: redeliverWebhook},
	}
}

// deliveryView is one webhook delivery on the wire: its id (the event's,
// which receivers dedupe on and redeliver takes), the event as it is
// sent, its state (PENDING, DELIVERED, NOT_SENT or FAILED), the tries made
// so far (a delivery that succeeded at once made 1; an event NOT_SENT
// counts only the tries an endpoint refused before it was removed), when a
// pending one is tried next, why the last failed try failed, why one was
// not sent (reason), and when a delivered, not sent or given-up one ended.
type deliveryView struct {
	ID          string         `json:"id"`
	Event       payments.Event `json:"event"`
	Resource    string         `json:"resource,omitempty"`
	Status      string         `json:"status"`
	Attempts    int            `json:"attempts"`
	NextRetryAt *time.Time     `json:"nextRetryAt,omitempty"`
	LastError   string         `json:"lastError,omitempty"`
	Reason      string         `json:"reason,omitempty"`
	FinishedAt  *time.Time     `json:"finishedAt,omitempty"`
}

// viewDelivery is the wire form of d.
func viewDelivery(d *payments.WebhookDelivery) *deliveryView {
	v := &deliveryView{ID: d.Event.ID, Event: d.Event, Resource: d.Resource, Status: d.Status, Attempts: d.Tries(),
		LastError: d.LastError, Reason: d.Reason}
	if !d.NextAttemptAt.IsZero() {
		v.NextRetryAt = &d.NextAttemptAt
	}
	if !d.FinishedAt.IsZero() {
		v.FinishedAt = &d.FinishedAt
	}
	return v
}

// sandboxOnly refuses outside sandbox mode.
func sandboxOnly(r *request) error {
	if !r.eng.Sandbox.Enabled() {
		return payments.Errorf(payments.CodeForbidden, "sandbox operations are not available on this platform")
	}
	return nil
}

// listWebhookDeliveries is GET /sandbox/webhooks: newest first (sortOrder
// asc for oldest first), filtered by status (PENDING, DELIVERED, NOT_SENT,
// FAILED),
// type (an event type) and resource (the id of the record the events
// describe), paged by limit and cursor.
func listWebhookDeliveries(r *request) (int, any, error) {
	if err := sandboxOnly(r); err != nil {
		return fail(err)
	}
	q := r.query()
	f := payments.DeliveryFilter{Status: q.str("status"), Type: payments.EventType(q.str("type")), Resource: q.str("resource")}
	p := q.page(true)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Webhooks.AllDeliveries(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	out := payments.Page[deliveryView]{Data: make([]deliveryView, 0, len(page.Data)), HasMore: page.HasMore,
		NextCursor: page.NextCursor, TotalCount: page.TotalCount}
	for i := range page.Data {
		out.Data = append(out.Data, *viewDelivery(&page.Data[i]))
	}
	return ok(http.StatusOK, out)
}

// redeliverWebhook is POST /sandbox/webhooks/{id}/redeliver: the event
// sent again now as a new try, alone and within its own timeout
// (payments.Webhooks.Redeliver), answered with its delivery as it stands
// after that try (its lastError names the failure's class only).
func redeliverWebhook(r *request) (int, any, error) {
	if err := sandboxOnly(r); err != nil {
		return fail(err)
	}
	d, err := r.eng.Webhooks.Redeliver(r.ctx(), r.path("id"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, viewDelivery(d))
}
