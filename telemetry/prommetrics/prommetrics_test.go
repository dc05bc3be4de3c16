package prommetrics_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/telemetry/prommetrics"
)

var ctx = context.Background()

// scrape returns reg's metrics in the text format.
func scrape(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, err := io.ReadAll(rec.Body)
	require.NoError(t, err)
	return string(b)
}

// requireLines fails t for each line body lacks.
func requireLines(t *testing.T, body string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(body, l) {
			t.Errorf("no %s in:\n%s", l, grep(body, "payments_"))
		}
	}
}

// grep returns the lines of s that start with prefix.
func grep(s, prefix string) string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(l, prefix) && !strings.Contains(l, "_bucket{") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestMetrics: a payout handed to the rail, its events' deliveries (one
// given up), a quote's expiry and the backlog, as Prometheus reads them.
func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := prommetrics.New(reg)
	require.NoError(t, err)
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Observer = m })
	reg.MustRegister(prommetrics.NewBacklog(e.Eng, 0))

	in := enginetest.FullIndividual("Ann Payer")
	in.Currencies = []string{"USD"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	from, external := page.Data[0].ID, e.ExternalUSD(t, c.ID, "0000")
	_, err = e.Eng.Sandbox.Fund(ctx, from, 100_000)
	require.NoError(t, err)
	e.Rec.FailWith(payments.ErrPermanent) // the engine's worker may deliver first: it gives up all the same
	_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, external, 1_000, true))
	require.NoError(t, err)
	_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, external, 1_000, false)) // expires below
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	e.Rec.FailWith(errors.New("receiver down"))
	e.Clock.Advance(time.Hour)
	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	e.Clock.Advance(90 * time.Second)

	requireLines(t, scrape(t, reg),
		`payments_operations_total{area="quotes",code="OK",operation="Create"} 2`,
		`payments_operation_duration_seconds_count{area="quotes",operation="Create"} 2`,
		`payments_intent_handovers_total{kind="send",outcome="ok"} 1`,
		`payments_webhook_deliveries_total{outcome="given_up",type="OUTGOING_PAYMENT.COMPLETED"} 1`,
		`payments_webhook_deliveries_total{outcome="retry",type="OUTGOING_PAYMENT.EXPIRED"} `,
		`payments_webhook_delivery_duration_seconds_count `,
		`payments_due_items_total{outcome="applied",table="quote_expiry"} 1`,
		`payments_store_transactions_total{kind="write",outcome="commit"} `,
		`payments_store_transaction_duration_seconds_count{kind="write"} `,
		`payments_webhooks_waiting 1`,
		`payments_webhook_oldest_waiting_age_seconds 90`,
		`payments_due_items_waiting{table="quote_expiry"} 0`,
		`payments_intents_waiting{kind="send"} 0`,
		`payments_backlog_capped 0`,
	)
}

// TestMetrics_Retries: a transaction the store ran twice counts a retry.
func TestMetrics_Retries(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := prommetrics.New(reg)
	require.NoError(t, err)
	m.End(ctx, payments.Work{Kind: payments.WorkTransaction, Name: "write", Outcome: "commit", Runs: 3, Took: time.Millisecond})
	m.End(ctx, payments.Work{Kind: payments.WorkRequest, Status: 404, Outcome: "NOT_FOUND", Took: time.Millisecond})
	requireLines(t, scrape(t, reg),
		`payments_store_transaction_retries_total{kind="write"} 2`,
		`payments_http_requests_total{route="unmatched",status="404"} 1`)
}

