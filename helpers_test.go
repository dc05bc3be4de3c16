package payments_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/require"
)

// recorder is a Notifier that records events and can be told to fail.
type recorder struct {
	mu     sync.Mutex
	events []payments.Event
	fail   error
	calls  int
}

func (r *recorder) Notify(_ context.Context, ev payments.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.fail != nil {
		return r.fail
	}
	r.events = append(r.events, ev)
	return nil
}

func (r *recorder) types() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, string(e.Type))
	}
	return out
}

type env struct {
	eng   *payments.Engine
	clock *sandbox.Clock
	rec   *recorder
	store payments.Store
}

// newEnv returns a sandbox engine on memstore with a controllable clock and a
// recording notifier; mutate lets a test adjust the config.
func newEnv(t testing.TB, mutate ...func(*payments.Config)) *env {
	t.Helper()
	clock := sandbox.NewClock(timeZero())
	rec := &recorder{}
	store := memstore.New()
	cfg := payments.Config{Store: store, Now: clock.Now, NewUUID: sandbox.NewUUID, Notifier: rec, Sandbox: true}
	for _, m := range mutate {
		m(&cfg)
	}
	eng, err := payments.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close(); _ = store.Close() })
	return &env{eng: eng, clock: clock, rec: rec, store: store}
}

// requireCode asserts err carries code and, when fields are given, that
// exactly those fields are reported.
func requireCode(t testing.TB, err error, code payments.Code, fields ...string) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, payments.CodeOf(err), "error: %v", err)
	if len(fields) == 0 {
		return
	}
	var pe *payments.Error
	require.ErrorAs(t, err, &pe)
	var got []string
	for _, f := range pe.Fields {
		got = append(got, f.Field)
	}
	require.ElementsMatch(t, fields, got)
}

// probe is a Store that notes what the engine asks of it: its Updates, the
// reads of its Views and the tables written.
type probe struct {
	payments.Store
	updates  atomic.Int64
	viewGets atomic.Int64
	written  sync.Map // table name: true
}

func (s *probe) Update(ctx context.Context, fn func(payments.Tx) error) error {
	s.updates.Add(1)
	return s.Store.Update(ctx, func(tx payments.Tx) error { return fn(probeTx{tx, s, true}) })
}

func (s *probe) View(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.View(ctx, func(tx payments.Tx) error { return fn(probeTx{tx, s, false}) })
}

type probeTx struct {
	payments.Tx
	s        *probe
	writable bool
}

func (t probeTx) Get(table, key string) ([]byte, error) {
	if !t.writable {
		t.s.viewGets.Add(1)
	}
	return t.Tx.Get(table, key)
}

func (t probeTx) Put(table, key string, v []byte) error {
	t.s.written.Store(table, true)
	return t.Tx.Put(table, key, v)
}

func (t probeTx) Insert(table, key string, v []byte) error {
	t.s.written.Store(table, true)
	return t.Tx.Insert(table, key, v)
}

func (t probeTx) Delete(table, key string) error {
	t.s.written.Store(table, true)
	return t.Tx.Delete(table, key)
}
