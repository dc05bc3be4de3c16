package oteltrace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/telemetry/oteltrace"
	"github.com/paygrid/payments/webhooks"
)

var ctx = context.Background()

// The trace context a caller sends (W3C's example).
const (
	callerTrace    = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan     = "00f067aa0ba902b7"
	callerParent   = "00-" + callerTrace + "-" + callerSpan + "-01"
	base           = "/2025-10-13"
	webhookPending = "OUTGOING_PAYMENT.PENDING"
)

// hook is a webhook endpoint that records the traceparent of each event
// type it receives.
type hook struct {
	mu     sync.Mutex
	parent map[string]string
}

func (h *hook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var ev struct {
		Type string `json:"type"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &ev)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.parent[ev.Type] = r.Header.Get("traceparent")
}

func (h *hook) traceParent(typ string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.parent[typ]
}

// stack is an engine traced into an in-memory exporter, with its HTTP
// API, a webhook endpoint, a funded account and an external account to
// pay, and its log.
type stack struct {
	eng            *payments.Engine
	spans          *tracetest.InMemoryExporter
	api            *httptest.Server
	hook           *hook
	cred           [2]string
	from, external string
	logs           *syncBuffer
}

func newStack(t *testing.T, rail payments.Rail) *stack {
	t.Helper()
	s := &stack{spans: tracetest.NewInMemoryExporter(), hook: &hook{parent: map[string]string{}}, logs: &syncBuffer{}}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(s.spans))
	t.Cleanup(func() { _ = tp.Shutdown(ctx) })
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	sender, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true})
	require.NoError(t, err)
	logger := slog.New(httpapi.LogHandler(oteltrace.LogHandler(slog.NewJSONHandler(s.logs, nil))))
	e := enginetest.MoneyEnv(t, func(c *payments.Config) {
		c.Notifier, c.Observer, c.Logger, c.Rail = sender, oteltrace.New(tp), logger, rail
	})
	s.eng = e.Eng
	receiver := httptest.NewServer(s.hook)
	t.Cleanup(receiver.Close)
	endpoint := receiver.URL
	_, err = s.eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &endpoint})
	require.NoError(t, err)
	tok, err := s.eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "t", Permissions: []payments.Permission{payments.PermTransact}})
	require.NoError(t, err)
	s.cred = [2]string{tok.ClientID, tok.ClientSecret}
	in := enginetest.FullIndividual("Ann Payer")
	in.Currencies = []string{"USD"}
	c, err := s.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := s.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	s.from, s.external = page.Data[0].ID, e.ExternalUSD(t, c.ID, "0000")
	_, err = s.eng.Sandbox.Fund(ctx, s.from, 100_000)
	require.NoError(t, err)
	_, err = s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	s.api = httptest.NewServer(httpapi.New(s.eng, httpapi.Config{BasePath: base, Logger: logger}))
	t.Cleanup(s.api.Close)
	s.spans.Reset()
	s.logs.Reset()
	return s
}

// pay posts a quote paying 10.00 USD to the external account at once,
// with the caller's traceparent; it returns the response.
func (s *stack) pay(t *testing.T) *http.Response {
	t.Helper()
	body, err := json.Marshal(enginetest.Transfer(s.from, s.external, 1_000, true))
	require.NoError(t, err)
	req, err := http.NewRequest("POST", s.api.URL+base+"/quotes", bytes.NewReader(body))
	require.NoError(t, err)
	req.SetBasicAuth(s.cred[0], s.cred[1])
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", callerParent)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	return res
}

// named returns the spans named name.
func named(spans tracetest.SpanStubs, name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// one returns the one span named name.
func one(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	found := named(spans, name)
	var all []string
	for _, s := range spans {
		all = append(all, s.Name)
	}
	require.Len(t, found, 1, "spans named %q among %v", name, all)
	return found[0]
}

// childOf asserts that child's parent is parent.
func childOf(t *testing.T, child, parent tracetest.SpanStub) {
	t.Helper()
	assert.Equal(t, parent.SpanContext.SpanID(), child.Parent.SpanID(), "%s is a child of %s", child.Name, parent.Name)
	assert.Equal(t, parent.SpanContext.TraceID(), child.SpanContext.TraceID(), "%s is in %s's trace", child.Name, parent.Name)
}

// TestTracer_SpanTree: a payment made over HTTP is one trace, continuing
// the caller's: the request, the operation, its store transaction, the
// hand-over to the rail and the deliveries of its events, whose webhook
// requests carry the trace on to the receiver.
func TestTracer_SpanTree(t *testing.T) {
	s := newStack(t, sandbox.Rail{})
	res := s.pay(t)
	require.Equal(t, http.StatusCreated, res.StatusCode)
	_, err := s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	spans := s.spans.GetSpans()

	req := one(t, spans, "POST /quotes")
	assert.Equal(t, trace.SpanKindServer, req.SpanKind)
	assert.Equal(t, callerTrace, req.SpanContext.TraceID().String(), "the caller's trace continues")
	assert.Equal(t, callerSpan, req.Parent.SpanID().String())
	assert.True(t, req.Parent.IsRemote())
	assert.Contains(t, req.Attributes, attr("http.route", "/quotes"))
	assert.Contains(t, req.Attributes, attrInt("http.response.status_code", 201))
	assert.Contains(t, req.Attributes, attr("payments.request_id", res.Header.Get(httpapi.RequestIDHeader)))

	op := one(t, spans, "quotes.Create")
	childOf(t, op, req)
	assert.Contains(t, op.Attributes, attr("payments.code", payments.OutcomeOK))
	childOf(t, one(t, spans, "platform.Authenticate"), req)

	var write tracetest.SpanStub
	for _, w := range named(spans, "store.write") {
		if w.Parent.SpanID() == op.SpanContext.SpanID() {
			write = w
		}
	}
	require.True(t, write.SpanContext.IsValid(), "the operation's write transaction")
	assert.Contains(t, write.Attributes, attr("payments.outcome", "commit"))
	assert.NotEmpty(t, named(spans, "store.read"), "pricing reads")

	handover := one(t, spans, "handover send")
	childOf(t, handover, op)
	assert.Equal(t, trace.SpanKindClient, handover.SpanKind)

	pending := one(t, spans, "webhook "+webhookPending)
	childOf(t, pending, write)
	assert.Equal(t, trace.SpanKindClient, pending.SpanKind)
	for _, d := range spans {
		if strings.HasPrefix(d.Name, "webhook OUTGOING_PAYMENT.") {
			assert.Equal(t, callerTrace, d.SpanContext.TraceID().String(), "%s is delivered in the caller's trace", d.Name)
			typ := strings.TrimPrefix(d.Name, "webhook ")
			assert.Equal(t, "00-"+callerTrace+"-"+d.SpanContext.SpanID().String()+"-01", s.hook.traceParent(typ),
				"the receiver of %s gets the delivery's traceparent", typ)
		}
	}
}

// TestTracer_NoTraceOutsideWork: a store transaction outside any trace
// (a worker's scan) makes no span; Start leaves its context alone.
func TestTracer_NoTraceOutsideWork(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	tr := oteltrace.New(tp)
	got := tr.Start(ctx, payments.Work{Kind: payments.WorkTransaction, Name: "read"})
	assert.Equal(t, ctx, got)
	tr.End(got, payments.Work{Kind: payments.WorkTransaction, Name: "read", Outcome: "commit"})
	assert.Empty(t, exp.GetSpans())
	assert.Empty(t, tr.TraceParent(ctx))
}

// TestLogHandler_EngineLinesCarryRequestAndTraceIDs: the lines the engine
// logs while serving a request (here, a payment the rail refused at its
// hand-over) carry the request's id and its trace's id, as the request line
// does.
func TestLogHandler_EngineLinesCarryRequestAndTraceIDs(t *testing.T) {
	s := newStack(t, refusingRail{sandbox.Rail{}})
	res := s.pay(t)
	require.Equal(t, http.StatusCreated, res.StatusCode)
	id := res.Header.Get(httpapi.RequestIDHeader)

	var engineLine, requestLine map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.logs.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		switch m["msg"] {
		case "due work failed":
			engineLine = m
		case "request":
			requestLine = m
		}
	}
	require.NotNil(t, engineLine, "the failed hand-over is logged:\n%s", s.logs)
	require.NotNil(t, requestLine)
	assert.Equal(t, "WARN", engineLine["level"])
	assert.Contains(t, engineLine["err"], "rail unreachable")
	for _, l := range []map[string]any{engineLine, requestLine} {
		assert.Equal(t, id, l["request_id"], "%v", l)
		assert.Equal(t, callerTrace, l["trace_id"], "%v", l)
		assert.NotEmpty(t, l["span_id"])
	}
	assert.Equal(t, one(t, s.spans.GetSpans(), "handover send").SpanContext.SpanID().String(), engineLine["span_id"],
		"logged inside the hand-over's span")
}

// refusingRail is a rail that cannot be reached.
type refusingRail struct{ sandbox.Rail }

func (refusingRail) Send(context.Context, payments.OutgoingPayment, payments.Reporter) error {
	return errors.New("rail unreachable")
}

// syncBuffer is a buffer the engine's goroutines write to and the test
// reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

// attr and attrInt are span attributes.
func attr(k, v string) attribute.KeyValue        { return attribute.String(k, v) }
func attrInt(k string, v int) attribute.KeyValue { return attribute.Int(k, v) }

// BenchmarkQuoteCreateExecute measures a quote created and executed at
// once without an Observer and with a Tracer whose provider records every
// span and exports none, in the same run.
func BenchmarkQuoteCreateExecute(b *testing.B) {
	for _, name := range []string{"nil", "traced"} {
		b.Run(name, func(b *testing.B) {
			var obs payments.Observer
			if name == "traced" {
				tp := sdktrace.NewTracerProvider()
				b.Cleanup(func() { _ = tp.Shutdown(ctx) })
				obs = oteltrace.New(tp)
			}
			e := enginetest.MoneyEnv(b, func(c *payments.Config) { c.Observer = obs })
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
