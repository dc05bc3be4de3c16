package sandbox_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deliveries lists GET /sandbox/webhooks with query and returns its items.
func deliveries(t *testing.T, s *sandbox.Server, query string) []obj {
	t.Helper()
	page := requireCall(t, s, "GET", "/sandbox/webhooks"+query, nil)
	var out []obj
	for _, d := range page["data"].([]any) {
		out = append(out, d.(obj))
	}
	return out
}

// eventID is the id of a delivery's event.
func eventID(d obj) string { return d["event"].(obj)["id"].(string) }

// TestServer_WebhookDeliveries: GET /sandbox/webhooks lists every event
// with its delivery (waiting, delivered, given up), newest first, filtered
// by status and type and paged by cursor; POST
// /sandbox/webhooks/{id}/redeliver sends one again now, signed, as a new
// try, whatever its state.
func TestServer_WebhookDeliveries(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t, func(c *payments.Config) { c.EventHistory = true })
	s.Webhooks.Answer(503)
	_, acct := funded(t, s, 1_000)
	requireCall(t, s, "POST", "/sandbox/internal-accounts/"+acct+"/fund", obj{"amount": 1})
	require.NoError(t, s.RunDue())

	all := deliveries(t, s, "")
	require.NotEmpty(t, all)
	for i, d := range all {
		assert.Equal(t, "PENDING", d["status"], "%v", d)
		assert.EqualValues(t, 1, d["attempts"], "one try, answered 503")
		// The status class only, never the status, an address or a port.
		assert.Equal(t, "receiver answered 5xx", d["lastError"])
		assert.NotEmpty(t, d["nextRetryAt"])
		assert.Equal(t, 1, s.Webhooks.Deliveries(eventID(d)))
		if i > 0 {
			prev := all[i-1]["event"].(obj)["timestamp"].(string) + eventID(all[i-1])
			assert.Greater(t, prev, d["event"].(obj)["timestamp"].(string)+eventID(d), "newest first")
		}
	}
	balance := deliveries(t, s, "?type=INTERNAL_ACCOUNT.BALANCE_UPDATED")
	require.Len(t, balance, 2, "the two fundings")
	assert.Equal(t, balance, deliveries(t, s, "?type=INTERNAL_ACCOUNT.BALANCE_UPDATED&status=PENDING&resource="+url.QueryEscape(acct)))
	assert.Empty(t, deliveries(t, s, "?status=DELIVERED"))
	assert.Empty(t, deliveries(t, s, "?type=NO_SUCH_EVENT"))
	assert.Equal(t, []string{"status"}, fieldsOfGet(t, s, "/sandbox/webhooks?status=LOST"))

	// Pages of two give the same list.
	var paged []obj
	for cursor := ""; ; {
		page := requireCall(t, s, "GET", "/sandbox/webhooks?limit=2&cursor="+cursor, nil)
		for _, d := range page["data"].([]any) {
			paged = append(paged, d.(obj))
		}
		if page["hasMore"] != true {
			break
		}
		cursor = page["nextCursor"].(string)
	}
	assert.Equal(t, all, paged)

	t.Run("RedeliverPending", func(t *testing.T) {
		s.Webhooks.Answer(200)
		newest := balance[0]
		id := eventID(newest)
		d := requireCall(t, s, "POST", "/sandbox/webhooks/"+id+"/redeliver", nil)
		assert.Equal(t, "DELIVERED", d["status"], "%v", d)
		assert.EqualValues(t, 2, d["attempts"], "the 503 and this one")
		assert.Equal(t, newest["event"], d["event"], "the same event: id, type, timestamp, data")
		assert.Equal(t, 2, s.Webhooks.Deliveries(id), "sent again, signed")
		assert.Zero(t, s.Webhooks.Rejected())
		assert.Equal(t, len(all)-1, len(deliveries(t, s, "?status=PENDING")), "the others still wait for their retry")
		assert.Equal(t, []obj{d}, deliveries(t, s, "?status=DELIVERED"))

		// A delivered event goes again as a third try.
		d = requireCall(t, s, "POST", "/sandbox/webhooks/"+id+"/redeliver", nil)
		assert.Equal(t, "DELIVERED", d["status"])
		assert.EqualValues(t, 3, d["attempts"])
		assert.Equal(t, 3, s.Webhooks.Deliveries(id))
		assert.Len(t, deliveries(t, s, ""), len(all), "listed once")
	})

	t.Run("RedeliverGivenUp", func(t *testing.T) {
		// A TEST event is tried once: answered 503, it is given up.
		s.Webhooks.Answer(503)
		requireCall(t, s, "PATCH", "/config", obj{"webhookEndpoint": s.Webhooks.URL + "/again"})
		require.NoError(t, s.RunDue())
		failed := deliveries(t, s, "?status=FAILED")
		require.Len(t, failed, 1)
		assert.Equal(t, "TEST", failed[0]["event"].(obj)["type"])
		assert.EqualValues(t, 1, failed[0]["attempts"])
		assert.NotEmpty(t, failed[0]["finishedAt"])

		s.Webhooks.Answer(200)
		id := eventID(failed[0])
		d := requireCall(t, s, "POST", "/sandbox/webhooks/"+id+"/redeliver", nil)
		assert.Equal(t, "DELIVERED", d["status"])
		assert.EqualValues(t, 2, d["attempts"])
		assert.Empty(t, deliveries(t, s, "?status=FAILED"), "no longer given up")
		dead, err := s.Engine.Webhooks.DeadEvents(t.Context(), 0)
		require.NoError(t, err)
		assert.Empty(t, dead)
	})

	t.Run("Refused", func(t *testing.T) {
		requireAPIError(t, s.Call("POST", "/sandbox/webhooks/Webhook:no-such/redeliver", nil, nil), 404, payments.CodeNotFound)
		viewer := requireCall(t, s, "POST", "/tokens", obj{"name": "viewer", "permissions": []string{"VIEW"}})
		as := *s
		as.ClientID, as.ClientSecret = viewer["clientId"].(string), viewer["clientSecret"].(string)
		require.NoError(t, as.Call("GET", "/sandbox/webhooks", nil, nil), "any token lists")
		requireAPIError(t, as.Call("POST", "/sandbox/webhooks/"+eventID(all[0])+"/redeliver", nil, nil), 403, payments.CodeForbidden)

		eng, err := payments.New(payments.Config{Store: memstore.New()})
		require.NoError(t, err)
		defer eng.Close()
		tok, err := eng.Platform.CreateToken(t.Context(), payments.CreateTokenRequest{Name: "a", Permissions: []payments.Permission{payments.PermManage}})
		require.NoError(t, err)
		srv := httptestServer(t, httpapi.New(eng, httpapi.Config{}))
		prod := &sandbox.Server{Server: srv, BaseURL: srv.URL, ClientID: tok.ClientID, ClientSecret: tok.ClientSecret}
		requireAPIError(t, prod.Call("GET", "/sandbox/webhooks", nil, nil), 403, payments.CodeForbidden)
		requireAPIError(t, prod.Call("POST", "/sandbox/webhooks/Webhook:x/redeliver", nil, nil), 403, payments.CodeForbidden)
	})
}

