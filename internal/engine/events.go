package engine

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/paygrid/payments/internal/eventrec"
	"github.com/paygrid/payments/internal/ixkey"
	"github.com/paygrid/payments/internal/outbound"
)

// The records of webhook events are package eventrec's, with their
// codecs; the kernel stores them and re-exports the public names.

// EventType is a webhook event's type, such as OUTGOING_PAYMENT.COMPLETED
// (reference WebhookType).
type EventType = eventrec.EventType

// Event is one state change, delivered to the Notifier in the reference's
// webhook envelope: {id, type, timestamp, data} (eventrec.Event).
type Event = eventrec.Event

// outboxRecord is an Event waiting for delivery, with its attempts
// (eventrec.Record), kept in TableOutbox at the event's id.
type outboxRecord = eventrec.Record

// WebhookDelivery is an event and where its delivery stands
// (eventrec.WebhookDelivery).
type WebhookDelivery = eventrec.WebhookDelivery

// Delivery is what a webhook endpoint answered (outbound.Delivery).
type Delivery = outbound.Delivery

// DeliveryAnswer is what the webhook endpoint answered to one event
// (outbound.Answer).
type DeliveryAnswer = outbound.Answer

// DeliveryFilter narrows Webhooks.ListDeliveries and AllDeliveries
// (eventrec.DeliveryFilter).
type DeliveryFilter = eventrec.DeliveryFilter

// Delivery states of a WebhookDelivery, and why one was NOT_SENT
// (eventrec).
const (
	DeliveryPending   = eventrec.DeliveryPending
	DeliveryDelivered = eventrec.DeliveryDelivered
	DeliveryFailed    = eventrec.DeliveryFailed
	DeliveryNotSent   = eventrec.DeliveryNotSent
	ReasonNoEndpoint  = eventrec.ReasonNoEndpoint
)

// EventTest is the type of the test event sent to a newly configured webhook
// endpoint and by the sandbox's test-webhook operation; its data is {}.
const EventTest EventType = "TEST"

// notRetried reports the event types delivered at most once: TEST, and those an area registered (DeliveryHooks.Once, such as an
// in-flow approval request, decided otherwise when its delivery fails). A
// failed one goes to the dead letters.
func (r *Registry) notRetried(typ EventType) bool {
	return typ == EventTest || slices.Contains(r.hooks.Once, typ)
}

// DeliveryHooks are what the outbox's delivery asks of the areas; an area
// registers the ones it serves (AreaDef.Hooks), and the kernel stays
// ignorant of where webhooks go and what their answers mean.
type DeliveryHooks struct {
	// Endpoint returns the webhook endpoint a WebhookSender sends events
	// to, "" for none. It is read once per delivery pass.
	Endpoint func(ctx context.Context) (string, error)
	// EndpointIn is Endpoint as the transaction t sees it: a delivery
	// pass reads it with the outbox, and with an EndpointOnly Notifier an
	// operation writes its events only when t sees an endpoint.
	EndpointIn func(t *Txn) (string, error)
	// AnswerTypes are the event types whose endpoint answers an area
	// reads: Answered receives them once the pass's outcomes are recorded
	// (outside any transaction: it runs its own to act on them).
	AnswerTypes []EventType
	Answered    func(ctx context.Context, answers []DeliveryAnswer)
	// Once are event types delivered at most once, besides TEST.
	Once []EventType
}

// TableOutboxDead holds events whose delivery was abandoned.
const TableOutboxDead = "outbox_dead"

// GetOutbox reads the outbox record of event id (ErrNotFound when it is
// not there).
func GetOutbox(tx Tx, id string) (eventrec.Record, error) {
	b, err := tx.Get(TableOutbox, id)
	if err != nil {
		return outboxRecord{}, err
	}
	return eventrec.Decode(b)
}

// putOutbox writes r to the outbox (over the record it replaces, if any).
func putOutbox(tx Tx, r *outboxRecord) error {
	b, err := r.Encode()
	if err != nil {
		return err
	}
	return tx.Put(TableOutbox, r.Event.ID, b)
}

