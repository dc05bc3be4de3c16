package engine_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// observedEnv is a money engine whose Observer is obs, with an account of
// a customer funded with 1,000.00 USD and that customer's external USD
// account.
func observedEnv(t *testing.T, obs payments.Observer) (e *enginetest.Env, from, external string) {
	t.Helper()
	e = enginetest.MoneyEnv(t, func(c *payments.Config) { c.Observer = obs })
	in := enginetest.FullIndividual("Ann Payer")
	in.Currencies = []string{"USD"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	from = page.Data[0].ID
	_, err = e.Eng.Sandbox.Fund(ctx, from, 100_000)
	require.NoError(t, err)
	return e, from, e.ExternalUSD(t, c.ID, "0000")
}

// only returns the one unit of ws, failing the test when there is not
// exactly one.
func only(t *testing.T, ws []enginetest.Observed) enginetest.Observed {
	t.Helper()
	require.Len(t, ws, 1, "%+v", ws)
	return ws[0]
}

func TestObserver(t *testing.T) {
	obs := &enginetest.Observer{}
	e, from, external := observedEnv(t, obs)
	h := engine.HandleOf(e.Eng.Webhooks)
	hook := "https://hooks.example.com/a"
	_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &hook})
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	t.Run("an operation is observed with its outcome code and latency, its transactions inside it", func(t *testing.T) {
		obs.Reset()
		_, err := e.Eng.Quotes.Get(ctx, "Quote:none")
		enginetest.RequireCode(t, err, payments.CodeQuoteNotFound)
		w := only(t, obs.Ended(payments.WorkOperation))
		assert.Equal(t, "quotes", w.Area)
		assert.Equal(t, "Get", w.Name)
		assert.Equal(t, string(payments.CodeQuoteNotFound), w.Outcome)
		assert.Equal(t, payments.CodeQuoteNotFound, payments.CodeOf(w.Err))
		assert.Positive(t, w.Took)
		assert.False(t, w.Began.IsZero())
		txn := only(t, obs.Ended(payments.WorkTransaction))
		assert.Equal(t, "read", txn.Name)
		assert.Equal(t, "rollback", txn.Outcome, "the function refused")
		assert.Equal(t, 1, txn.Runs)
		assert.Equal(t, w.N, txn.Parent, "the read runs inside the operation")
	})

	t.Run("an operation run inside another is part of it", func(t *testing.T) {
		obs.Reset()
		_, err := e.Eng.Sandbox.Fund(ctx, from, 100) // accounts' Sandbox.Fund inside
		require.NoError(t, err)
		w := only(t, obs.Ended(payments.WorkOperation))
		assert.Equal(t, "sandbox", w.Area)
		assert.Equal(t, "Fund", w.Name)
		assert.Equal(t, payments.OutcomeOK, w.Outcome)

		obs.Reset()
		outer, span := h.Begin(ctx, "test", "Outer")
		inner, innerSpan := h.Begin(outer, "quotes", "Get")
		assert.Equal(t, outer, inner)
		innerSpan.End(&err)
		span.End(&err)
		assert.Equal(t, "Outer", only(t, obs.Ended(payments.WorkOperation)).Name)
	})

	t.Run("a payment: its write, its hand-over to the rail and its events' deliveries, each in the trace of the operation", func(t *testing.T) {
		_, err := e.Eng.Webhooks.Flush(ctx) // what earlier subtests emitted
		require.NoError(t, err)
		obs.Reset()
		q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, external, 1_000, true))
		require.NoError(t, err)
		var op enginetest.Observed
		for _, w := range obs.Ended(payments.WorkOperation) {
			if w.Name == "Create" {
				op = w
			}
		}
		assert.Equal(t, "quotes", op.Area)
		assert.Equal(t, payments.OutcomeOK, op.Outcome)

		var write enginetest.Observed
		for _, w := range obs.Ended(payments.WorkTransaction) {
			if w.Name == "write" && w.Parent == op.N {
				write = w
			}
		}
		require.NotZero(t, write.N, "the operation's write transaction")
		assert.Equal(t, "commit", write.Outcome)
		assert.GreaterOrEqual(t, write.Runs, 1)

		ho := only(t, obs.Ended(payments.WorkHandOver))
		assert.Equal(t, "send", ho.Name)
		assert.Equal(t, "send:"+q.TransactionID, ho.ID)
		assert.Equal(t, "ok", ho.Outcome)
		assert.Equal(t, op.N, ho.Parent, "handed over by the operation, after its commit")

		_, err = e.Eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		deliveries := obs.Ended(payments.WorkDelivery)
		require.NotEmpty(t, deliveries)
		writes := map[int]bool{}
		for _, w := range obs.Ended(payments.WorkTransaction) {
			writes[w.N] = w.Name == "write" && w.Root == op.Root
		}
		for _, d := range deliveries {
			assert.Equal(t, "delivered", d.Outcome)
			assert.Equal(t, 1, d.Attempt)
			assert.Equal(t, op.Root, d.Root, "%s continues the operation's trace", d.Name)
			assert.True(t, writes[d.Parent], "%s: a child of the transaction that emitted it", d.Name)
		}
		assert.Equal(t, write.N, deliveries[0].Parent, "the first event was emitted by the operation's write")
		events := e.Rec.Events()
		last := events[len(events)-1]
		assert.Equal(t, deliveries[len(deliveries)-1].ID, last.ID)
		assert.Equal(t, obs.TraceParentOf(deliveries[len(deliveries)-1]), e.Rec.TraceParent(last.ID),
			"the delivery carries its own span's traceparent")
	})

	t.Run("a delivery that fails is retried, then given up", func(t *testing.T) {
		obs.Reset()
		e.Rec.FailWith(payments.ErrPermanent)
		defer e.Rec.FailWith(nil)
		_, err := e.Eng.Sandbox.Fund(ctx, from, 100)
		require.NoError(t, err)
		_, err = e.Eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		for _, d := range obs.Ended(payments.WorkDelivery) {
			assert.Equal(t, "given_up", d.Outcome)
			assert.ErrorIs(t, d.Err, payments.ErrPermanent)
		}
	})

	t.Run("a due item is observed in its own trace", func(t *testing.T) {
		_, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, external, 1_000, false))
		require.NoError(t, err)
		obs.Reset()
		e.Clock.Advance(time.Hour) // the quote expires
		_, err = e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
		var applied []enginetest.Observed
		for _, w := range obs.Ended(payments.WorkDue) {
			if w.Outcome == "applied" {
				applied = append(applied, w)
			}
		}
		require.NotEmpty(t, applied)
		assert.Zero(t, applied[0].Parent)
		assert.NotEmpty(t, applied[0].Name, "its due table")
	})

	t.Run("the backlog counts what waits", func(t *testing.T) {
		e.Rec.FailWith(errFlaky)
		defer e.Rec.FailWith(nil)
		_, err := e.Eng.Sandbox.Fund(ctx, from, 100)
		require.NoError(t, err)
		_, err = e.Eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		b, err := e.Eng.Backlog(ctx, 0)
		require.NoError(t, err)
		pending, err := e.Eng.Webhooks.Pending(ctx)
		require.NoError(t, err)
		require.NotEmpty(t, pending)
		assert.Equal(t, len(pending), b.Webhooks)
		assert.Equal(t, pending[0].Timestamp, b.OldestWebhook)
		assert.Positive(t, b.DeadWebhooks, "given up above")
		assert.False(t, b.Capped)
		assert.Zero(t, b.Due["settlements_due"])

		now := e.Clock.Now()
		require.NoError(t, enginetest.SeedDue(ctx, e.Eng, "settlements_due", engine.DueKey(now, "a"), []byte("{}")))
		require.NoError(t, enginetest.SeedDue(ctx, e.Eng, "settlements_due", engine.DueKey(now.Add(time.Hour), "b"), []byte("{}")))
		b, err = e.Eng.Backlog(ctx, 0)
		require.NoError(t, err)
		assert.Equal(t, 1, b.Due["settlements_due"], "the item due now; not the one due later")
		assert.Equal(t, map[string]int{"send": 0, "pull": 0, "code": 0}, b.Intents)

		// A payment waiting for the rail, backing off after a failure.
		retry, err := json.Marshal(engine.DueRetry{Attempts: 1, NextAttemptAt: now.Add(time.Hour)})
		require.NoError(t, err)
		require.NoError(t, enginetest.SeedDue(ctx, e.Eng, engine.TableDueRetry, engine.TableIntents+"\x00send:Transaction:x", retry))
		require.NoError(t, enginetest.SeedDue(ctx, e.Eng, engine.TableIntents, "send:Transaction:x", []byte(`{"send":{}}`)))
		b, err = e.Eng.Backlog(ctx, 0)
		require.NoError(t, err)
		assert.Equal(t, 1, b.Intents["send"])
		b, err = e.Eng.Backlog(ctx, 1)
		require.NoError(t, err)
		assert.True(t, b.Capped)
	})
}

