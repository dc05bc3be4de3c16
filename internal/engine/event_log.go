package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/eventrec"
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
	return PutIndexed(t, tableEventLog, r.Event.ID, &d, b)
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
	return insertIndexed(t, tableEventLog, ev.ID, &d, b, false)
}

// ListDeliveries lists the events whose delivery ended (delivered, not
// sent for want of an endpoint, or given up) in the order they were emitted, newest first with p.Desc. Only an
// engine with Config.EventHistory keeps them; others list none. Events
// still waiting are listed by PendingDeliveries, those given up also by
// DeadEvents.
func (wh Webhooks) ListDeliveries(ctx context.Context, f DeliveryFilter, p ListParams) (_ Page[WebhookDelivery], err error) {
	ctx, op := wh.e.Begin(ctx, "webhooks", "ListDeliveries")
	defer op.End(&err)
	e := wh.e
	var fe validate.Errors
	fe.Enum("status", f.Status, DeliveryDelivered, DeliveryNotSent, DeliveryFailed)
	if err := Invalid(fe.Err()); err != nil {
		return Page[WebhookDelivery]{}, err
	}
	var out Page[WebhookDelivery]
	err = e.View(ctx, func(t *Txn) error {
		q := ListQuery[WebhookDelivery]{Table: tableEventLog, Index: IxAll, Match: f.Match}
		var err error
		out, err = List(t, q.Narrowest([2]string{ixResource, f.Resource}, [2]string{IxStatus, eventrec.IndexedStatus(f.Status)}), p)
		return err
	})
	return out, err
}

// PendingDeliveries returns up to limit (1..1000, 0 means 100) events still
// waiting for delivery, in the order they were emitted, with their failed
// attempts and the time of the next one; resource, when set, keeps those
// whose data describes that record.
func (wh Webhooks) PendingDeliveries(ctx context.Context, resource string, limit int) (_ []WebhookDelivery, err error) {
	ctx, op := wh.e.Begin(ctx, "webhooks", "PendingDeliveries")
	defer op.End(&err)
	return scanDeliveries(wh.e, ctx, TableOutbox, DeliveryPending, resource, limit)
}

// DeadEvents returns up to limit (1..1000, 0 means 100) events whose
// delivery was given up (permanent failures, events delivered at most once,
// and retries past RetryPolicy.MaxAge), oldest first: the outbox's
// dead letters, as DeadLetters are those of due work.
func (wh Webhooks) DeadEvents(ctx context.Context, limit int) (_ []WebhookDelivery, err error) {
	ctx, op := wh.e.Begin(ctx, "webhooks", "DeadEvents")
	defer op.End(&err)
	return scanDeliveries(wh.e, ctx, tableOutboxDead, DeliveryFailed, "", limit)
}

// scanDeliveries reads up to limit outbox records of table (keyed by event
// id, so in the order they were emitted) as deliveries in state status,
// those of resource only when it is set.
func scanDeliveries(e *Handle, ctx context.Context, table, status, resource string, limit int) ([]WebhookDelivery, error) {
	if limit == 0 {
		limit = 100
	}
	if limit < 1 || limit > 1000 {
		return nil, Invalid(validate.Errors{{Field: "limit", Message: "limit must be between 1 and 1000"}})
	}
	out := []WebhookDelivery{}
	err := e.Store.View(ctx, func(tx Tx) error {
		return tx.Scan(table, ScanOptions{}, func(_ string, v []byte) (bool, error) {
			r, err := eventrec.Decode(v)
			if err != nil {
				return false, err
			}
			if d := eventrec.DeliveryOf(r, status); resource == "" || d.Resource == resource {
				out = append(out, d)
			}
			return len(out) < limit, nil
		})
	})
	return out, err
}

// deliveriesList names the list of AllDeliveries in its cursors.
const deliveriesList = "webhook_deliveries"

