// Package prommetrics keeps Prometheus metrics of a payments engine: it is
// a payments.Observer (set it as payments.Config.Observer) that counts and
// times what the engine reports, and a collector (NewBacklog) that reads
// the work waiting from the engine when Prometheus scrapes. It is the
// engine's adapter to github.com/prometheus/client_golang, which neither
// the engine nor its HTTP API imports; a server serves the registry it
// registers on (promhttp.HandlerFor), as examples/server does at /metrics.
//
//	reg := prometheus.NewRegistry()
//	m, err := prommetrics.New(reg)
//	eng, err := payments.New(payments.Config{Store: store, Observer: m})
//	reg.MustRegister(prommetrics.NewBacklog(eng, 0))
//	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//
// # Metrics
//
// Kept as the engine works (Metrics):
//
//   - payments_operations_total{area, operation, code}: operations (the
//     group methods of the facade: area "quotes", operation "Create" or
//     "Transactions.Get") by the code they answered, "OK" for success;
//   - payments_operation_duration_seconds{area, operation}: their latency;
//   - payments_http_requests_total{route, status}: API requests by route
//     pattern ("POST /quotes", "unmatched" for a path no route serves) and
//     HTTP status;
//   - payments_http_request_duration_seconds{route}: their latency;
//   - payments_store_transactions_total{kind, outcome}: store transactions,
//     kind "read" or "write", outcome "commit", "rollback" (the operation
//     refused), "conflict" or "error";
//   - payments_store_transaction_retries_total{kind}: extra runs of a
//     transaction's function (a store retrying a conflict, such as a
//     PostgreSQL serialization failure);
//   - payments_store_transaction_duration_seconds{kind}: their latency;
//   - payments_intent_handovers_total{kind, outcome}: hand-overs after
//     commit (kind "send", "pull", "code", ...), outcome "ok" or "failed"
//     (left to the intent worker);
//   - payments_webhook_deliveries_total{type, outcome}: delivery attempts
//     by event type, outcome "delivered", "retry" or "given_up";
//   - payments_webhook_delivery_duration_seconds: the time an attempt took;
//   - payments_due_items_total{table, outcome}: due items, outcome
//     "applied", "skipped" or "failed".
//
// Every family above is exported from the start, at zero, so that a
// scrape of a fresh server lists them all and a query or an alert on one
// finds it: the store transactions under every kind and outcome, and each
// family whose label values only the work names (routes, areas, event
// types, due tables, intent kinds) under one series with empty label
// values (which Prometheus reads as labels absent), which goes once the
// family counts its first label set.
//
// Read on scrape (NewBacklog, Engine.Backlog):
//
//   - payments_webhooks_waiting: events waiting for delivery;
//   - payments_webhook_oldest_waiting_age_seconds: how long the oldest of
//     them has waited, by the engine's clock (0 when none);
//   - payments_webhook_dead_letters: events given up;
//   - payments_due_items_waiting{table}: due items due now and not applied;
//   - payments_due_dead_letters: due items and intents that kept failing;
//   - payments_intents_waiting{kind}: intents not yet handed over, by kind
//     ("send" and "pull": payments for the rail; "code": one-time codes);
//   - payments_backlog_capped: 1 when a count above stopped at the limit.
package prommetrics

import (
	"cmp"
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/paygrid/payments"
)

// Buckets are the latency buckets of the duration histograms, in seconds:
// from 100 µs (an operation on memory) to 10 s.
var Buckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// Metrics is a payments.Observer that keeps the metrics of the package
// documentation. It is safe for concurrent use.
type Metrics struct {
	operations, requests, txns, retries, handovers, deliveries, due *prometheus.CounterVec
	opSeconds, requestSeconds, txnSeconds                           *prometheus.HistogramVec
	deliverySeconds                                                 prometheus.Histogram

	// unseen holds, for each family exported with a placeholder series
	// until its first label set, the function that drops that series.
	unseen [familyCount]placeholder

	// timed holds the counter and histogram of each label set of an
	// operation, a request or a transaction once resolved: every request
	// ends three of them, and a vector hashes the label values and takes
	// its lock on every lookup.
	mu    sync.RWMutex
	timed map[timedKey]timed
}

