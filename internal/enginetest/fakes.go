package enginetest

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/paygrid/payments"
)

// Recorder is a Notifier that records the events it accepts and can be told
// to fail. Its zero value records everything; it is safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	events []payments.Event
	traces map[string]string // the traceparent each event was sent with
	fail   error
	calls  int
}

// Notify counts the call and, unless the Recorder was told to fail,
// records ev and the traceparent ctx carries; it returns the error set by
// FailWith.
func (r *Recorder) Notify(ctx context.Context, ev payments.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.fail != nil {
		return r.fail
	}
	r.events = append(r.events, ev)
	if tp := payments.TraceParentFrom(ctx); tp != "" {
		if r.traces == nil {
			r.traces = map[string]string{}
		}
		r.traces[ev.ID] = tp
	}
	return nil
}

// TraceParent returns the traceparent the event id was delivered with,
// "" for none.
func (r *Recorder) TraceParent(id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.traces[id]
}

// FailWith makes every later Notify return err without recording the
// event; nil makes it record again. Wrap payments.ErrPermanent to stop the
// engine's retries.
func (r *Recorder) FailWith(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail = err
}

// Events returns a copy of the events recorded, in the order delivered.
func (r *Recorder) Events() []payments.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// Types returns the types of the events recorded, in the order delivered
// (nil when none were).
func (r *Recorder) Types() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, string(e.Type))
	}
	return out
}

// Calls returns how often Notify was called, failed calls included.
func (r *Recorder) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// CodeBox is a CodeSender that keeps the codes it is given and can be told
// to refuse them. Its zero value accepts everything; it is safe for
// concurrent use.
type CodeBox struct {
	mu   sync.Mutex
	sent []payments.CodeMessage
	fail error
}

// SendCode keeps m, or returns the error set by FailWith.
func (b *CodeBox) SendCode(_ context.Context, m payments.CodeMessage) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return b.fail
	}
	b.sent = append(b.sent, m)
	return nil
}

// FailWith makes every later SendCode refuse its code with err; nil makes
// it accept them again.
func (b *CodeBox) FailWith(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fail = err
}

// Messages returns a copy of the codes accepted, in order.
func (b *CodeBox) Messages() []payments.CodeMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]payments.CodeMessage(nil), b.sent...)
}

// Probe is a Store that notes what the engine asks of the Store it wraps:
// its Updates, the reads of its Views and the tables written. Set Store
// before use.
type Probe struct {
	payments.Store
	// Updates counts the calls of Update.
	Updates atomic.Int64
	// ViewGets counts the Gets inside View transactions.
	ViewGets atomic.Int64
	// Written holds the name of every table written (a Put, Insert or
	// Delete) as a key with the value true.
	Written sync.Map

	mu        sync.Mutex
	contended []payments.RecordKey
}

// Contended returns the records the last Update was told it contends on
// (payments.WithContended).
func (s *Probe) Contended() []payments.RecordKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.contended
}

// Update counts the call and runs fn on the wrapped store, noting the
// tables fn writes.
func (s *Probe) Update(ctx context.Context, fn func(payments.Tx) error) error {
	s.Updates.Add(1)
	s.mu.Lock()
	s.contended = payments.ContendedKeys(ctx)
	s.mu.Unlock()
	return s.Store.Update(ctx, func(tx payments.Tx) error { return fn(probeTx{tx, s, true}) })
}

// View runs fn on the wrapped store, counting its Gets.
func (s *Probe) View(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.View(ctx, func(tx payments.Tx) error { return fn(probeTx{tx, s, false}) })
}

// probeTx is a transaction of a Probe.
type probeTx struct {
	payments.Tx
	s        *Probe
	writable bool
}

func (t probeTx) Get(table, key string) ([]byte, error) {
	if !t.writable {
		t.s.ViewGets.Add(1)
	}
	return t.Tx.Get(table, key)
}

func (t probeTx) Put(table, key string, v []byte) error {
	t.s.Written.Store(table, true)
	return t.Tx.Put(table, key, v)
}

func (t probeTx) Insert(table, key string, v []byte) error {
	t.s.Written.Store(table, true)
	return t.Tx.Insert(table, key, v)
}

func (t probeTx) Delete(table, key string) error {
	t.s.Written.Store(table, true)
	return t.Tx.Delete(table, key)
}
