package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/telemetry/oteltrace"
	"github.com/paygrid/payments/telemetry/prommetrics"
)

// telemetry is what the server observes its engine with: the Prometheus
// registry served at /metrics (nil with -metrics=false) and the tracer
// provider exporting over OTLP/HTTP (nil without an endpoint).
type telemetry struct {
	reg      *prometheus.Registry
	traces   *sdktrace.TracerProvider
	endpoint string            // where traces go
	observer payments.Observer // the engine's Config.Observer; nil for none
}

// newTelemetry sets up what o and the environment ask for: with -metrics
// (the default) a registry with the Go runtime's and the process's
// collectors and the engine's metrics (telemetry/prommetrics); with
// OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set,
// spans of the engine's work (telemetry/oteltrace) exported over OTLP/HTTP
// in batches; the exporter reads the other OTEL_EXPORTER_OTLP_* variables
// (headers, timeout, compression) and the provider OTEL_TRACES_SAMPLER.
// Without an endpoint nothing is traced: no span is made.
func newTelemetry(ctx context.Context, o options, getenv func(string) string) (*telemetry, error) {
	tel := &telemetry{}
	var metrics, tracer payments.Observer
	if o.metrics {
		tel.reg = prometheus.NewRegistry()
		tel.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		m, err := prommetrics.New(tel.reg)
		if err != nil {
			return nil, err
		}
		metrics = m
	}
	tel.endpoint = getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	if base := getenv("OTEL_EXPORTER_OTLP_ENDPOINT"); tel.endpoint == "" && base != "" {
		tel.endpoint = strings.TrimRight(base, "/") + "/v1/traces"
	}
	if tel.endpoint != "" {
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(tel.endpoint))
		if err != nil {
			return nil, fmt.Errorf("OTLP trace exporter: %w", err)
		}
		service := getenv("OTEL_SERVICE_NAME")
		if service == "" {
			service = "payments-sandbox"
		}
		res, err := resource.Merge(resource.Default(), resource.NewSchemaless(attribute.String("service.name", service)))
		if err != nil {
			return nil, err
		}
		tel.traces = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		tracer = oteltrace.New(tel.traces)
	}
	tel.observer = payments.Observers(metrics, tracer)
	return tel, nil
}

// mount serves the metrics at /metrics of mux, outside the API's base path
// and without credentials, the engine's backlog gauges read from eng on
// each scrape; it returns the lines to print at start.
func (tel *telemetry) mount(mux *http.ServeMux, eng *payments.Engine, origin string) string {
	var lines string
	if tel.reg != nil {
		tel.reg.MustRegister(prommetrics.NewBacklog(eng, 0))
		mux.Handle("/metrics", promhttp.HandlerFor(tel.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
		lines += fmt.Sprintf("metrics: %s/metrics (Prometheus text format)\n", origin)
	}
	if tel.traces != nil {
		lines += fmt.Sprintf("traces: OTLP/HTTP to %s\n", tel.endpoint)
	}
	return lines
}

// close exports the spans still buffered, within 5 seconds.
func (tel *telemetry) close() {
	if tel.traces == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = tel.traces.Shutdown(ctx)
}