// timedKey is the label set of a timed pair: the kind of work, and its
// area, name (a request's route) and outcome, or a request's status.
type timedKey struct {
	kind                payments.WorkKind
	area, name, outcome string
	status              int
}

// timed is a counter and a latency histogram resolved for one label set.
type timed struct {
	count   prometheus.Counter
	seconds prometheus.Observer
}

var _ payments.Observer = (*Metrics)(nil)

// The families exported with a placeholder series until their first label
// set is observed (Metrics.unseen).
const (
	famOperations = iota // operations and their latency
	famRequests          // API requests and their latency
	famHandovers
	famDeliveries
	famDue
	familyCount
)

// placeholder is the zero series a family is exported with before its
// first label set: drop removes it, once.
type placeholder struct {
	held atomic.Bool
	drop func()
}

// seen drops the placeholder series of family f, if it still holds one:
// the family now has a series of its own.
func (m *Metrics) seen(f int) {
	if p := &m.unseen[f]; p.held.Load() && p.held.CompareAndSwap(true, false) {
		p.drop()
	}
}

// hold exports family f with its placeholder series, which series makes
// (del false) or deletes (del true).
func (m *Metrics) hold(f int, series func(del bool)) {
	series(false)
	m.unseen[f].drop = func() { series(true) }
	m.unseen[f].held.Store(true)
}

// zero makes (del false) or deletes (del true) the series of v whose n
// label values are all empty.
func zero(del bool, v *prometheus.MetricVec, n int) {
	empty := make([]string, n)
	if del {
		v.DeleteLabelValues(empty...)
		return
	}
	_, _ = v.GetMetricWithLabelValues(empty...)
}

// storeKinds and storeOutcomes are the label values of the store
// transaction families, all known in advance.
var storeKinds, storeOutcomes = []string{"read", "write"}, []string{"commit", "rollback", "conflict", "error"}

// New returns Metrics registered on reg (prometheus.DefaultRegisterer when
// nil); it fails when reg holds metrics of the same names.
func New(reg prometheus.Registerer) (*Metrics, error) {
	if reg == nil {
		reg = prometheus.DefaultRegisterer
	}
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	}
	histogram := func(name, help string, labels ...string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: Buckets}, labels)
	}
	m := &Metrics{
		operations:     counter("payments_operations_total", "Operations of the engine by area, operation and the code they answered (OK for success).", "area", "operation", "code"),
		opSeconds:      histogram("payments_operation_duration_seconds", "Latency of the engine's operations.", "area", "operation"),
		requests:       counter("payments_http_requests_total", "API requests by route pattern and HTTP status.", "route", "status"),
		requestSeconds: histogram("payments_http_request_duration_seconds", "Latency of API requests by route pattern.", "route"),
		txns:           counter("payments_store_transactions_total", "Store transactions by kind (read, write) and outcome (commit, rollback, conflict, error).", "kind", "outcome"),
		retries:        counter("payments_store_transaction_retries_total", "Extra runs of store transactions' functions: conflicts the store retried.", "kind"),
		txnSeconds:     histogram("payments_store_transaction_duration_seconds", "Latency of store transactions, retries included.", "kind"),
		handovers:      counter("payments_intent_handovers_total", "Hand-overs of intents after commit (to the rail, to the code sender) by kind and outcome (ok, failed).", "kind", "outcome"),
		deliveries:     counter("payments_webhook_deliveries_total", "Webhook delivery attempts by event type and outcome (delivered, retry, given_up).", "type", "outcome"),
		deliverySeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "payments_webhook_delivery_duration_seconds",
			Help: "Time a webhook delivery attempt took.", Buckets: Buckets}),
		due: counter("payments_due_items_total", "Due items by due table and outcome (applied, skipped, failed).", "table", "outcome"),
	}
	for _, kind := range storeKinds {
		for _, outcome := range storeOutcomes {
			m.txns.WithLabelValues(kind, outcome)
		}
		m.retries.WithLabelValues(kind)
		m.txnSeconds.WithLabelValues(kind)
	}
	// Placeholders: a series with empty label values in each family
	// whose label values only the work names.
	m.hold(famOperations, func(del bool) {
		zero(del, m.operations.MetricVec, 3)
		zero(del, m.opSeconds.MetricVec, 2)
	})
	m.hold(famRequests, func(del bool) {
		zero(del, m.requests.MetricVec, 2)
		zero(del, m.requestSeconds.MetricVec, 1)
	})
	m.hold(famHandovers, func(del bool) { zero(del, m.handovers.MetricVec, 2) })
	m.hold(famDeliveries, func(del bool) { zero(del, m.deliveries.MetricVec, 2) })
	m.hold(famDue, func(del bool) { zero(del, m.due.MetricVec, 2) })
	for _, c := range []prometheus.Collector{m.operations, m.opSeconds, m.requests, m.requestSeconds, m.txns, m.retries, m.txnSeconds,
		m.handovers, m.deliveries, m.deliverySeconds, m.due} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Start returns ctx: metrics need nothing carried.