// Emit writes an event to the outbox inside the transaction; it is delivered
// only if the transaction commits, at least once, in emission order. data
// is encoded now (EncodeRecord), so later changes to it are not seen.
func (t *Txn) Emit(typ EventType, data any) error {
	if fate, err := t.fateOf(typ); fate == fateDropped || err != nil {
		return err
	}
	raw, err := EncodeRecord(data)
	if err != nil {
		return err
	}
	return t.EmitEncoded(typ, raw)
}

// EmitEncoded is Emit with the data already encoded by EncodeRecord (valid,
// compact JSON).
func (t *Txn) EmitEncoded(typ EventType, raw []byte) error {
	return t.EmitAppended(typ, len(raw), func(b []byte) ([]byte, error) { return append(b, raw...), nil })
}

// EmitAppended is Emit with the data appended by data: valid, compact JSON
// of about size bytes, written straight into the outbox record (a hot path
// saves one copy of the event's data).
func (t *Txn) EmitAppended(typ EventType, size int, data func([]byte) ([]byte, error)) error {
	fate, err := t.fateOf(typ)
	if fate == fateDropped || err != nil {
		return err
	}
	id := t.NewID("Webhook")
	if fate == fateLogged {
		return logEmitted(t, Event{ID: id, Type: typ, Timestamp: t.Now}, size, data)
	}
	rec := outboxRecord{Event: Event{ID: id, Type: typ, Timestamp: t.Now}, NextAttemptAt: t.Now, Trace: t.traceParent()}
	t.emitted = true
	b, err := eventrec.AppendHead(make([]byte, 0, size+256), &rec)
	if err != nil {
		return err
	}
	start := len(b)
	if b, err = data(b); err != nil {
		return err
	}
	rec.Event.Data = b[start:len(b):len(b)]
	if b, err = eventrec.AppendTail(b, &rec); err != nil {
		return err
	}
	return insertIndexed(t, TableOutbox, id, rec, b, false) // never rewritten through PutIndexed: nothing to remember
}

// fateOf decides, once per run of the transaction function, what becomes
// of the events t emits of type typ (EndpointOnly). TEST events are sent
// to an endpoint explicitly and always go to the outbox.
func (t *Txn) fateOf(typ EventType) (eventFate, error) {
	if typ == EventTest {
		return fateOutbox, nil
	}
	if t.fate == fateUndecided {
		e := t.Handle
		fate := fateOutbox
		if d, ok := e.notifier.(outbound.EndpointOnly); ok && d.DropsWithoutEndpoint() && e.Registry.hooks.EndpointIn != nil {
			endpoint, err := e.Registry.hooks.EndpointIn(t)
			if err != nil {
				return fateUndecided, err
			}
			switch {
			case endpoint != "":
			case e.Config.EventHistory:
				fate = fateLogged
			default:
				fate = fateDropped
			}
		}
		t.fate = fate
	}
	return t.fate, nil
}

// eventFate is what becomes of the events a transaction emits (fateOf).
type eventFate uint8

const (
	fateUndecided eventFate = iota
	// fateOutbox: written to the outbox, for delivery.
	fateOutbox
	// fateDropped: nothing would receive them (an EndpointOnly Notifier
	// and no endpoint), so they are not written.
	fateDropped
	// fateLogged: nothing would receive them, but the event history keeps
	// them: they enter it delivered, in the transaction that emits them, as
	// a delivery pass would have recorded them once the Notifier dropped
	// them.
	fateLogged
)

