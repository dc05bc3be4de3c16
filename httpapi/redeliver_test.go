package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/webhooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRedeliver_HangingReceiver: POST /sandbox/webhooks/{id}/redeliver
// sends that one event, within its own timeout (RetryPolicy.Redeliver),
// outside the delivery passes: while the receiver hangs on it, other
// events are delivered, and the call returns at the timeout with the try
// counted and a lastError that names the failure's class only ("timed
// out", "connection failed", "receiver answered 5xx"), never the
// receiver's address or port; the detail is in the server log.
func TestRedeliver_HangingReceiver(t *testing.T) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	// The sender's own bound is far above the redelivery's.
	sender, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true, Timeout: time.Minute})
	require.NoError(t, err)
	var mu sync.Mutex
	hang, answer := "", 200
	delivered := map[string]int{}
	release := make(chan struct{})
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev payments.Event
		_ = json.Unmarshal(body, &ev)
		mu.Lock()
		hangs, status := ev.ID == hang, answer
		mu.Unlock()
		if hangs {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		mu.Lock()
		delivered[ev.ID]++
		mu.Unlock()
		w.WriteHeader(status)
	}))
	defer recv.Close()
	defer close(release)

	const timeout = 1500 * time.Millisecond
	var logs syncBuffer
	s := newServer(t, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Notifier, c.EventHistory = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sender, true
		c.Retry.Redeliver = timeout
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"webhookEndpoint": recv.URL + "/hooks"}).Status)
	_, acct := s.funded(5000)
	_, err = s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	list, err := s.eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Status: payments.DeliveryDelivered}, payments.ListParams{Desc: true})
	require.NoError(t, err)
	require.NotEmpty(t, list.Data)
	target := list.Data[0].Event.ID

	mu.Lock()
	hang = target
	mu.Unlock()
	type result struct {
		r    response
		took time.Duration
	}
	redeliver := func() response {
		res, body, raw := sendUnchecked(t, s.http, s.cred, "POST", "/sandbox/webhooks/"+target+"/redeliver", "")
		return response{Status: res.StatusCode, Raw: []byte(raw), Body: body}
	}
	done := make(chan result, 1)
	began := time.Now()
	go func() {
		r := redeliver()
		done <- result{r, time.Since(began)}
	}()
	// While the receiver hangs on the redelivered event, another event is
	// delivered by a pass.
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	before := len(delivered)
	mu.Unlock()
	_, err = s.eng.Sandbox.Fund(ctx, acct, 1)
	require.NoError(t, err)
	// Delivered by this Flush, or by the worker's pass that the funding's
	// commit woke first: either way, while the redelivery waits.
	_, err = s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	mu.Lock()
	after := len(delivered)
	mu.Unlock()
	assert.Greater(t, after, before, "a pass delivers while the redelivery waits")
	select {
	case <-done:
		t.Fatal("the redelivery returned before its receiver answered or its timeout")
	default:
	}
	res := <-done
	require.Equal(t, 200, res.r.Status, "%s", res.r.Raw)
	assert.GreaterOrEqual(t, res.took, timeout)
	assert.Less(t, res.took, timeout+2*time.Second, "bounded by its own timeout, not the sender's minute")
	assert.Equal(t, "PENDING", res.r.Body["status"], "a failed try is retried later")
	assert.EqualValues(t, 2, res.r.Body["attempts"])
	assert.Equal(t, "timed out", res.r.Body["lastError"])

	// The other failures: a receiver's answer, and no receiver at all.
	mu.Lock()
	hang, answer = "", 500
	mu.Unlock()
	r := redeliver()
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Equal(t, "receiver answered 5xx", r.Body["lastError"])

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close())
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"webhookEndpoint": "http://" + closed + "/hooks"}).Status)
	r = redeliver()
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Equal(t, "connection failed", r.Body["lastError"])
	_, port, _ := net.SplitHostPort(closed)
	_, _, all := sendUnchecked(t, s.http, s.cred, "GET", "/sandbox/webhooks", "")
	for _, raw := range []string{string(r.Raw), all} {
		assert.NotContains(t, raw, "127.0.0.1")
		assert.NotContains(t, raw, port)
		assert.NotContains(t, raw, "dial")
		assert.NotContains(t, raw, "refused")
	}

	// The server log has the cause.
	var causes []string
	for _, l := range logs.lines(t) {
		if l["msg"] == "event delivery failed" && l["event"] == target {
			causes = append(causes, l["err"].(string))
		}
	}
	require.Len(t, causes, 3, "%v", causes)
	assert.Contains(t, causes[1], "500")
	assert.True(t, strings.Contains(causes[2], closed), "%v", causes[2])
}