// fieldsOfGet returns the details.errors fields of a GET answered 400.
func fieldsOfGet(t *testing.T, s *sandbox.Server, path string) []string {
	t.Helper()
	req, err := http.NewRequest("GET", s.BaseURL+path, nil)
	require.NoError(t, err)
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	res, err := s.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, 400, res.StatusCode)
	var body struct {
		Details struct {
			Errors []struct {
				Field string `json:"field"`
			} `json:"errors"`
		} `json:"details"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	var out []string
	for _, e := range body.Details.Errors {
		out = append(out, e.Field)
	}
	return out
}

// TestServer_WebhookGivenUpIsLogged: a delivery given up is logged at WARN
// with its event and endpoint (a failed try that will be retried is not).
func TestServer_WebhookGivenUpIsLogged(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	s := sandbox.NewServer(t, func(c *payments.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	s.Webhooks.Answer(503)
	funded(t, s, 1_000) // retried: no warning
	endpoint := s.Webhooks.URL + "/again"
	requireCall(t, s, "PATCH", "/config", obj{"webhookEndpoint": endpoint})
	require.NoError(t, s.RunDue())
	dead, err := s.Engine.Webhooks.DeadEvents(t.Context(), 0)
	require.NoError(t, err)
	require.Len(t, dead, 1)

	var warned []obj
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m obj
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		warned = append(warned, m)
	}
	require.Len(t, warned, 1, "%s", logs.String())
	assert.Equal(t, "WARN", warned[0]["level"])
	assert.Equal(t, "webhook given up", warned[0]["msg"])
	assert.Equal(t, dead[0].Event.ID, warned[0]["event"])
	assert.Equal(t, "TEST", warned[0]["type"])
	assert.Equal(t, endpoint, warned[0]["endpoint"])
	assert.EqualValues(t, 1, warned[0]["attempts"])
	assert.Contains(t, warned[0]["err"], "503")
}

// syncBuffer is a log destination safe for the engine's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// TestServer_WebhooksNotSent: a payout on a server with no webhook endpoint
// lists its events NOT_SENT with the reason and no try (not DELIVERED, as
// nothing received them), each with a top-level id; once an endpoint is
// set, redeliver by that id (or by event.id) sends one, DELIVERED at its
// first try.
func TestServer_WebhooksNotSent(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t, func(c *payments.Config) { c.EventHistory, c.Platform.WebhookEndpoint = true, "" })
	busy(t, s)

	all := deliveries(t, s, "")
	require.NotEmpty(t, all)
	for _, d := range all {
		assert.Equal(t, "NOT_SENT", d["status"], "%v", d)
		assert.Equal(t, payments.ReasonNoEndpoint, d["reason"])
		assert.EqualValues(t, 0, d["attempts"], "never sent")
		assert.NotEmpty(t, d["finishedAt"])
		assert.Equal(t, eventID(d), d["id"], "the item's id is its event's")
		assert.Zero(t, s.Webhooks.Deliveries(eventID(d)))
	}
	assert.Equal(t, all, deliveries(t, s, "?status=NOT_SENT"))
	assert.Empty(t, deliveries(t, s, "?status=DELIVERED"))
	assert.Equal(t, []string{"status"}, fieldsOfGet(t, s, "/sandbox/webhooks?status=SENT"))

	requireCall(t, s, "PATCH", "/config", obj{"webhookEndpoint": s.Webhooks.URL})
	sent := requireCall(t, s, "POST", "/sandbox/webhooks/"+all[0]["id"].(string)+"/redeliver", nil)
	assert.Equal(t, "DELIVERED", sent["status"])
	assert.EqualValues(t, 1, sent["attempts"], "delivered at its first try")
	assert.Equal(t, all[0]["id"], sent["id"])
	assert.Nil(t, sent["reason"])
	assert.Equal(t, 1, s.Webhooks.Deliveries(all[0]["id"].(string)))
	again := requireCall(t, s, "POST", "/sandbox/webhooks/"+eventID(all[1])+"/redeliver", nil)
	assert.Equal(t, "DELIVERED", again["status"], "event.id works as before")
	assert.Len(t, deliveries(t, s, "?status=NOT_SENT"), len(all)-2)
}
