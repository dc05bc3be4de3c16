package sandbox_test

import (
	"encoding/json"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/memstore"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lists are the API's lists (and the configuration) an export and import
// must answer the same.
var lists = []string{"/config", "/customers", "/customers?isIncludingDeleted=true", "/customers/internal-accounts",
	"/platform/internal-accounts", "/customers/external-accounts", "/platform/external-accounts", "/transactions",
	"/verifications", "/documents", "/cards", "/agents", "/stablecoins"}

// answers returns the raw answer of every list.
func answers(t *testing.T, s *sandbox.Server) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, path := range lists {
		var raw json.RawMessage
		require.NoError(t, s.Call("GET", path, nil, &raw), path)
		out[path] = string(raw)
	}
	return out
}

// exported returns the server's state document.
func exported(t *testing.T, s *sandbox.Server) *payments.SandboxState {
	t.Helper()
	var doc payments.SandboxState
	require.NoError(t, s.Call("GET", "/sandbox/state", nil, &doc))
	return &doc
}

// busy builds some state: a customer with a funded account, a payment
// settled and one still in flight (due in six minutes), and a deleted
// customer. It returns the id of the payment in flight.
func busy(t testing.TB, s *sandbox.Server) string {
	t.Helper()
	customer, acct := funded(t, s, 50_000)
	pay(t, s, customer, acct, "123456001", 5_000)
	slow := pay(t, s, customer, acct, "123456003", 10_000)
	gone := requireCall(t, s, "POST", "/customers", customerBody("Gone Soon"))
	requireCall(t, s, "DELETE", "/customers/"+gone["id"].(string), nil)
	require.NoError(t, s.RunDue())
	return slow
}

func TestServer_ExportImport(t *testing.T) {
	t.Parallel()
	a := sandbox.NewServer(t)
	slow := busy(t, a)
	want := answers(t, a)
	doc := exported(t, a)
	assert.Equal(t, payments.SandboxStateFormat, doc.Format)
	assert.NotContains(t, doc.Tables, "tokens", "credentials stay with their server")

	// A fixture: another server starts from a's state.
	b := sandbox.NewServer(t)
	require.NoError(t, b.Call("POST", "/sandbox/state", doc, nil))
	assert.Equal(t, want, answers(t, b), "the same answers to every list")
	require.NoError(t, a.Call("GET", "/customers", nil, nil), "b's token still works on b: tokens are not imported")
	again := exported(t, b)
	assert.Equal(t, doc.Tables, again.Tables, "export, import, export gives the same document")

	// The imported due work goes on: the payment in flight settles.
	requireCall(t, b, "PATCH", "/config", map[string]any{"webhookEndpoint": b.Webhooks.URL})
	requireCall(t, b, "POST", "/sandbox/clock/advance", map[string]any{"duration": "6m"})
	assert.Equal(t, "COMPLETED", requireCall(t, b, "GET", "/transactions/"+slow, nil)["status"])
	assert.Contains(t, eventsOf(b, slow), "OUTGOING_PAYMENT.COMPLETED")
	assert.Equal(t, "PROCESSING", requireCall(t, a, "GET", "/transactions/"+slow, nil)["status"], "a is untouched")
	require.NoError(t, payments.CheckLedger(t.Context(), b.Engine.Store()))
}

func TestServer_ImportRefusals(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)
	busy(t, s)
	want := answers(t, s)

	t.Run("unbalanced ledger", func(t *testing.T) {
		doc := exported(t, s)
		bals := doc.Tables["ledger_balances"]
		require.NotEmpty(t, bals)
		n, err := strconv.ParseInt(string(bals[0].Value), 10, 64)
		require.NoError(t, err)
		bals[0].Value = json.RawMessage(strconv.FormatInt(n+1, 10))
		assert.Equal(t, []string{"tables.ledger_entries"}, fieldsOf(t, s, "POST", "/sandbox/state", doc))
	})
	t.Run("a journal entry that does not balance", func(t *testing.T) {
		doc := exported(t, s)
		var e payments.LedgerEntry
		require.NoError(t, json.Unmarshal(doc.Tables["ledger_entries"][0].Value, &e))
		e.Postings[0].Amount++
		doc.Tables["ledger_entries"][0].Value, _ = json.Marshal(e)
		assert.Equal(t, []string{"tables.ledger_entries"}, fieldsOf(t, s, "POST", "/sandbox/state", doc))
	})
	t.Run("shape", func(t *testing.T) {
		doc := exported(t, s)
		doc.Format = "other/1"
		doc.Tables["tokens"] = []payments.StateRecord{{Key: "x", Value: json.RawMessage(`{}`)}}
		doc.Tables["customers"][0].Base64 = "AAAA"
		delete(doc.Tables, "platform")
		assert.ElementsMatch(t, []string{"format", "tables.tokens", "tables.customers.0", "tables.platform"},
			fieldsOf(t, s, "POST", "/sandbox/state", doc))
		requireAPIError(t, s.Call("POST", "/sandbox/state", map[string]any{"tables": "none"}, nil), 400, payments.CodeInvalidInput)
	})
	t.Run("records that cannot be read", func(t *testing.T) {
		doc := exported(t, s)
		doc.Tables["customers"][0].Value = json.RawMessage(`[1]`)
		doc.Tables["platform"][0].Value = nil
		doc.Tables["transactions"][0].Value = json.RawMessage(`{"status":5}`)
		assert.ElementsMatch(t, []string{"tables.customers.0", "tables.platform.0", "tables.transactions.0"},
			fieldsOf(t, s, "POST", "/sandbox/state", doc))
	})
	assert.Equal(t, want, answers(t, s), "a refused import changes nothing")
}