// BenchmarkQuoteCreateExecute measures a quote created and executed at
// once without an Observer and with Metrics, in the same run.
func BenchmarkQuoteCreateExecute(b *testing.B) {
	for _, name := range []string{"nil", "metrics"} {
		b.Run(name, func(b *testing.B) {
			var obs payments.Observer
			if name == "metrics" {
				m, err := prommetrics.New(prometheus.NewRegistry())
				require.NoError(b, err)
				obs = m
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

// TestMetrics_LabelSets: work that differs in any label is counted apart,
// though Metrics resolves each label set once and keeps it.
func TestMetrics_LabelSets(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := prommetrics.New(reg)
	require.NoError(t, err)
	for _, w := range []payments.Work{
		{Kind: payments.WorkOperation, Area: "quotes", Name: "Create", Outcome: "OK"},
		{Kind: payments.WorkOperation, Area: "quotes", Name: "Create", Outcome: "OK"},
		{Kind: payments.WorkOperation, Area: "quotes", Name: "Create", Outcome: "INVALID_INPUT"},
		{Kind: payments.WorkOperation, Area: "accounts", Name: "Create", Outcome: "OK"},
		{Kind: payments.WorkRequest, Name: "POST /quotes", Status: 201},
		{Kind: payments.WorkRequest, Name: "POST /quotes", Status: 400},
		{Kind: payments.WorkRequest, Name: "POST /quotes", Status: 400},
		{Kind: payments.WorkTransaction, Name: "write", Outcome: "commit"},
		{Kind: payments.WorkTransaction, Name: "write", Outcome: "conflict"},
		{Kind: payments.WorkTransaction, Name: "read", Outcome: "commit"},
	} {
		m.End(ctx, w)
	}
	requireLines(t, scrape(t, reg),
		`payments_operations_total{area="quotes",code="OK",operation="Create"} 2`,
		`payments_operations_total{area="quotes",code="INVALID_INPUT",operation="Create"} 1`,
		`payments_operations_total{area="accounts",code="OK",operation="Create"} 1`,
		`payments_operation_duration_seconds_count{area="quotes",operation="Create"} 3`,
		`payments_http_requests_total{route="POST /quotes",status="201"} 1`,
		`payments_http_requests_total{route="POST /quotes",status="400"} 2`,
		`payments_http_request_duration_seconds_count{route="POST /quotes"} 3`,
		`payments_store_transactions_total{kind="write",outcome="commit"} 1`,
		`payments_store_transactions_total{kind="write",outcome="conflict"} 1`,
		`payments_store_transactions_total{kind="read",outcome="commit"} 1`,
		`payments_store_transaction_duration_seconds_count{kind="write"} 2`,
	)
}

// TestMetrics_EveryFamilyFromStart: a scrape of a fresh engine lists every
// family the package documentation lists (read from it), each at zero;
// a family's placeholder series goes once it counts a label set of its
// own.
func TestMetrics_EveryFamilyFromStart(t *testing.T) {
	src, err := os.ReadFile("prommetrics.go")
	require.NoError(t, err)
	doc := src[:bytes.Index(src, []byte("\npackage prommetrics"))]
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^//\s+- (payments_[a-z_]+)`).FindAllSubmatch(doc, -1) {
		documented = append(documented, string(m[1]))
	}
	require.Len(t, documented, 18, "the families of the package documentation")

	reg := prometheus.NewRegistry()
	m, err := prommetrics.New(reg)
	require.NoError(t, err)
	eng, err := payments.New(payments.Config{Store: memstore.New(), Sandbox: true})
	require.NoError(t, err)
	reg.MustRegister(prommetrics.NewBacklog(eng, 0))
	families, err := reg.Gather()
	require.NoError(t, err)
	var exported []string
	for _, f := range families {
		exported = append(exported, f.GetName())
		for _, x := range f.GetMetric() {
			v := x.GetCounter().GetValue() + x.GetGauge().GetValue() + float64(x.GetHistogram().GetSampleCount())
			assert.Zero(t, v, "%s starts at zero", f.GetName())
		}
	}
	assert.ElementsMatch(t, documented, exported, "every documented family, and none other")
	requireLines(t, scrape(t, reg),
		`payments_store_transaction_retries_total{kind="read"} 0`,
		`payments_store_transaction_retries_total{kind="write"} 0`,
		`payments_store_transactions_total{kind="write",outcome="conflict"} 0`,
		`payments_intent_handovers_total{kind="",outcome=""} 0`)

	m.End(ctx, payments.Work{Kind: payments.WorkHandOver, Name: "send", Outcome: "ok"})
	m.End(ctx, payments.Work{Kind: payments.WorkRequest, Name: "GET /customers", Status: 200, Took: time.Millisecond})
	body := scrape(t, reg)
	requireLines(t, body, `payments_intent_handovers_total{kind="send",outcome="ok"} 1`,
		`payments_http_requests_total{route="GET /customers",status="200"} 1`,
		`payments_webhook_deliveries_total{outcome="",type=""} 0`)
	for _, gone := range []string{`payments_intent_handovers_total{kind=""`, `payments_http_requests_total{route=""`,
		`payments_http_request_duration_seconds_count{route=""}`} {
		assert.NotContains(t, body, gone, "the placeholder goes with the first label set")
	}
}
