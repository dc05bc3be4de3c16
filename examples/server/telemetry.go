package main

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/telemetry/prommetrics"
)

// telemetry is what the server observes its engine with: the Prometheus
// registry served at /metrics (nil with -metrics=false).
type telemetry struct {
	reg      *prometheus.Registry
	observer payments.Observer // the engine's Config.Observer; nil for none
}

// newTelemetry sets up what o asks for: with -metrics (the default) a
// registry with the Go runtime's and the process's collectors and the
// engine's metrics (telemetry/prommetrics).
func newTelemetry(o options) (*telemetry, error) {
	tel := &telemetry{}
	if o.metrics {
		tel.reg = prometheus.NewRegistry()
		tel.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		m, err := prommetrics.New(tel.reg)
		if err != nil {
			return nil, err
		}
		tel.observer = m
	}
	return tel, nil
}

// mount serves the metrics at /metrics of mux, outside the API's base path
// and without credentials, the engine's backlog gauges read from eng on
// each scrape; it returns the line to print at start.
func (tel *telemetry) mount(mux *http.ServeMux, eng *payments.Engine, origin string) string {
	if tel.reg == nil {
		return ""
	}
	tel.reg.MustRegister(prommetrics.NewBacklog(eng, 0))
	mux.Handle("/metrics", promhttp.HandlerFor(tel.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	return fmt.Sprintf("metrics: %s/metrics (Prometheus text format)\n", origin)
}