func TestServer_Reset(t *testing.T) {
	t.Parallel()
	s := sandbox.NewServer(t)
	busy(t, s)
	before := requireCall(t, s, "GET", "/config", nil)

	r := requireCall(t, s, "POST", "/sandbox/reset", nil)
	assert.Nil(t, r["token"], "the token is kept")
	cfg := r["config"].(map[string]any)
	assert.NotEqual(t, before["id"], cfg["id"], "a fresh platform")
	assert.Equal(t, s.Webhooks.URL, cfg["webhookEndpoint"], "seeded as at first start")
	assert.EqualValues(t, 0, requireCall(t, s, "GET", "/customers?isIncludingDeleted=true", nil)["totalCount"])
	assert.EqualValues(t, 0, requireCall(t, s, "GET", "/transactions", nil)["totalCount"])
	platform := requireCall(t, s, "GET", "/platform/internal-accounts", nil)["data"].([]any)
	require.NotEmpty(t, platform, "the platform's accounts are open again")
	for _, a := range platform {
		assert.EqualValues(t, 0, a.(map[string]any)["balance"].(map[string]any)["amount"])
	}
	require.NoError(t, payments.CheckLedger(t.Context(), s.Engine.Store()))
	busy(t, s) // works as new

	r = requireCall(t, s, "POST", "/sandbox/reset", map[string]any{"rotateToken": true})
	tok := r["token"].(map[string]any)
	requireAPIError(t, s.Call("GET", "/customers", nil, nil), 401, payments.CodeUnauthorized)
	s.ClientID, s.ClientSecret = tok["clientId"].(string), tok["clientSecret"].(string)
	assert.EqualValues(t, 0, requireCall(t, s, "GET", "/customers", nil)["totalCount"])
	tokens := requireCall(t, s, "GET", "/tokens", nil)
	assert.EqualValues(t, 1, tokens["totalCount"], "only the new token")
	requireAPIError(t, s.Call("POST", "/sandbox/reset", map[string]any{"rotateToken": "yes"}, nil), 400, payments.CodeInvalidInput)
}

// TestServer_ExportImportEventHistory exports, imports and exports again the
// state of a server that keeps the event history (as the sandbox server
// with its dashboard does), after a real payout, on memory and bbolt: every
// table the export writes imports again, the history included.
func TestServer_ExportImportEventHistory(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) payments.Store{
		"memory": func(*testing.T) payments.Store { return memstore.New() },
		"bbolt": func(t *testing.T) payments.Store {
			st, err := boltstore.Open(filepath.Join(t.TempDir(), "state.db"), nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = st.Close() })
			return st
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			history := func(c *payments.Config) { c.EventHistory = true; c.Store = open(t) }
			a := sandbox.NewServer(t, history)
			busy(t, a)
			doc := exported(t, a)
			require.NotEmpty(t, doc.Tables["event_log"], "the payout's events are in the history")

			b := sandbox.NewServer(t, history)
			require.NoError(t, b.Call("POST", "/sandbox/state", doc, nil))
			assert.Equal(t, doc.Tables, exported(t, b).Tables, "export, import, export gives the same document")
			assert.Equal(t, answers(t, a), answers(t, b))
			var events, again json.RawMessage
			require.NoError(t, a.Call("GET", "/sandbox/webhooks", nil, &events))
			require.NoError(t, b.Call("GET", "/sandbox/webhooks", nil, &again))
			assert.JSONEq(t, string(events), string(again), "the same event history")

			// And back onto a itself: its own export imports again.
			require.NoError(t, a.Call("POST", "/sandbox/state", doc, nil))
			assert.Equal(t, doc.Tables, exported(t, a).Tables)
		})
	}
}