// poke wakes the webhook worker without blocking (a wake already pending
// is enough).
func (e *Handle) poke() {
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

// workers runs the engine's background workers until Close: webhook
// delivery, woken by every commit that wrote events and at least once a
// second for retries; due work (settlement outcomes, expiries, timeouts,
// idempotency purges) once a second; and hand-overs of payments to the
// rail that were not taken right after commit, once a second. They are
// separate so that a slow webhook endpoint or a slow rail never delays
// settlement.
func (e *Handle) workers() {
	defer close(e.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-e.stop; cancel() }()
	passes := []func(){
		func() {
			if _, err := e.flush(ctx, rideWait); err != nil && ctx.Err() == nil {
				e.Log.WarnContext(ctx, "outbox delivery pass failed", "err", err)
			}
		},
		func() {
			e.purgeIdempotency(ctx)
			if _, err := e.processDue(ctx); err != nil && ctx.Err() == nil {
				e.Log.WarnContext(ctx, "processing due work failed", "err", err)
			}
		},
		func() {
			if _, err := e.handOverPending(ctx); err != nil && ctx.Err() == nil {
				e.Log.WarnContext(ctx, "handing payments to the rail failed", "err", err)
			}
		},
	}
	var wg sync.WaitGroup
	for i, pass := range passes {
		wake := (<-chan struct{})(nil)
		if i == 0 {
			wake = e.kick
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			loop(e, ctx, wake, pass)
		}()
	}
	wg.Wait()
}

// Running reports whether the engine's background workers (webhook
// delivery, due work, hand-overs to the rail) run: from Run until Close
// begins (a handle never Run reports true too: it only checks that Close
// has not begun). A readiness probe reads it (httpapi.Ready).
func (wh Webhooks) Running() bool {
	select {
	case <-wh.e.stop:
		return false
	case <-wh.e.done:
		return false
	default:
		return true
	}
}

// loop calls pass once a second and whenever wake fires, until ctx ends.
func loop(e *Handle, ctx context.Context, wake <-chan struct{}, pass func()) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
		pass()
	}
}

// Flush delivers every outbox event that is due now, in order, and returns how
// many were delivered. Failed deliveries are rescheduled with backoff. The
// webhook worker does the same in the background; tests call it to deliver
// at once. One pass runs at a time (flushMu): a Flush waits for the
// worker's pass, and the worker for a Flush.
func (wh Webhooks) Flush(ctx context.Context) (_ int, err error) {
	ctx, op := wh.e.Begin(ctx, "webhooks", "Flush")
	defer op.End(&err)
	// Outcomes the worker left for the next operation to record are
	// recorded now, before this pass reads the outbox; a worker about to
	// leave some records them at once.
	e := wh.e
	if o := takeOutcomes(e); o != nil {
		o.done <- e.Store.Update(ctx, o.recordTx)
	}
	select {
	case e.hurry <- struct{}{}:
	default:
	}
	return e.flush(ctx, 0)
}

// rideWait is how long the webhook worker lets the outcomes of a pass wait
// for an operation's commit to record them before it commits them alone.
// Only their recording waits: the deliveries have been made. A client doing
// one operation after another on a durable store then pays one commit per
// operation instead of two (its own and the pass's).
const rideWait = 20 * time.Millisecond

// outcomes are what the deliveries of one webhook pass came to, recorded in
// one store transaction: delivered events leave the outbox (and enter the
// history), failed ones are rescheduled or dead-lettered.
type outcomes struct {
	e   *Handle
	due []outboxRecord
	// stale are retry entries of events no longer waiting, deleted with
	// the outcomes; entry the due events read through theirs
	// (outbox_due.go).
	stale []string
	entry map[string]bool
	errs  []error   // errs[i] is due[i]'s delivery error, nil when delivered
	at    time.Time // when the deliveries ended, the base of their backoff
	now   time.Time // when the pass began, the time of the history entries
	// notSent is set when the events had nowhere to go: the Notifier
	// delivers only to a webhook endpoint and none was configured. The
	// history logs them NOT_SENT instead of DELIVERED.
	notSent bool

	delivered int
	// gaveUp[i] is set when due[i] was given up (dead-lettered) by the
	// recorded outcomes.
	gaveUp []bool
	// done receives, once, the result of the transaction that took these
	// outcomes from the engine's slot (takeOutcomes): nil when they are
	// recorded.
	done chan error
}

// offerOutcomes leaves o in the engine's slot, where the next operation's
// commit takes it (there is at most one: only a pass holding flushMu
// offers).
func offerOutcomes(e *Handle, o *outcomes) {
	e.rideMu.Lock()
	defer e.rideMu.Unlock()
	e.riding = o
}

