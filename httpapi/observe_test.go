package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestObserver_Requests: with an engine Observer each request is a unit of
// work named by its route's pattern, with its status and code, continuing
// the trace of its traceparent header; the operations it runs nest in it.
func TestObserver_Requests(t *testing.T) {
	obs := &enginetest.Observer{}
	s := newServer(t, func(c *payments.Config) { c.Observer = obs })
	const parent = "00-0000000000000000000000000000002a-0000000000000007-01"

	r := s.do("POST", "/customers", individual(), "traceparent", parent)
	require.Equal(t, http.StatusCreated, r.Status)
	req := only(t, obs.Ended(payments.WorkRequest))
	assert.Equal(t, "http", req.Area)
	assert.Equal(t, "POST /customers", req.Name, "the route's pattern, without the base path")
	assert.Equal(t, http.StatusCreated, req.Status)
	assert.Equal(t, payments.OutcomeOK, req.Outcome)
	assert.Equal(t, r.Header.Get("X-Request-Id"), req.ID)
	assert.Equal(t, parent, req.Work.Parent)
	assert.Equal(t, 0x2a, req.Root, "the caller's trace continues")
	assert.Positive(t, req.Took)
	var create enginetest.Observed
	for _, w := range obs.Ended(payments.WorkOperation) {
		if w.Name == "Create" {
			create = w
		}
	}
	assert.Equal(t, "customers", create.Area)
	assert.Equal(t, req.N, create.Parent, "the operation runs inside the request")

	obs.Reset()
	requireError(t, s.do("GET", "/quotes/Quote:none", nil), 404, payments.CodeQuoteNotFound)
	req = only(t, obs.Ended(payments.WorkRequest))
	assert.Equal(t, "GET /quotes/{quoteId}", req.Name)
	assert.Equal(t, http.StatusNotFound, req.Status)
	assert.Equal(t, string(payments.CodeQuoteNotFound), req.Outcome)
	assert.Zero(t, req.Parent, "a request without traceparent begins a trace")

	obs.Reset()
	res, err := http.Get(s.http.URL + "/nowhere")
	require.NoError(t, err)
	_ = res.Body.Close()
	req = only(t, obs.Ended(payments.WorkRequest))
	assert.Empty(t, req.Name, "no route serves it")
	assert.Equal(t, http.StatusNotFound, req.Status)
}

// only returns the one unit of ws.
func only(t *testing.T, ws []enginetest.Observed) enginetest.Observed {
	t.Helper()
	require.Len(t, ws, 1, "%+v", ws)
	return ws[0]
}
