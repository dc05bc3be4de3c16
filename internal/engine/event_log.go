package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/paygrid/payments/validate"
)

// The history of webhook deliveries, for operators' tools (package
// dashboard): what was delivered, what waits and what was given up, over
// the same indexes and cursors as every other list.

// tableEventLog keeps, when Config.EventHistory is set, every event whose
// delivery ended: delivered, or given up (its outbox record moved to
// tableOutboxDead). The outbox holds only what still waits, so without it
// an event leaves no trace once delivered. Keys are event ids.
const tableEventLog = "event_log"

// ixResource indexes event-log records by the id of the record their data
// describes (a transaction, a customer, an account).
const ixResource = "resource"

// Delivery states of a WebhookDelivery.
const (
	DeliveryPending   = "PENDING"   // in the outbox, to be tried (again) at NextAttemptAt
	DeliveryDelivered = "DELIVERED" // accepted by the Notifier (or webhook endpoint)
	DeliveryFailed    = "FAILED"    // given up: a dead-lettered event
)

// WebhookDelivery is an event and where its delivery stands: Attempts
// counts the failed tries before it was delivered or given up (so a
// delivered event that succeeded at once has 0), NextAttemptAt is when a
// pending one is tried next, LastError why the last try failed, and
// FinishedAt when it was delivered or given up.
type WebhookDelivery struct {
	Event         Event     `json:"event"`
	Resource      string    `json:"resource,omitempty"`
	Status        string    `json:"status"`
	Attempts      int       `json:"attempts"`
	NextAttemptAt time.Time `json:"nextAttemptAt,omitzero"`
	LastError     string    `json:"lastError,omitempty"`
	FinishedAt    time.Time `json:"finishedAt,omitzero"`
}

// resourceOf returns the "id" member of an event's data, "" when it has none.
func resourceOf(data json.RawMessage) string {
	var v struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	return v.ID
}

// deliveryOf is the WebhookDelivery of outbox record r in state status.
func deliveryOf(r outboxRecord, status string) WebhookDelivery {
	d := WebhookDelivery{Event: r.Event, Resource: resourceOf(r.Event.Data), Status: status,
		Attempts: r.Attempts, LastError: r.LastError}
	if status == DeliveryPending {
		d.NextAttemptAt = r.NextAttemptAt
	}
	return d
}

// logDelivery records in the event log that the delivery of r ended in
// status at now, when Config.EventHistory asks for the log. Flush calls it
// in the commit that removes r from the outbox.
func (e *Handle) logDelivery(t *Txn, r outboxRecord, status string, now time.Time) error {
	if !e.Config.EventHistory {
		return nil
	}
	d := deliveryOf(r, status)
	d.FinishedAt = now
	return PutJSON(t, tableEventLog, r.Event.ID, d)
}

// DeliveryFilter narrows Webhooks.ListDeliveries: Resource is the id of
// the record the events describe (a transaction id lists that payment's
// events), Status is DELIVERED or FAILED.
type DeliveryFilter struct {
	Resource string
	Status   string
}

// ListDeliveries lists the events whose delivery ended (delivered or given
// up) in the order they were emitted, newest first with p.Desc. Only an
// engine with Config.EventHistory keeps them; others list none. Events
// still waiting are listed by PendingDeliveries, those given up also by
// DeadEvents.
func (wh Webhooks) ListDeliveries(ctx context.Context, f DeliveryFilter, p ListParams) (Page[WebhookDelivery], error) {
	e := wh.e
	var fe validate.Errors
	fe.Enum("status", f.Status, DeliveryDelivered, DeliveryFailed)
	if err := Invalid(fe.Err()); err != nil {
		return Page[WebhookDelivery]{}, err
	}
	var out Page[WebhookDelivery]
	err := e.View(ctx, func(t *Txn) error {
		q := ListQuery[WebhookDelivery]{Table: tableEventLog, Index: IxAll,
			Match: func(d *WebhookDelivery) bool {
				return (f.Resource == "" || d.Resource == f.Resource) && (f.Status == "" || d.Status == f.Status)
			}}
		var err error
		out, err = List(t, q.Narrowest([2]string{ixResource, f.Resource}, [2]string{IxStatus, f.Status}), p)
		return err
	})
	return out, err
}

// PendingDeliveries returns up to limit (1..1000, 0 means 100) events still
// waiting for delivery, in the order they were emitted, with their failed
// attempts and the time of the next one; resource, when set, keeps those
// whose data describes that record.
func (wh Webhooks) PendingDeliveries(ctx context.Context, resource string, limit int) ([]WebhookDelivery, error) {
	return wh.e.scanDeliveries(ctx, TableOutbox, DeliveryPending, resource, limit)
}

// DeadEvents returns up to limit (1..1000, 0 means 100) events whose
// delivery was given up (permanent failures, events delivered at most once,
// and retries past RetryPolicy.MaxAge), oldest first: the outbox's
// dead letters, as DeadLetters are those of due work.
func (wh Webhooks) DeadEvents(ctx context.Context, limit int) ([]WebhookDelivery, error) {
	return wh.e.scanDeliveries(ctx, tableOutboxDead, DeliveryFailed, "", limit)
}

// scanDeliveries reads up to limit outbox records of table (keyed by event
// id, so in the order they were emitted) as deliveries in state status,
// those of resource only when it is set.
func (e *Handle) scanDeliveries(ctx context.Context, table, status, resource string, limit int) ([]WebhookDelivery, error) {
	if limit == 0 {
		limit = 100
	}
	if limit < 1 || limit > 1000 {
		return nil, Invalid(validate.Errors{{Field: "limit", Message: "limit must be between 1 and 1000"}})
	}
	out := []WebhookDelivery{}
	err := e.Store.View(ctx, func(tx Tx) error {
		return tx.Scan(table, ScanOptions{}, func(_ string, v []byte) (bool, error) {
			r, err := decodeOutbox(v)
			if err != nil {
				return false, err
			}
			if d := deliveryOf(r, status); resource == "" || d.Resource == resource {
				out = append(out, d)
			}
			return len(out) < limit, nil
		})
	})
	return out, err
}