// AllDeliveries lists every event the engine knows with where its delivery
// stands, in the order they were emitted (newest first with p.Desc):
// those waiting in the outbox (PENDING), those given up (FAILED: the
// outbox's dead letters) and, with Config.EventHistory, those delivered
// (DELIVERED) and those that had nowhere to go (NOT_SENT). f narrows by
// status (PENDING, DELIVERED, NOT_SENT or FAILED), event
// type and resource. A page reads the outbox and its dead letters whole
// (they hold what still waits and what was given up) and the history a
// page at a time; its cursor resumes after the last event it listed, so
// events emitted meanwhile never shift a later page.
func (wh Webhooks) AllDeliveries(ctx context.Context, f DeliveryFilter, p ListParams) (_ Page[WebhookDelivery], err error) {
	ctx, op := wh.e.Begin(ctx, "webhooks", "AllDeliveries")
	defer op.End(&err)
	e := wh.e
	var fe validate.Errors
	fe.Enum("status", f.Status, DeliveryPending, DeliveryDelivered, DeliveryNotSent, DeliveryFailed)
	if err := Invalid(fe.Err()); err != nil {
		return Page[WebhookDelivery]{}, err
	}
	after, err := p.Check(deliveriesList, "|")
	if err != nil {
		return Page[WebhookDelivery]{}, err
	}
	// keyed is a delivery and its place in the list: the event's sort
	// suffix (time, then id), as the history's index orders it.
	type keyed struct {
		k string
		d WebhookDelivery
	}
	beyond := func(k string) bool { return after == "" || (p.Desc && k < after) || (!p.Desc && k > after) }
	var found []keyed
	err = e.View(ctx, func(t *Txn) error {
		found = found[:0]
		queued := map[string]bool{} // events listed from the outbox and its dead letters
		for _, src := range [...]struct{ table, status string }{{TableOutbox, DeliveryPending}, {tableOutboxDead, DeliveryFailed}} {
			err := t.Tx.Scan(src.table, ScanOptions{}, func(_ string, v []byte) (bool, error) {
				r, err := eventrec.Decode(v)
				if err != nil {
					return false, err
				}
				if src.table == tableOutboxDead {
					// Listed from the history when it has it (with
					// the time it was given up).
					if _, err := t.Tx.Get(tableEventLog, r.Event.ID); err == nil {
						return true, nil
					} else if !errors.Is(err, ErrNotFound) {
						return false, err
					}
				}
				queued[r.Event.ID] = true
				d := eventrec.DeliveryOf(r, src.status)
				if k := sortSuffix(r.Event.Timestamp, r.Event.ID); beyond(k) && f.Match(&d) {
					found = append(found, keyed{k, d})
				}
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		if f.Status == DeliveryPending {
			return nil
		}
		// The history, from the cursor on, until it has given a page more
		// than the page: the rest of it comes after them.
		index, prefix := IxAll, ""
		if s := eventrec.IndexedStatus(f.Status); s != "" {
			index, prefix = IxStatus, EscapeValue(s)
		}
		opts := ScanOptions{Prefix: prefix + "|", Reverse: p.Desc}
		if after != "" {
			opts.After = prefix + after
		}
		n := 0
		return t.Tx.Scan(IndexTable(tableEventLog, index), opts, func(k string, _ []byte) (bool, error) {
			sk := k[len(prefix):]
			id := sk[strings.LastIndexByte(sk, '|')+1:]
			if queued[id] {
				return true, nil // queued again: listed from the outbox
			}
			var d WebhookDelivery
			if err := GetJSON(t.Tx, tableEventLog, id, &d); errors.Is(err, ErrNotFound) {
				return true, nil
			} else if err != nil {
				return false, err
			}
			if !f.Match(&d) {
				return true, nil
			}
			found = append(found, keyed{sk, d})
			n++
			return n <= p.Limit, nil
		})
	})
	if err != nil {
		return Page[WebhookDelivery]{}, err
	}
	slices.SortFunc(found, func(a, b keyed) int {
		if p.Desc {
			return strings.Compare(b.k, a.k)
		}
		return strings.Compare(a.k, b.k)
	})
	page := Page[WebhookDelivery]{Data: []WebhookDelivery{}}
	if len(found) > p.Limit {
		found = found[:p.Limit]
		page.HasMore, page.NextCursor = true, p.CursorFor(deliveriesList, found[len(found)-1].k)
	}
	for _, x := range found {
		page.Data = append(page.Data, x.d)
	}
	if p.Cursor == "" && !page.HasMore {
		n := len(page.Data)
		page.TotalCount = &n
	}
	return page, nil
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
	for _, src := range [...]struct{ table, status string }{{TableOutbox, DeliveryPending}, {tableOutboxDead, DeliveryFailed}} {
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
	err := GetJSON(tx, tableEventLog, id, &logged)
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
	var old *outboxRecord
	if table == TableOutbox {
		cur, err := getOutbox(t.Tx, id)
		if err != nil {
			return r, err
		}
		old = &cur
	}
	if table == tableOutboxDead {
		if err := t.Tx.Delete(tableOutboxDead, id); err != nil {
			return r, err
		}
	}
	if table != TableOutbox {
		// The history keeps events whose delivery ended; this one waits
		// again, and is logged anew when it ends.
		if err := t.Delete(tableEventLog, id); err != nil && !errors.Is(err, ErrNotFound) {
			return r, err
		}
	}
	return r, putOutbox(t.Tx, old, &r)
}
