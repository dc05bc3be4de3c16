package sandbox_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// obj is a decoded JSON object.
type obj = map[string]any

// start is where a Server's clock stands at first.
var start = time.Date(2025, 10, 13, 12, 0, 0, 0, time.UTC)

// requireCall makes a call that must succeed and returns its answer.
func requireCall(t testing.TB, s *sandbox.Server, method, path string, in any) obj {
	t.Helper()
	var out obj
	require.NoError(t, s.Call(method, path, in, &out), "%s %s", method, path)
	return out
}

// requireAPIError asserts a call fails with status and code, naming fields.
func requireAPIError(t *testing.T, err error, status int, code payments.Code) {
	t.Helper()
	var e *sandbox.APIError
	require.True(t, errors.As(err, &e), "want an API error, got %v", err)
	assert.Equal(t, status, e.Status, "%v", e)
	assert.Equal(t, string(code), e.Code, "%v", e)
}

// fieldsOf returns the details.errors fields of a failed call's body.
func fieldsOf(t *testing.T, s *sandbox.Server, method, path string, in any) []string {
	t.Helper()
	var body struct {
		Details struct {
			Errors []struct {
				Field string `json:"field"`
			} `json:"errors"`
		} `json:"details"`
	}
	raw, _ := json.Marshal(in)
	req, _ := http.NewRequest(method, s.BaseURL+path, bytesReader(raw))
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	req.Header.Set("Content-Type", "application/json")
	res, err := s.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, 400, res.StatusCode)
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	var out []string
	for _, e := range body.Details.Errors {
		out = append(out, e.Field)
	}
	return out
}

// funded onboards a customer with a USD account holding amount and returns
// the customer and account ids.
func funded(t testing.TB, s *sandbox.Server, amount int64) (string, string) {
	t.Helper()
	c := requireCall(t, s, "POST", "/customers", customerBody("Jane Doe"))
	accts := requireCall(t, s, "GET", "/customers/internal-accounts?customerId="+c["id"].(string)+"&currency=USD", nil)
	acct := accts["data"].([]any)[0].(obj)["id"].(string)
	requireCall(t, s, "POST", "/sandbox/internal-accounts/"+acct+"/fund", obj{"amount": amount})
	return c["id"].(string), acct
}

// pay sends amount from acct to a new USD bank account of customer whose
// number ends in the sandbox suffix, and returns the transaction id.
func pay(t testing.TB, s *sandbox.Server, customer, acct, number string, amount int64) string {
	t.Helper()
	ext := requireCall(t, s, "POST", "/customers/external-accounts", usdBank(customer, number))
	q := requireCall(t, s, "POST", "/quotes", obj{"source": obj{"sourceType": "ACCOUNT", "accountId": acct},
		"destination":        obj{"destinationType": "ACCOUNT", "accountId": ext["id"]},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": amount, "immediatelyExecute": true})
	return q["transactionId"].(string)
}

// eventsOf returns the types of the received webhooks about the
// transaction id, in order.
func eventsOf(s *sandbox.Server, id string) []string {
	var out []string
	for _, ev := range s.Webhooks.Events() {
		var d struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(ev.Data, &d) == nil && d.ID == id {
			out = append(out, string(ev.Type))
		}
	}
	return out
}

func TestServer_ClockAdvanceAcrossSettlement(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)
	clock := requireCall(t, s, "GET", "/sandbox/clock", nil)
	assert.Equal(t, obj{"now": "2025-10-13T12:00:00Z", "frozen": true}, clock)

	customer, acct := funded(t, s, 50_000)
	slow := pay(t, s, customer, acct, "123456003", 10_000)     // settles after 6 minutes
	returned := pay(t, s, customer, acct, "123456005", 10_000) // completes, returned after 10
	require.NoError(t, s.RunDue())
	assert.Equal(t, []string{"OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PROCESSING"}, eventsOf(s, slow))

	// One advance of an hour stops at each due instant on the way.
	clock = requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "1h"})
	assert.Equal(t, "2025-10-13T13:00:00Z", clock["now"])
	assert.Equal(t, []string{"OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"}, eventsOf(s, slow),
		"delivered before the advance answered")
	tx := requireCall(t, s, "GET", "/transactions/"+slow, nil)
	assert.Equal(t, "COMPLETED", tx["status"])
	assert.Equal(t, "FAILED", requireCall(t, s, "GET", "/transactions/"+returned, nil)["status"], "returned ten minutes later")
	assert.Contains(t, eventsOf(s, returned), "OUTGOING_PAYMENT.FAILED")

	// Every webhook came in the order of the instants it describes.
	events := s.Webhooks.Events()
	for i := 1; i < len(events); i++ {
		assert.False(t, events[i].Timestamp.Before(events[i-1].Timestamp), "%s at %s came after %s at %s",
			events[i].Type, events[i].Timestamp, events[i-1].Type, events[i-1].Timestamp)
	}
	completed := slices.IndexFunc(events, func(ev payments.Event) bool {
		return ev.Type == "OUTGOING_PAYMENT.COMPLETED" && ev.Timestamp.Equal(start.Add(sandbox.SlowPayment))
	})
	failed := slices.IndexFunc(events, func(ev payments.Event) bool { return ev.Type == "OUTGOING_PAYMENT.FAILED" })
	require.GreaterOrEqual(t, completed, 0, "the slow payment completed at +6m: %v", s.Webhooks.Types())
	assert.Less(t, completed, failed, "the +6m settlement before the +10m return")
	assert.Equal(t, start.Add(sandbox.SlowPayment+sandbox.ReturnAfter-sandbox.SlowPayment), events[failed].Timestamp)
	assert.Zero(t, s.Webhooks.Rejected())

	// To an instant; never backwards.
	clock = requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"to": "2025-10-14T00:00:00Z"})
	assert.Equal(t, "2025-10-14T00:00:00Z", clock["now"])
	assert.Equal(t, []string{"to"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"to": "2025-10-13T23:59:59Z"}))
	assert.Equal(t, []string{"duration"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "-1s"}))
	assert.Equal(t, []string{"duration"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "six minutes"}))
	assert.Equal(t, []string{"duration"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{}))
	assert.Equal(t, []string{"to"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "1s", "to": "2025-10-15T00:00:00Z"}))
	assert.Equal(t, []string{"to"}, fieldsOf(t, s, "POST", "/sandbox/clock/advance", obj{"to": "tomorrow"}))
	assert.Equal(t, "2025-10-14T00:00:00Z", requireCall(t, s, "GET", "/sandbox/clock", nil)["now"], "refusals move nothing")
}

