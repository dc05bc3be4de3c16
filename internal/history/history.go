// Package history reads the event history and the outbox for operators'
// tools (package dashboard, GET /sandbox/webhooks): Webhooks is the
// kernel's group (engine.Webhooks: Flush, Delivery, Redeliver,
// ...) with the lists of deliveries, over the same indexes and cursors as
// every other list, and the reads and sends of the outbox that need no
// worker (Pending, SendTest: outbox.go). It imports the kernel, which
// writes what it reads (the
// history in the commit that ends a delivery, the outbox with its
// operations); the root exposes it as Engine.Webhooks. It also keeps the
// history to its retention (Prune, retention.go), a pass of the due-work
// worker the root registers (Area).
package history

import (
	"context"
	"errors"
	"iter"
	"slices"
	"strings"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/eventrec"
	"github.com/paygrid/payments/internal/ixkey"
	"github.com/paygrid/payments/validate"
)

// Webhooks is the kernel's group of webhook operations (engine.Webhooks)
// with the lists of deliveries: the group the root facade exposes as
// eng.Webhooks.
type Webhooks struct{ engine.Webhooks }

// New returns the Webhooks group of h.
func New(h *engine.Handle) Webhooks { return Webhooks{engine.NewWebhooks(h)} }

// h is the handle wh runs on.
func (wh Webhooks) h() *engine.Handle { return engine.HandleOf(wh.Webhooks) }

// ListDeliveries lists the events whose delivery ended (delivered, not
// sent for want of an endpoint, or given up) in the order they were emitted, newest first with p.Desc. Only an
// engine with Config.EventHistory keeps them; others list none. Events
// still waiting are listed by PendingDeliveries, those given up also by
// DeadEvents.
func (wh Webhooks) ListDeliveries(ctx context.Context, f engine.DeliveryFilter, p engine.ListParams) (_ engine.Page[engine.WebhookDelivery], err error) {
	ctx, op := wh.h().Begin(ctx, "webhooks", "ListDeliveries")
	defer op.End(&err)
	e := wh.h()
	var fe validate.Errors
	fe.Enum("status", f.Status, engine.DeliveryDelivered, engine.DeliveryNotSent, engine.DeliveryFailed)
	if err := engine.Invalid(fe.Err()); err != nil {
		return engine.Page[engine.WebhookDelivery]{}, err
	}
	var out engine.Page[engine.WebhookDelivery]
	err = e.View(ctx, func(t *engine.Txn) error {
		q := engine.ListQuery[engine.WebhookDelivery]{Table: engine.TableEventLog, Index: engine.IxAll, Match: f.Match}
		var err error
		out, err = engine.List(t, q.Narrowest([2]string{engine.IxResource, f.Resource}, [2]string{engine.IxStatus, eventrec.IndexedStatus(f.Status)}), p)
		return err
	})
	return out, err
}

// PendingDeliveries returns up to limit (1..1000, 0 means 100) events still
// waiting for delivery, in the order they were emitted, with their failed
// attempts and the time of the next one; resource, when set, keeps those
// whose data describes that record.
func (wh Webhooks) PendingDeliveries(ctx context.Context, resource string, limit int) (_ []engine.WebhookDelivery, err error) {
	ctx, op := wh.h().Begin(ctx, "webhooks", "PendingDeliveries")
	defer op.End(&err)
	return scanDeliveries(wh.h(), ctx, engine.TableOutbox, engine.DeliveryPending, resource, limit)
}

// DeadEvents returns up to limit (1..1000, 0 means 100) events whose
// delivery was given up (permanent failures, events delivered at most once,
// and retries past RetryPolicy.MaxAge), oldest first: the outbox's
// dead letters, as DeadLetters are those of due work.
func (wh Webhooks) DeadEvents(ctx context.Context, limit int) (_ []engine.WebhookDelivery, err error) {
	ctx, op := wh.h().Begin(ctx, "webhooks", "DeadEvents")
	defer op.End(&err)
	return scanDeliveries(wh.h(), ctx, engine.TableOutboxDead, engine.DeliveryFailed, "", limit)
}

