package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun_Metrics: the server serves Prometheus metrics at /metrics,
// outside the API's base path and without credentials: after a quote the
// operation, the request, the store's transactions and the backlog gauges
// are there with their labels; -metrics=false serves none.
func TestRun_Metrics(t *testing.T) {
	base, out := serve(t)
	origin := strings.TrimSuffix(base, "/2025-10-13")
	assert.Contains(t, out.String(), "metrics: "+origin+"/metrics")
	const cred = "dash-client:dash-secret-0123456789"
	payer, payee := usdAccount(t, base, cred, "payer@example.com"), usdAccount(t, base, cred, "payee@example.com")
	fund(t, base, cred, payer, 10_000)
	must(t, base, cred, "POST", "/quotes", quoteBody(payer, payee, 100, true), http.StatusCreated, nil)
	must(t, base, cred, "GET", "/quotes/Quote:none", nil, http.StatusNotFound, nil)

	status, body := get(t, origin+"/metrics")
	require.Equal(t, http.StatusOK, status)
	for _, line := range []string{
		`payments_operations_total{area="quotes",code="OK",operation="Create"} 1`,
		`payments_operations_total{area="quotes",code="QUOTE_NOT_FOUND",operation="Get"} 1`,
		`payments_operations_total{area="platform",code="OK",operation="Authenticate"}`,
		`payments_operation_duration_seconds_bucket{area="quotes",operation="Create",le="+Inf"} 1`,
		`payments_operation_duration_seconds_count{area="customers",operation="Create"} 2`,
		`payments_http_requests_total{route="POST /quotes",status="201"} 1`,
		`payments_http_requests_total{route="GET /quotes/{quoteId}",status="404"} 1`,
		`payments_http_request_duration_seconds_bucket{route="POST /customers",le="+Inf"} 2`,
		`payments_store_transactions_total{kind="write",outcome="commit"}`,
		`payments_store_transactions_total{kind="read",outcome="rollback"}`,
		`payments_store_transaction_duration_seconds_count{kind="read"}`,
		`payments_webhooks_waiting `,
		`payments_webhook_oldest_waiting_age_seconds `,
		`payments_webhook_dead_letters 0`,
		`payments_due_items_waiting{table="settlements_due"} 0`,
		`payments_due_dead_letters 0`,
		`payments_intents_waiting{kind="send"} 0`,
		`payments_backlog_capped 0`,
		`go_goroutines `,
	} {
		if !strings.Contains(body, line) {
			t.Errorf("/metrics has no %s", line)
		}
	}

	off, out := serve(t, "-metrics=false")
	status, _ = get(t, strings.TrimSuffix(off, "/2025-10-13")+"/metrics")
	assert.Equal(t, http.StatusNotFound, status)
	assert.NotContains(t, out.String(), "metrics:")
}