func (m *Metrics) Start(ctx context.Context, _ payments.Work) context.Context { return ctx }

// End counts and times w.
func (m *Metrics) End(_ context.Context, w payments.Work) {
	s := w.Took.Seconds()
	switch w.Kind {
	case payments.WorkOperation, payments.WorkRequest, payments.WorkTransaction:
		t := m.timedOf(w)
		t.count.Inc()
		t.seconds.Observe(s)
		if w.Kind == payments.WorkTransaction && w.Runs > 1 {
			m.retries.WithLabelValues(w.Name).Add(float64(w.Runs - 1))
		}
	case payments.WorkHandOver:
		m.seen(famHandovers)
		m.handovers.WithLabelValues(w.Name, w.Outcome).Inc()
	case payments.WorkDelivery:
		m.seen(famDeliveries)
		m.deliveries.WithLabelValues(w.Name, w.Outcome).Inc()
		m.deliverySeconds.Observe(s)
	case payments.WorkDue:
		m.seen(famDue)
		m.due.WithLabelValues(w.Name, w.Outcome).Inc()
	}
}

// timedOf returns the counter and histogram of an operation, a request or
// a transaction w, resolving them the first time its label set ends.
func (m *Metrics) timedOf(w payments.Work) timed {
	k := timedKey{kind: w.Kind, name: w.Name}
	switch w.Kind {
	case payments.WorkOperation:
		k.area, k.outcome = w.Area, w.Outcome
	case payments.WorkRequest:
		k.status = w.Status
	default:
		k.outcome = w.Outcome
	}
	m.mu.RLock()
	t, ok := m.timed[k]
	m.mu.RUnlock()
	if ok {
		return t
	}
	switch w.Kind {
	case payments.WorkOperation:
		m.seen(famOperations)
		t = timed{m.operations.WithLabelValues(w.Area, w.Name, w.Outcome), m.opSeconds.WithLabelValues(w.Area, w.Name)}
	case payments.WorkRequest:
		m.seen(famRequests)
		route := cmp.Or(w.Name, "unmatched")
		t = timed{m.requests.WithLabelValues(route, strconv.Itoa(w.Status)), m.requestSeconds.WithLabelValues(route)}
	default:
		t = timed{m.txns.WithLabelValues(w.Name, w.Outcome), m.txnSeconds.WithLabelValues(w.Name)}
	}
	m.mu.Lock()
	if m.timed == nil {
		m.timed = map[timedKey]timed{}
	}
	m.timed[k] = t
	m.mu.Unlock()
	return t
}

// TraceParent returns "": metrics keep no trace.
func (m *Metrics) TraceParent(context.Context) string { return "" }
