package engine

import (
	"context"
	"errors"
	"time"

	"github.com/paygrid/payments/internal/eventrec"
	"github.com/paygrid/payments/internal/ixkey"
)

// The history of webhook deliveries, for operators' tools (package
// dashboard): what was delivered, what waits and what was given up, over
// the same indexes and cursors as every other list.

// TableEventLog keeps, when Config.EventHistory is set, every event whose
// delivery ended: delivered, or given up (its outbox record moved to
// TableOutboxDead). The outbox holds only what still waits, so without it
// an event leaves no trace once delivered. Keys are event ids.
const TableEventLog = "event_log"

// IxFinished named an index of the event history by when each event's
// delivery ended, which its retention read; it cost every delivered event
// a fifth write. The retention reads the index of every event instead
// (internal/history), and removes the entries a store still holds.
const IxFinished = "finished"

// IxResource indexes event-log records by the id of the record their data
// describes (a transaction, a customer, an account).
const IxResource = "resource"

// logDelivery records in the event log that the delivery of r ended in
// status at now, when Config.EventHistory asks for the log. Flush calls it
// in the commit that removes r from the outbox. A NOT_SENT one had no
// endpoint to go to (ReasonNoEndpoint).
func logDelivery(e *Handle, t *Txn, r outboxRecord, status string, now time.Time) error {
	if !e.Config.EventHistory {
		return nil
	}
	d := eventrec.DeliveryOf(r, status)
	d.FinishedAt = now
	if status == DeliveryNotSent {
		d.Reason = ReasonNoEndpoint
	}
	b, err := eventrec.AppendDelivery(make([]byte, 0, len(d.Event.Data)+len(d.LastError)+320), &d)
	if err != nil {
		return err
	}
	return PutIndexed(t, TableEventLog, r.Event.ID, &d, b)
}

// logEmitted records the event ev, emitted in t with the data that data
// appends (as EmitAppended takes it), in the event log as not sent at
// t.Now, for want of an endpoint (fateLogged). The data is appended straight into the record, and
// the event is new, so its record is inserted, with nothing of a previous
// version to look up.
func logEmitted(t *Txn, ev Event, size int, data func([]byte) ([]byte, error)) error {
	b, err := eventrec.AppendHead(make([]byte, 0, size+320), &outboxRecord{Event: ev})
	if err != nil {
		return err
	}
	start := len(b)
	if b, err = data(b); err != nil {
		return err
	}
	if len(b) == start {
		b = append(b, "null"...)
	} else {
		ev.Data = b[start:len(b):len(b)]
	}
	d := WebhookDelivery{Event: ev, Resource: eventrec.ResourceOf(ev.Data), Status: DeliveryNotSent, Reason: ReasonNoEndpoint, FinishedAt: t.Now}
	if b, err = eventrec.AppendDeliveryTail(b, &d); err != nil {
		return err
	}
	return insertIndexed(t, TableEventLog, ev.ID, &d, b, false)
}

// Delivery returns where the delivery of event id stands: waiting in the
// outbox (PENDING), given up (FAILED) or, with Config.EventHistory,
// delivered. NOT_FOUND when the engine knows no such event (a delivered
// one leaves no trace without the history).
func (wh Webhooks) Delivery(ctx context.Context, id string) (_ *WebhookDelivery, err error) {
	ctx, op := wh.e.Begin(ctx, "webhooks", "Delivery")
	defer op.End(&err)
	var d WebhookDelivery
	err = wh.e.View(ctx, func(t *Txn) error {
		var err error
		d, _, err = findDelivery(t.Tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// findDelivery looks event id up in the outbox, then in the history and
// its dead letters (the history's entry of a dead letter says when it was
// given up), and returns its delivery and the table of the outbox or its
// dead letters that holds it ("" for neither).
func findDelivery(tx Tx, id string) (WebhookDelivery, string, error) {
	table := ""
	var d WebhookDelivery
	for _, src := range [...]struct{ table, status string }{{TableOutbox, DeliveryPending}, {TableOutboxDead, DeliveryFailed}} {
		b, err := tx.Get(src.table, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return d, "", err
		}
		r, err := eventrec.Decode(b)
		if err != nil || src.table == TableOutbox {
			return eventrec.DeliveryOf(r, src.status), src.table, err
		}
		table, d = src.table, eventrec.DeliveryOf(r, src.status)
		break
	}
	var logged WebhookDelivery
	err := GetJSON(tx, TableEventLog, id, &logged)
	switch {
	case err == nil:
		return logged, table, nil
	case !errors.Is(err, ErrNotFound):
		return d, "", err
	case table == "":
		return d, "", Errorf(CodeNotFound, "no webhook event %s is known: it was never emitted, or it was delivered on an engine without an event history", id)
	}
	return d, table, nil
}

// Redeliver sends event id again now, as a new try, to where every
// delivery goes (the configured webhook endpoint, signed by the sender, or
// the Notifier): in one transaction the event goes back to the outbox
// from wherever its delivery stands (a pending one is brought forward, one
// given up leaves the dead letters, a delivered one, known from the
// history of Config.EventHistory, is queued again with its tries counted,
// and the history forgets it until this delivery ends), held from the
// delivery passes; then this one event is sent, outside any pass and
// within RetryPolicy.Redeliver (10 s by default), its outcome recorded,
// and the delivery returned as it stands after the try. A receiver that
// hangs holds this call for the timeout and delays no other delivery. The
// event keeps its id, type and data, so a receiver dedupes it as any
// retry; its envelope's timestamp is the time this try is sent, as every
// try's is. A failed try is retried with the outbox's backoff, or
// given up at once like any retry past RetryPolicy.MaxAge or of an event
// delivered at most once; its lastError tells the class of the failure
// only (the cause is logged). NOT_FOUND when the engine knows no such
// event.
func (wh Webhooks) Redeliver(ctx context.Context, id string) (_ *WebhookDelivery, err error) {
	ctx, op := wh.e.Begin(ctx, "webhooks", "Redeliver")
	defer op.End(&err)
	return wh.redeliver(ctx, id)
}

// requeue puts event id back in the outbox, due at due (Redeliver).
func requeue(t *Txn, id string, due time.Time) (outboxRecord, error) {
	d, table, err := findDelivery(t.Tx, id)
	if err != nil {
		return outboxRecord{}, err
	}
	r := outboxRecord{Event: d.Event, Attempts: d.Tries(), LastError: d.LastError, NextAttemptAt: due, Trace: t.traceParent()}
	if table == TableOutboxDead {
		if err := t.Tx.Delete(TableOutboxDead, id); err != nil {
			return r, err
		}
	}
	if table != TableOutbox {
		// The history keeps events whose delivery ended; this one waits
		// again, and is logged anew when it ends.
		if err := t.Delete(TableEventLog, id); err != nil && !errors.Is(err, ErrNotFound) {
			return r, err
		}
	}
	if err := putOutbox(t.Tx, &r); err != nil {
		return r, err
	}
	// Its id is older than where the webhook pass reads the outbox: the
	// pass finds it by its retry entry (outbox_due.go).
	return r, t.Tx.Put(TableOutboxRetry, ixkey.TimeKey(due, id), []byte{})
}