// takeOutcomes empties the slot; whoever takes outcomes must send on their
// done.
func takeOutcomes(e *Handle) *outcomes {
	e.rideMu.Lock()
	defer e.rideMu.Unlock()
	o := e.riding
	e.riding = nil
	return o
}

// recordTx is record in a store transaction of its own.
func (o *outcomes) recordTx(tx Tx) error { return o.record(&Txn{Tx: tx, Handle: o.e}) }

// record writes the outcomes in t; the store may run it more than once.
// A delivered event is deleted without being read first (the record rides
// in a payment's commit, where a read is a round trip on some stores): one
// a concurrent pass delivered is gone (ErrNotFound).
func (o *outcomes) record(t *Txn) error {
	e, tx := o.e, t.Tx
	o.delivered, o.gaveUp = 0, make([]bool, len(o.errs))
	if err := dropStale(tx, o.stale); err != nil {
		return err
	}
	for i, derr := range o.errs {
		r := o.due[i]
		// An event tried before, or read through its retry entry, has
		// one, which its outcome replaces; one never tried has none (no
		// write). A requeued event never tried keeps its entry until a
		// pass finds it stale.
		if r.Attempts > 0 || o.entry[r.Event.ID] {
			if err := dropRetry(tx, &r); err != nil {
				return err
			}
		}
		if derr == nil {
			err := tx.Delete(TableOutbox, r.Event.ID)
			if errors.Is(err, ErrNotFound) {
				continue // delivered by a concurrent pass
			}
			if err != nil {
				return err
			}
			o.delivered++
			status := DeliveryDelivered
			if o.notSent {
				status = DeliveryNotSent
			}
			if err := logDelivery(e, t, r, status, o.now); err != nil {
				return err
			}
			continue
		}
		if _, err := tx.Get(TableOutbox, r.Event.ID); errors.Is(err, ErrNotFound) {
			continue // delivered by a concurrent pass
		}
		r.Attempts++
		r.LastError = derr.Error()
		r.NextAttemptAt = o.at.Add(e.Config.Retry.Backoff(r.Attempts))
		if errors.Is(derr, outbound.ErrPermanent) || e.Registry.notRetried(r.Event.Type) || r.NextAttemptAt.Sub(r.Event.Timestamp) > e.Config.Retry.MaxAge {
			if err := tx.Delete(TableOutbox, r.Event.ID); err != nil {
				return err
			}
			if err := PutJSON(t, TableOutboxDead, r.Event.ID, r); err != nil {
				return err
			}
			if err := logDelivery(e, t, r, DeliveryFailed, o.now); err != nil {
				return err
			}
			o.gaveUp[i] = true
			continue
		}
		if err := putOutbox(tx, &r); err != nil {
			return err
		}
		if err := tx.Put(TableOutboxRetry, ixkey.TimeKey(r.NextAttemptAt, r.Event.ID), []byte{}); err != nil {
			return err
		}
	}
	return nil
}

// save records o: in the next operation's commit when ride > 0 and one
// comes within ride (or before ctx ends), in a commit of its own otherwise.
// A store shared by several processes records at once: a pass's claims
// last until its outcomes are recorded.
func (o *outcomes) save(ctx context.Context, ride time.Duration) error {
	if _, shared := o.e.Store.(Claimer); ride > 0 && !shared && o.ride(ctx, ride) {
		return nil
	}
	// A pass cut short by Close still records what it delivered.
	return o.e.Store.Update(context.WithoutCancel(ctx), o.recordTx)
}

// ride offers o to the next operation's commit and reports whether one
// recorded it within wait.
func (o *outcomes) ride(ctx context.Context, wait time.Duration) bool {
	e := o.e
	o.done = make(chan error, 1)
	offerOutcomes(e, o)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err := <-o.done:
		return err == nil
	case <-timer.C:
	case <-e.hurry:
	case <-ctx.Done():
	}
	if takeOutcomes(e) == o {
		return false
	}
	return <-o.done == nil // taken meanwhile: that transaction's result
}

// outboxClaim is the name a delivery pass claims (ClaimWork).
const outboxClaim = "outbox"