// scanDeliveries reads up to limit outbox records of table (keyed by event
// id, so in the order they were emitted) as deliveries in state status,
// those of resource only when it is set.
func scanDeliveries(e *engine.Handle, ctx context.Context, table, status, resource string, limit int) ([]engine.WebhookDelivery, error) {
	if limit == 0 {
		limit = 100
	}
	if limit < 1 || limit > 1000 {
		return nil, engine.Invalid(validate.Errors{{Field: "limit", Message: "limit must be between 1 and 1000"}})
	}
	out := []engine.WebhookDelivery{}
	err := e.Store.View(ctx, func(tx engine.Tx) error {
		return tx.Scan(table, engine.ScanOptions{}, func(_ string, v []byte) (bool, error) {
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
func (wh Webhooks) AllDeliveries(ctx context.Context, f engine.DeliveryFilter, p engine.ListParams) (_ engine.Page[engine.WebhookDelivery], err error) {
	ctx, op := wh.h().Begin(ctx, "webhooks", "AllDeliveries")
	defer op.End(&err)
	e := wh.h()
	var fe validate.Errors
	fe.Enum("status", f.Status, engine.DeliveryPending, engine.DeliveryDelivered, engine.DeliveryNotSent, engine.DeliveryFailed)
	if err := engine.Invalid(fe.Err()); err != nil {
		return engine.Page[engine.WebhookDelivery]{}, err
	}
	after, err := p.Check(deliveriesList, "|")
	if err != nil {
		return engine.Page[engine.WebhookDelivery]{}, err
	}
	// keyed is a delivery and its place in the list: the event's sort
	// suffix (time, then id), as the history's index orders it.
	type keyed struct {
		k string
		d engine.WebhookDelivery
	}
	beyond := func(k string) bool { return after == "" || (p.Desc && k < after) || (!p.Desc && k > after) }
	var found []keyed
	err = e.View(ctx, func(t *engine.Txn) error {
		found = found[:0]
		queued := map[string]bool{} // events listed from the outbox and its dead letters
		for _, src := range [...]struct{ table, status string }{{engine.TableOutbox, engine.DeliveryPending}, {engine.TableOutboxDead, engine.DeliveryFailed}} {
			err := t.Tx.Scan(src.table, engine.ScanOptions{}, func(_ string, v []byte) (bool, error) {
				r, err := eventrec.Decode(v)
				if err != nil {
					return false, err
				}
				if src.table == engine.TableOutboxDead {
					// Listed from the history when it has it (with
					// the time it was given up).
					if _, err := t.Tx.Get(engine.TableEventLog, r.Event.ID); err == nil {
						return true, nil
					} else if !errors.Is(err, engine.ErrNotFound) {
						return false, err
					}
				}
				queued[r.Event.ID] = true
				d := eventrec.DeliveryOf(r, src.status)
				if k := ixkey.SortSuffix(r.Event.Timestamp, r.Event.ID); beyond(k) && f.Match(&d) {
					found = append(found, keyed{k, d})
				}
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		if f.Status == engine.DeliveryPending {
			return nil
		}
		// The history, from the cursor on, until it has given a page more
		// than the page: the rest of it comes after them.
		index, prefix := engine.IxAll, ""
		if s := eventrec.IndexedStatus(f.Status); s != "" {
			index, prefix = engine.IxStatus, engine.EscapeValue(s)
		}
		opts := engine.ScanOptions{Prefix: prefix + "|", Reverse: p.Desc}
		if after != "" {
			opts.After = prefix + after
		}
		n := 0
		return t.Tx.Scan(engine.IndexTable(engine.TableEventLog, index), opts, func(k string, _ []byte) (bool, error) {
			sk := k[len(prefix):]
			id := sk[strings.LastIndexByte(sk, '|')+1:]
			if queued[id] {
				return true, nil // queued again: listed from the outbox
			}
			var d engine.WebhookDelivery
			if err := engine.GetJSON(t.Tx, engine.TableEventLog, id, &d); errors.Is(err, engine.ErrNotFound) {
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
		return engine.Page[engine.WebhookDelivery]{}, err
	}
	slices.SortFunc(found, func(a, b keyed) int {
		if p.Desc {
			return strings.Compare(b.k, a.k)
		}
		return strings.Compare(a.k, b.k)
	})
	page := engine.Page[engine.WebhookDelivery]{Data: []engine.WebhookDelivery{}}
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

// ListDeliveriesAll walks every page of ListDeliveries from p on (engine.All).
func (wh Webhooks) ListDeliveriesAll(ctx context.Context, f engine.DeliveryFilter, p engine.ListParams) iter.Seq2[engine.WebhookDelivery, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[engine.WebhookDelivery], error) {
		return wh.ListDeliveries(ctx, f, p)
	})
}

// AllDeliveriesAll walks every page of AllDeliveries from p on (engine.All).
func (wh Webhooks) AllDeliveriesAll(ctx context.Context, f engine.DeliveryFilter, p engine.ListParams) iter.Seq2[engine.WebhookDelivery, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[engine.WebhookDelivery], error) {
		return wh.AllDeliveries(ctx, f, p)
	})
}