// errFlaky is a delivery failure that is retried.
var errFlaky = errFlakyT{}

type errFlakyT struct{}

func (errFlakyT) Error() string { return "receiver down" }

// TestObserver_NilCostsNothing: without an Observer an operation's span
// allocates nothing, and a read allocates what the store's own View and
// the transaction allocate.
func TestObserver_NilCostsNothing(t *testing.T) {
	e := enginetest.NewEnv(t)
	h := engine.HandleOf(e.Eng.Webhooks)
	var err error
	begin := testing.AllocsPerRun(100, func() {
		_, span := h.Begin(ctx, "quotes", "Create")
		span.End(&err)
	})
	assert.Zero(t, begin, "Begin and End without an Observer")

	view := testing.AllocsPerRun(100, func() { _ = h.View(ctx, readNone) })
	raw := testing.AllocsPerRun(100, func() {
		_ = h.Store.View(ctx, func(tx engine.Tx) error { return readNone(&engine.Txn{Tx: tx, Handle: h, Now: h.Now()}) })
	})
	assert.Equal(t, raw, view, "View without an Observer allocates no more than the store's View")
}

// readNone is a read transaction's function (a variable, so that no call
// of it is inlined).
var readNone = func(t *engine.Txn) error { _, err := t.Get("quotes", "none"); return err }

// BenchmarkObserver measures a quote created and executed at once with no
// Observer and with the recording one.
func BenchmarkObserver(b *testing.B) {
	for _, c := range []struct {
		name string
		obs  payments.Observer
	}{{"nil", nil}, {"recording", &discard{}}} {
		b.Run(c.name, func(b *testing.B) {
			e := enginetest.MoneyEnv(b, func(cfg *payments.Config) { cfg.Observer = c.obs })
			from, to := e.USDAccount(b, "Ann Payer"), e.USDAccount(b, "Bo Payee")
			_, err := e.Eng.Sandbox.Fund(ctx, from, payments.MaxSandboxFunding)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, true)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// discard is an Observer that keeps nothing.
type discard struct{}

func (discard) Start(ctx context.Context, _ payments.Work) context.Context { return ctx }
func (discard) End(context.Context, payments.Work)                         {}
func (discard) TraceParent(context.Context) string                         { return "" }