// flush is Flush; a pass of the webhook worker lets its outcomes wait up to
// ride for an operation to record them (outcomes.save).
func (e *Handle) flush(ctx context.Context, ride time.Duration) (int, error) {
	e.flushMu.Lock()
	defer e.flushMu.Unlock()
	return e.flushLocked(ctx, ride)
}

// flushLocked is flush with e.flushMu held.
func (e *Handle) flushLocked(ctx context.Context, ride time.Duration) (int, error) {
	now, floor := e.Now(), e.pass.floor(e.Store)
	// An explicit Flush (ride 0) reads the retry entries whatever this
	// process knows of them (outbox_due.go).
	retries := e.pass.readRetries(now, ride == 0)
	var p *duePass
	// Where the events go ("" for the Notifier) is read with the outbox,
	// in the same read transaction, when the area that keeps it can.
	ws, sends := e.notifier.(outbound.WebhookSender)
	endpoint, endpointRead := "", false
	err := viewRetryable(ctx, e.Store, func(tx Tx) error {
		if sends && e.Registry.hooks.EndpointIn != nil {
			var err error
			if endpoint, err = e.Registry.hooks.EndpointIn(&Txn{Tx: tx, Handle: e, Now: now}); err != nil {
				return err
			}
			endpointRead = true
		}
		var err error
		p, err = scanDue(tx, now, e.pass.from, retries)
		return err
	})
	if err != nil {
		return 0, err
	}
	if len(p.missing) > 0 {
		if err := backfill(ctx, e.Store, p.missing); err != nil {
			return 0, err
		}
	}
	due := p.due
	// In emission order (the outbox's key order), whatever their next
	// attempts: a retried event goes before those emitted after it.
	slices.SortFunc(due, func(a, b outboxRecord) int { return strings.Compare(a.Event.ID, b.Event.ID) })
	if len(due) == 0 {
		if len(p.stale) > 0 {
			if err := e.Store.Update(ctx, func(tx Tx) error { return dropStale(tx, p.stale) }); err != nil {
				return 0, err
			}
		}
		e.pass.advance(p, floor, e.newUUID)
		return 0, nil
	}
	// With several processes on one store, one of them delivers at a time
	// (claims.go): a pass claims the whole outbox, and gives the claim up
	// once the outcomes are recorded, or it expires if the process dies
	// first. One claim a pass, not one an event: a pass claimed every due
	// event anyway, and a lease row written and deleted per event was a
	// third of a payment's rows on PostgreSQL.
	mine, err := ClaimWork(e, ctx, []string{outboxClaim})
	if err != nil {
		return 0, err
	}
	defer ReleaseWork(e, mine)
	if mine != nil {
		if !mine[outboxClaim] {
			return 0, nil // another process's pass delivers them
		}
		// Another process may have delivered an event between the scan
		// and the claim (it records the outcomes before it releases its
		// claim): read again, under the claim, what is due.
		err := viewRetryable(ctx, e.Store, func(tx Tx) error {
			var err error
			p, err = scanDue(tx, now, p.from, p.retries)
			return err
		})
		if err != nil {
			return 0, err
		}
		due = p.due
		slices.SortFunc(due, func(a, b outboxRecord) int { return strings.Compare(a.Event.ID, b.Event.ID) })
	}
	if len(due) == 0 {
		return 0, nil
	}
	// answers collects what the endpoint said to the events whose answers
	// an area reads, handed to it once the outcomes are recorded.
	var answers []DeliveryAnswer
	notSent := false // Notify drops every event: they have nowhere to go
	if sends {
		if !endpointRead {
			var err error
			if endpoint, err = e.WebhookEndpoint(ctx); err != nil {
				return 0, err
			}
		}
		if d, ok := e.notifier.(outbound.EndpointOnly); ok && endpoint == "" {
			notSent = d.DropsWithoutEndpoint()
		}
	}
	deliver := e.deliverFunc(ws, endpoint, &answers)
	// Deliver every due event, then record all outcomes in one commit: a
	// crash in between re-delivers, which at-least-once allows. With an
	// Observer each delivery is a span (spans[i], due[i]'s), a child of
	// the transaction that emitted the event, ended once its outcome is
	// recorded.
	o := &outcomes{e: e, due: due, stale: p.stale, entry: p.entry, errs: make([]error, 0, len(due)), now: now, notSent: notSent}
	var spans []*span
	for _, r := range due {
		if ctx.Err() != nil {
			break
		}
		dctx, sp, trace := ctx, (*span)(nil), r.Trace
		if e.obs != nil {
			dctx, sp = e.startWork(ctx, Work{Kind: WorkDelivery, Name: string(r.Event.Type), ID: r.Event.ID, Parent: r.Trace, Attempt: r.Attempts + 1})
			spans = append(spans, sp)
			trace = cmp.Or(e.obs.TraceParent(dctx), trace)
		}
		if trace != "" {
			dctx = WithTraceParent(dctx, trace)
		}
		err := deliver(dctx, r.Event) // stamped with its send time (deliverFunc)
		if sp != nil {
			sp.w.Took = time.Since(sp.w.Began) // the try itself, not the recording
		}
		o.errs = append(o.errs, err)
	}
	o.at = e.Now()
	if len(answers) > 0 {
		ride = 0 // the answers decide payments: record and apply them now
	}
	if err := o.save(ctx, ride); err != nil {
		for i, sp := range spans {
			sp.end("retry", cmp.Or(o.errs[i], err))
		}
		return 0, err
	}
	if len(answers) > 0 {
		e.Registry.hooks.Answered(ctx, answers)
	}
	for i, derr := range o.errs {
		dctx, outcome := ctx, "delivered"
		if spans != nil {
			dctx = spans[i].ctx
		}
		switch {
		case derr == nil:
		case i < len(o.gaveUp) && o.gaveUp[i]:
			// An operator must know: the receiver will never get it
			// unless it is sent again (Redeliver).
			outcome = "given_up"
			e.Log.WarnContext(dctx, "webhook given up", "event", due[i].Event.ID, "type", due[i].Event.Type, "endpoint", endpoint,
				"attempts", due[i].Attempts+1, "err", outbound.Cause(derr))
		default:
			outcome = "retry"
			e.Log.InfoContext(dctx, "event delivery failed", "event", due[i].Event.ID, "type", due[i].Event.Type, "endpoint", endpoint, "err", outbound.Cause(derr))
		}
		if spans != nil {
			spans[i].end(outcome, derr)
		}
	}
	if len(o.errs) < len(due) {
		return o.delivered, ctx.Err()
	}
	e.pass.advance(p, floor, e.newUUID)
	return o.delivered, nil
}

