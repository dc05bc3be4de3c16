package prommetrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/paygrid/payments"
)

// Backlogger is what NewBacklog reads: *payments.Engine.
type Backlogger interface {
	Backlog(ctx context.Context, limit int) (payments.Backlog, error)
}

// BacklogTimeout bounds the read of one scrape.
const BacklogTimeout = 5 * time.Second

// NewBacklog returns a collector of the gauges of the work waiting in eng
// (the package documentation lists them), read with eng.Backlog when
// Prometheus scrapes, each count reading at most limit entries (10,000
// when limit <= 0). A read that fails, or takes over BacklogTimeout, is
// reported as the scrape's error for these gauges.
func NewBacklog(eng Backlogger, limit int) prometheus.Collector {
	if limit <= 0 {
		limit = 10_000
	}
	desc := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, nil)
	}
	return &backlog{eng: eng, limit: limit,
		webhooks:  desc("payments_webhooks_waiting", "Webhook events waiting for delivery (due now or backing off)."),
		oldest:    desc("payments_webhook_oldest_waiting_age_seconds", "How long the oldest waiting webhook event has waited, by the engine's clock."),
		deadHooks: desc("payments_webhook_dead_letters", "Webhook events given up."),
		due:       desc("payments_due_items_waiting", "Due items due now and not yet applied, by due table.", "table"),
		deadDue:   desc("payments_due_dead_letters", "Due items and intents that kept failing, parked in the dead letters."),
		intents:   desc("payments_intents_waiting", "Intents not yet handed over, by kind (send and pull: payments for the rail; code: one-time codes).", "kind"),
		capped:    desc("payments_backlog_capped", "1 when a backlog count stopped at its limit (the count is a lower bound)."),
	}
}

// backlog is NewBacklog's collector.
type backlog struct {
	eng                                                        Backlogger
	limit                                                      int
	webhooks, oldest, deadHooks, due, deadDue, intents, capped *prometheus.Desc
}

// Describe sends the gauges' descriptions.
func (c *backlog) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.webhooks, c.oldest, c.deadHooks, c.due, c.deadDue, c.intents, c.capped} {
		ch <- d
	}
}

// Collect reads the backlog and sends the gauges.
func (c *backlog) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), BacklogTimeout)
	defer cancel()
	b, err := c.eng.Backlog(ctx, c.limit)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.webhooks, err)
		return
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	age := 0.0
	if !b.OldestWebhook.IsZero() {
		age = max(b.At.Sub(b.OldestWebhook).Seconds(), 0)
	}
	capped := 0.0
	if b.Capped {
		capped = 1
	}
	gauge(c.webhooks, float64(b.Webhooks))
	gauge(c.oldest, age)
	gauge(c.deadHooks, float64(b.DeadWebhooks))
	for table, n := range b.Due {
		gauge(c.due, float64(n), table)
	}
	gauge(c.deadDue, float64(b.DeadDue))
	for kind, n := range b.Intents {
		gauge(c.intents, float64(n), kind)
	}
	gauge(c.capped, capped)
}
