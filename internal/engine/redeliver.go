package engine

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/paygrid/payments/internal/eventrec"
	"github.com/paygrid/payments/internal/outbound"
)

// redeliverHold is how long past its try's timeout an event being sent
// again by Redeliver is kept from the delivery passes: its outcome is
// recorded well within it; should the process die first, a pass delivers
// the event once the hold has passed.
const redeliverHold = 30 * time.Second

// redeliver is Redeliver: it queues event id held for this try (due only
// after the try's timeout and redeliverHold, so no pass takes it), sends
// it alone, outside any delivery pass and bounded by
// RetryPolicy.Redeliver, records the outcome and returns the delivery as
// it stands then. A receiver that hangs holds this call for the timeout,
// and nothing else: the passes go on delivering the other events.
func (wh Webhooks) redeliver(ctx context.Context, id string) (*WebhookDelivery, error) {
	e := wh.e
	timeout := cmp.Or(e.Config.Retry.Redeliver, outbound.DefaultRedeliverTimeout)
	var r outboxRecord
	err := e.Update(ctx, func(t *Txn) error {
		var err error
		r, err = requeue(t, id, t.Now.Add(timeout+redeliverHold))
		return err
	})
	if err != nil {
		return nil, err
	}
	now := e.Now()
	ws, sends := e.notifier.(outbound.WebhookSender)
	endpoint := ""
	if sends {
		if endpoint, err = e.WebhookEndpoint(ctx); err != nil {
			return nil, err
		}
	}
	var answers []DeliveryAnswer
	deliver := e.deliverFunc(ws, endpoint, &answers)
	dctx, sp, trace := ctx, (*span)(nil), r.Trace
	if e.obs != nil {
		dctx, sp = e.startWork(ctx, Work{Kind: WorkDelivery, Name: string(r.Event.Type), ID: r.Event.ID, Parent: r.Trace, Attempt: r.Attempts + 1})
		trace = cmp.Or(e.obs.TraceParent(dctx), trace)
	}
	if trace != "" {
		dctx = WithTraceParent(dctx, trace)
	}
	tctx, cancel := context.WithTimeout(dctx, timeout)
	derr := deliver(tctx, r.Event)
	if derr != nil && tctx.Err() != nil && ctx.Err() == nil {
		derr = outbound.TimedOut(derr)
	}
	cancel()
	if sp != nil {
		sp.w.Took = time.Since(sp.w.Began)
	}
	o := &outcomes{e: e, due: []outboxRecord{r}, errs: []error{derr}, now: now, at: e.Now()}
	// The try was made: its outcome is recorded even when the caller left.
	if err := e.Update(context.WithoutCancel(ctx), o.record); err != nil {
		if sp != nil {
			sp.end("retry", cmp.Or(derr, err))
		}
		return nil, err
	}
	if len(answers) > 0 {
		e.Registry.hooks.Answered(ctx, answers)
	}
	outcome := "delivered"
	switch {
	case derr == nil:
	case o.gaveUp[0]:
		outcome = "given_up"
		e.Log.WarnContext(dctx, "webhook given up", "event", r.Event.ID, "type", r.Event.Type, "endpoint", endpoint,
			"attempts", r.Attempts+1, "err", outbound.Cause(derr))
	default:
		outcome = "retry"
		e.Log.InfoContext(dctx, "event delivery failed", "event", r.Event.ID, "type", r.Event.Type, "endpoint", endpoint, "err", outbound.Cause(derr))
	}
	if sp != nil {
		sp.end(outcome, derr)
	}
	d, err := wh.Delivery(ctx, id)
	if CodeOf(err) == CodeNotFound {
		// Delivered, on an engine that keeps no history.
		r.Attempts++
		d, err = &WebhookDelivery{Event: r.Event, Resource: eventrec.ResourceOf(r.Event.Data), Status: DeliveryDelivered,
			Attempts: r.Attempts, FinishedAt: e.Now()}, nil
	}
	return d, err
}

// deliverFunc returns how an event is delivered now: to endpoint through
// ws (when the Notifier is a WebhookSender and an endpoint is configured),
// its failure told by class only (outbound.Classify), and its answer added to
// answers when an area reads answers of its type; else to the Notifier.
//
// Each try (a pass's, a retry's, Redeliver's) carries the time it is sent,
// on the engine clock, so a receiver checking the timestamp's age accepts a
// retry however late it comes; the record keeps the event's own time (the
// outbox's MaxAge, the history), and the id stays the same on every try.
// Only the timestamp member changes: the data is not copied or encoded
// again.
func (e *Handle) deliverFunc(ws outbound.WebhookSender, endpoint string, answers *[]DeliveryAnswer) func(context.Context, Event) error {
	if ws == nil || endpoint == "" {
		return func(ctx context.Context, ev Event) error {
			ev.Timestamp = e.Now()
			return e.notifier.Notify(ctx, ev)
		}
	}
	return func(ctx context.Context, ev Event) error {
		ev.Timestamp = e.Now()
		d, err := ws.Send(ctx, endpoint, ev)
		if slices.Contains(e.Registry.hooks.AnswerTypes, ev.Type) {
			*answers = append(*answers, DeliveryAnswer{Event: ev, Delivery: d, Err: err})
		}
		return outbound.Classify(ctx, d, err)
	}
}