// WebhookEndpoint is the endpoint a WebhookSender sends events to, "" when
// none is configured (or no area serves one).
func (e *Handle) WebhookEndpoint(ctx context.Context) (string, error) {
	if e.Registry.hooks.Endpoint == nil {
		return "", nil
	}
	return e.Registry.hooks.Endpoint(ctx)
}

// Notifier is the port the engine's events leave through
// (Config.Notifier).
func (e *Handle) Notifier() outbound.Notifier { return e.notifier }

// Webhooks reads and delivers the outbox of webhook events: the group the
// root facade exposes as eng.Webhooks, for operators and tests.
type Webhooks struct{ e *Handle }

// NewWebhooks returns the Webhooks group of h. Its reads are outside any
// operation and need no idempotency.
func NewWebhooks(h *Handle) Webhooks { return Webhooks{h} }

// HandleOf returns the handle w (Webhooks, or a group embedding it) runs on. The facade keeps its handle
// unexported; this is how the module's test helpers (internal/enginetest)
// reach an Engine's core, through its Webhooks group, to run a transaction
// the way an area does. A function of an internal package, it is out of
// reach of programs outside the module (a method would not be: they hold
// Engine.Webhooks).
func HandleOf(w interface{ handle() *Handle }) *Handle { return w.handle() }

// handle is the handle wh runs on (HandleOf); a group embedding Webhooks
// has it too.
func (wh Webhooks) handle() *Handle { return wh.e }
