package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/webhooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhooks_EndToEnd executes a quote on an engine whose notifier is the
// real webhook sender and checks that a local receiver gets every event,
// signed, and that a failed delivery is retried with the same id.
func TestWebhooks_EndToEnd(t *testing.T) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	sender, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true})
	require.NoError(t, err)

	var mu sync.Mutex
	var got []payments.Event
	failNext := 1
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		// The test clock is far from the wall clock: the signature alone.
		if err := (webhooks.Verifier{Key: &key.PublicKey, Tolerance: -1}).Verify(body, r.Header.Get(webhooks.SignatureHeader)); err != nil {
			w.WriteHeader(401)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		var ev payments.Event
		_ = json.Unmarshal(body, &ev)
		if failNext > 0 && ev.Type == "OUTGOING_PAYMENT.COMPLETED" {
			failNext--
			w.WriteHeader(503)
			return
		}
		got = append(got, ev)
	}))
	defer recv.Close()

	s := newServer(t, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Notifier = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sender
	})
	requireError(t, s.do("POST", "/sandbox/webhooks/test", nil), 400, payments.CodeWebhookEndpointNotSet)
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"webhookEndpoint": recv.URL + "/hooks"}).Status)
	test := s.do("POST", "/sandbox/webhooks/test", nil)
	require.Equal(t, 200, test.Status, "%s", test.Raw)
	assert.EqualValues(t, 200, test.Body["response_status"])

	id, acct := s.funded(5000)
	q := s.do("POST", "/quotes", quoteBody(acct, s.eurAccount(id, "DE89370400440532013000"), 5000))
	require.Equal(t, 200, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil).Status)
	_, err = s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	s.clock.Advance(2e9) // past the first retry's backoff
	_, err = s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	mu.Lock()
	defer mu.Unlock()
	var types []string
	ids := map[string]int{}
	for _, ev := range got {
		types = append(types, string(ev.Type))
		ids[ev.ID]++
	}
	assert.Subset(t, types, []string{"TEST", "INTERNAL_ACCOUNT.BALANCE_UPDATED", "OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"})
	for id, n := range ids {
		assert.Equal(t, 1, n, "event %s accepted once", id)
	}
	pending, err := s.eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	assert.Empty(t, pending, "the failed delivery was retried and accepted")
}