func TestServer_ClockFreezeResume(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)
	resumed := requireCall(t, s, "POST", "/sandbox/clock/resume", nil)
	assert.Equal(t, false, resumed["frozen"])
	assert.Equal(t, "2025-10-13T12:00:00Z", resumed["now"], "resuming does not jump")
	require.Eventually(t, func() bool {
		return requireCall(t, s, "GET", "/sandbox/clock", nil)["now"] != resumed["now"]
	}, 5*time.Second, 5*time.Millisecond, "a running clock follows real time")
	moved := requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"duration": "24h"})
	at, err := time.Parse(time.RFC3339Nano, moved["now"].(string))
	require.NoError(t, err)
	assert.True(t, at.After(start.Add(24*time.Hour)), "advancing a running clock adds to its reading: %s", at)
	frozen := requireCall(t, s, "POST", "/sandbox/clock/freeze", nil)
	assert.Equal(t, true, frozen["frozen"])
	time.Sleep(5 * time.Millisecond)
	assert.Equal(t, frozen["now"], requireCall(t, s, "GET", "/sandbox/clock", nil)["now"], "a frozen clock stands still")
}

func TestServer_ClockPermissions(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)
	viewer := requireCall(t, s, "POST", "/tokens", obj{"name": "viewer", "permissions": []string{"VIEW"}})
	as := *s
	as.ClientID, as.ClientSecret = viewer["clientId"].(string), viewer["clientSecret"].(string)
	require.NoError(t, as.Call("GET", "/sandbox/clock", nil, nil), "any token reads the clock")
	for _, path := range []string{"/sandbox/clock/advance", "/sandbox/clock/freeze", "/sandbox/clock/resume", "/sandbox/reset", "/sandbox/state"} {
		requireAPIError(t, as.Call("POST", path, obj{"duration": "1m"}, nil), 403, payments.CodeForbidden)
	}
	requireAPIError(t, as.Call("GET", "/sandbox/state", nil, nil), 403, payments.CodeForbidden)
}

func TestServer_ClockOutsideSandbox(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		sandbox bool
		clock   httpapi.TestClock
		status  int
		code    payments.Code
	}{
		{"production engine", false, &sandbox.Controls{}, 403, payments.CodeForbidden},
		{"no test clock", true, nil, 501, payments.CodeNotImplemented},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng, err := payments.New(payments.Config{Store: memstore.New(), Sandbox: tc.sandbox})
			require.NoError(t, err)
			defer eng.Close()
			tok, err := eng.Platform.CreateToken(t.Context(), payments.CreateTokenRequest{Name: "a", Permissions: []payments.Permission{payments.PermManage}})
			require.NoError(t, err)
			srv := httptestServer(t, httpapi.New(eng, httpapi.Config{TestClock: tc.clock}))
			s := &sandbox.Server{Server: srv, BaseURL: srv.URL, ClientID: tok.ClientID, ClientSecret: tok.ClientSecret}
			requireAPIError(t, s.Call("GET", "/sandbox/clock", nil, nil), tc.status, tc.code)
			requireAPIError(t, s.Call("POST", "/sandbox/clock/advance", obj{"duration": "1m"}, nil), tc.status, tc.code)
			if !tc.sandbox {
				requireAPIError(t, s.Call("POST", "/sandbox/reset", nil, nil), 403, payments.CodeForbidden)
				requireAPIError(t, s.Call("GET", "/sandbox/state", nil, nil), 403, payments.CodeForbidden)
			}
		})
	}
}

// TestServer_Parallel runs a server per parallel test: they share nothing.
func TestServer_Parallel(t *testing.T) {
	t.Parallel()
	for i := range 6 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			s := sandbox.NewServer(t)
			for range i {
				requireCall(t, s, "POST", "/customers", customerBody("Jane Doe"))
			}
			requireCall(t, s, "POST", "/sandbox/clock/advance", obj{"duration": strconv.Itoa(i+1) + "h"})
			assert.EqualValues(t, i, requireCall(t, s, "GET", "/customers", nil)["totalCount"])
			assert.Equal(t, start.Add(time.Duration(i+1)*time.Hour), s.Clock.Now())
		})
	}
}
