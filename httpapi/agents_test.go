package httpapi_test

import (
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// policy is an agent policy with every permission, AUTO, and the given
// per-transaction and daily limits in USD.
func policy(perTx, daily int64, mutate ...func(map[string]any)) map[string]any {
	p := map[string]any{
		"permissions":          []string{"VIEW_TRANSACTIONS", "CREATE_TRANSFERS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS"},
		"defaultExecutionMode": "AUTO",
		"spendingLimits":       map[string]any{"currency": "USD", "perTransactionLimit": perTx, "dailyLimit": daily},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

// agent creates an agent for customerID and redeems its device code,
// returning the agent id and its access token.
func (s *server) agent(customerID string, pol map[string]any) (string, string) {
	s.t.Helper()
	c := s.do("POST", "/agents", map[string]any{"name": "Payroll bot", "customerId": customerID, "policy": pol})
	require.Equal(s.t, 201, c.Status, "%s", c.Raw)
	code := c.Body["deviceCode"].(map[string]any)["code"].(string)
	r := s.doAs("", "POST", "/agents/device-codes/"+code+"/redeem", nil)
	require.Equal(s.t, 200, r.Status, "%s", r.Raw)
	return c.Body["agent"].(map[string]any)["id"].(string), r.Body["accessToken"].(string)
}

// as sends a request with an agent's Bearer credential.
func (s *server) as(token, method, path string, body any, headers ...string) response {
	s.t.Helper()
	return s.doAs("", method, path, body, append([]string{"Authorization", "Bearer " + token}, headers...)...)
}

func transferBody(src, dst any, amount int64) map[string]any {
	return map[string]any{"source": map[string]any{"accountId": src}, "destination": map[string]any{"accountId": dst}, "amount": amount}
}

func TestAgents_DeviceCodeFlow(t *testing.T) {
	s := moneyServer(t)
	cust := s.customer()

	// Create: every invalid member is listed.
	bad := s.do("POST", "/agents", map[string]any{"customerId": cust, "policy": map[string]any{
		"permissions": []string{"VIEW_TRANSACTIONS", "FLY"}, "defaultExecutionMode": "SOMETIMES",
		"spendingLimits":      map[string]any{"currency": "XYZ", "perTransactionLimit": 0, "dailyLimit": -1},
		"accountRestrictions": map[string]any{"accountRules": []any{map[string]any{"executionMode": "NEVER"}}},
		"approvalThresholds":  map[string]any{"amount": 10}}})
	requireError(t, bad, 400, payments.CodeInvalidInput, "name", "policy.permissions.1", "policy.defaultExecutionMode",
		"policy.spendingLimits.currency", "policy.spendingLimits.perTransactionLimit", "policy.spendingLimits.dailyLimit",
		"policy.accountRestrictions.accountRules.0.accountId", "policy.accountRestrictions.accountRules.0.executionMode",
		"policy.approvalThresholds.currency")
	requireError(t, s.do("POST", "/agents", map[string]any{"name": "x"}), 400, payments.CodeInvalidInput, "customerId", "policy")
	requireError(t, s.do("POST", "/agents", map[string]any{"name": "x", "customerId": "Customer:nope", "policy": policy(1, 1)}), 400, payments.CodeInvalidInput, "customerId")

	c := s.do("POST", "/agents", map[string]any{"name": "Bot", "customerId": cust, "policy": policy(1000, 5000)})
	require.Equal(t, 201, c.Status, "%s", c.Raw)
	agentID := c.Body["agent"].(map[string]any)["id"].(string)
	assert.Equal(t, false, c.Body["agent"].(map[string]any)["isConnected"])
	code := c.Body["deviceCode"].(map[string]any)["code"].(string)
	assert.True(t, strings.HasPrefix(code, "SERVICE-AGENT-"), code)
	assert.Equal(t, false, s.do("GET", "/agents/device-codes/"+code+"/status", nil).Body["redeemed"])

	// A new code invalidates the unredeemed one.
	rc := s.do("POST", "/agents/"+agentID+"/device-codes", nil)
	require.Equal(t, 201, rc.Status, "%s", rc.Raw)
	code2 := rc.Body["code"].(string)
	requireError(t, s.doAs("", "POST", "/agents/device-codes/"+code+"/redeem", nil), 400, payments.CodeInvalidInput)
	requireError(t, s.doAs("", "POST", "/agents/device-codes/SERVICE-AGENT-NOPE/redeem", nil), 404, payments.CodeNotFound)

	red := s.doAs("", "POST", "/agents/device-codes/"+code2+"/redeem", nil)
	require.Equal(t, 200, red.Status, "%s", red.Raw)
	token := red.Body["accessToken"].(string)
	assert.True(t, strings.HasPrefix(token, "gat_"))
	assert.Equal(t, agentID, red.Body["agentId"])
	assert.Equal(t, true, s.do("GET", "/agents/device-codes/"+code2+"/status", nil).Body["redeemed"])
	requireError(t, s.doAs("", "POST", "/agents/device-codes/"+code2+"/redeem", nil), 400, payments.CodeInvalidInput)
	requireError(t, s.do("POST", "/agents/"+agentID+"/device-codes", nil), 409, payments.CodeConflict)

	// The token is stored only as a hash.
	raw := dumpStore(t, s)
	assert.NotContains(t, raw, token)
	assert.NotContains(t, raw, strings.TrimPrefix(token, "gat_"))

	me := s.as(token, "GET", "/agents/me", nil)
	require.Equal(t, 200, me.Status, "%s", me.Raw)
	assert.Equal(t, true, me.Body["isConnected"])
	assert.Equal(t, cust, me.Body["customerId"])

	// Credentials do not cross: platform routes refuse the agent's, agent
	// routes the platform's.
	requireError(t, s.as(token, "GET", "/agents", nil), 401, payments.CodeUnauthorized)
	requireError(t, s.as(token, "POST", "/agents/"+agentID+"/device-codes", nil), 401, payments.CodeUnauthorized)
	requireError(t, s.do("GET", "/agents/me", nil), 401, payments.CodeUnauthorized)
	requireError(t, s.as("gat_0000", "GET", "/agents/me", nil), 401, payments.CodeUnauthorized)
	requireError(t, s.as(token+"0", "GET", "/agents/me", nil), 401, payments.CodeUnauthorized)

	// Pausing stops the credential at once; resuming restores it.
	p := s.do("PATCH", "/agents/"+agentID, map[string]any{"isPaused": true})
	require.Equal(t, 200, p.Status, "%s", p.Raw)
	requireError(t, s.as(token, "GET", "/agents/me", nil), 403, payments.CodeForbidden)
	require.Equal(t, 200, s.do("PATCH", "/agents/"+agentID, map[string]any{"isPaused": false, "name": "Renamed"}).Status)
	assert.Equal(t, "Renamed", s.as(token, "GET", "/agents/me", nil).Body["name"])
	requireError(t, s.do("PATCH", "/agents/"+agentID, map[string]any{}), 400, payments.CodeInvalidInput, "name")

	list := s.do("GET", "/agents?customerId="+cust+"&isConnected=true", nil)
	require.Equal(t, 200, list.Status, "%s", list.Raw)
	assert.Len(t, list.Body["data"], 1)
	assert.Len(t, s.do("GET", "/agents?isPaused=true", nil).Body["data"], 0)

	// An expired code is refused.
	other := s.do("POST", "/agents", map[string]any{"name": "Late", "customerId": cust, "policy": policy(1, 1)})
	late := other.Body["deviceCode"].(map[string]any)["code"].(string)
	s.clock.Advance(24 * time.Hour)
	requireError(t, s.doAs("", "POST", "/agents/device-codes/"+late+"/redeem", nil), 400, payments.CodeInvalidInput)

	// Deleting kills the credential.
	d := s.do("DELETE", "/agents/"+agentID, nil)
	require.Equal(t, 204, d.Status, "%s", d.Raw)
	requireError(t, s.as(token, "GET", "/agents/me", nil), 401, payments.CodeUnauthorized)
	requireError(t, s.do("GET", "/agents/"+agentID, nil), 404, payments.CodeNotFound)
	requireError(t, s.do("GET", "/agents/device-codes/"+code2+"/status", nil), 404, payments.CodeNotFound)
}

// dumpStore returns every key and value of the store as one string.
func dumpStore(t *testing.T, s *server) string {
	t.Helper()
	var b strings.Builder
	for _, table := range []string{"agents", "agent_tokens", "agent_device_codes", "idempotency", "outbox"} {
		require.NoError(t, s.store.View(ctx, func(tx payments.Tx) error {
			return tx.Scan(table, payments.ScanOptions{}, func(k string, v []byte) (bool, error) {
				b.WriteString(k + "=" + string(v) + "\n")
				return true, nil
			})
		}))
	}
	return b.String()
}

func TestAgents_PolicyUpdate(t *testing.T) {
	s := moneyServer(t)
	agentID, token := s.agent(s.customer(), policy(1000, 5000))
	r := s.do("PATCH", "/agents/"+agentID+"/policy", map[string]any{"permissions": []string{"VIEW_TRANSACTIONS"},
		"spendingLimits": map[string]any{"dailyLimit": nil, "perTransactionLimit": 2000}})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	pol := r.Body["policy"].(map[string]any)
	assert.Equal(t, []any{"VIEW_TRANSACTIONS"}, pol["permissions"], "replaced wholesale")
	lim := pol["spendingLimits"].(map[string]any)
	assert.EqualValues(t, 2000, lim["perTransactionLimit"])
	assert.Nil(t, lim["dailyLimit"], "null removes the limit")
	assert.Equal(t, "AUTO", pol["defaultExecutionMode"], "omitted members keep their value")

	requireError(t, s.do("PATCH", "/agents/"+agentID+"/policy", map[string]any{"permissions": []string{"NOPE"}, "defaultExecutionMode": "",
		"spendingLimits": map[string]any{"perTransactionLimit": 0, "monthlyLimit": -5}}), 400, payments.CodeInvalidInput,
		"permissions.0", "defaultExecutionMode", "spendingLimits.perTransactionLimit", "spendingLimits.monthlyLimit")
	requireError(t, s.do("PATCH", "/agents/Agent:nope/policy", map[string]any{}), 404, payments.CodeNotFound)

	// The change applies to the agent's next call.
	requireError(t, s.as(token, "GET", "/agents/me/external-accounts", nil), 403, payments.CodeForbidden)
	require.Equal(t, 200, s.as(token, "GET", "/agents/me/transactions", nil).Status)

	// A new limits currency recasts the limits at the rate.
	r = s.do("PATCH", "/agents/"+agentID+"/policy", map[string]any{"spendingLimits": map[string]any{"currency": "EUR"}})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	lim = r.Body["policy"].(map[string]any)["spendingLimits"].(map[string]any)
	assert.Equal(t, "EUR", lim["currency"])
	assert.NotEqual(t, 2000.0, lim["perTransactionLimit"], "recast into EUR")
	assert.Greater(t, lim["perTransactionLimit"].(float64), 0.0)
}

// moneyAgent sets up a funded customer with an external USD account and an
// agent on it.
func moneyAgent(t *testing.T, s *server, funds int64, pol map[string]any) (cust, acct, ext, agentID, token string) {
	cust, acct = s.funded(funds)
	e := s.do("POST", "/customers/external-accounts", usdAccount(cust, "444555001"))
	require.Equal(t, 201, e.Status, "%s", e.Raw)
	agentID, token = s.agent(cust, pol)
	return cust, acct, e.Body["id"].(string), agentID, token
}

func TestAgents_TransfersLimitsAndApprovals(t *testing.T) {
	s := moneyServer(t)
	pol := policy(1000, 2500, set("approvalThresholds", map[string]any{"currency": "USD", "amount": 800}))
	_, acct, ext, agentID, token := moneyAgent(t, s, 10_000, pol)

	out := s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 600))
	require.Equal(t, 201, out.Status, "%s", out.Raw)
	assert.Equal(t, "APPROVED", out.Body["status"])
	assert.Equal(t, "TRANSFER_OUT", out.Body["type"])
	tx := out.Body["transaction"].(map[string]any)
	assert.Equal(t, agentID, tx["agentId"], "the transaction carries the agent")
	assert.Equal(t, agentID, s.do("GET", "/transactions/"+tx["id"].(string), nil).Body["agentId"], "and shows it to the platform")
	usage := s.as(token, "GET", "/agents/me", nil).Body["usage"].(map[string]any)
	assert.EqualValues(t, 600, usage["dailySpend"])
	assert.EqualValues(t, 1, usage["dailyTransactionCount"])

	// Over the per-transaction limit: refused, nothing changes.
	requireError(t, s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 1001)), 403, payments.CodeForbidden)
	bal, _ := s.usdBalance(acct)
	assert.EqualValues(t, 9400, bal)

	// Above the approval threshold: pending, with a webhook, and no money moves.
	pend := s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 900))
	require.Equal(t, 201, pend.Status, "%s", pend.Raw)
	assert.Equal(t, "PENDING_APPROVAL", pend.Body["status"])
	assert.Nil(t, pend.Body["transaction"])
	assert.EqualValues(t, 900, pend.Body["transferDetails"].(map[string]any)["amount"])
	actionID := pend.Body["id"].(string)
	_, err := s.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	var hooks int
	for _, ev := range s.events() {
		if ev.Type == "AGENT_ACTION.PENDING_APPROVAL" && strings.Contains(string(ev.Data), actionID) {
			hooks++
		}
	}
	assert.Equal(t, 1, hooks)
	bal, _ = s.usdBalance(acct)
	assert.EqualValues(t, 9400, bal)

	ap := s.do("GET", "/agents/approvals?agentId="+agentID, nil)
	require.Equal(t, 200, ap.Status, "%s", ap.Raw)
	require.Len(t, ap.Body["data"], 1)
	assert.Equal(t, actionID, ap.Body["data"].([]any)[0].(map[string]any)["id"])

	// The agent cannot approve its own action.
	requireError(t, s.as(token, "POST", "/agents/"+agentID+"/actions/"+actionID+"/approve", nil), 401, payments.CodeUnauthorized)
	ok := s.do("POST", "/agents/"+agentID+"/actions/"+actionID+"/approve", nil)
	require.Equal(t, 200, ok.Status, "%s", ok.Raw)
	assert.Equal(t, "APPROVED", ok.Body["status"])
	txn := ok.Body["transaction"].(map[string]any)
	assert.Equal(t, "PROCESSING", txn["status"], "answered as committed")
	assert.Equal(t, "COMPLETED", s.do("GET", "/transactions/"+txn["id"].(string), nil).Body["status"], "the sandbox rail reported at once")
	requireError(t, s.do("POST", "/agents/"+agentID+"/actions/"+actionID+"/approve", nil), 409, payments.CodeTransactionNotPendingPlatformApproval)
	bal, _ = s.usdBalance(acct)
	assert.EqualValues(t, 8500, bal)

	// Daily limit: 1500 spent, 1000 left. 950 needs approval; approving it
	// after another spend passed the limit fails cleanly.
	p2 := s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 950))
	require.Equal(t, "PENDING_APPROVAL", p2.Body["status"], "%s", p2.Raw)
	require.Equal(t, "APPROVED", s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 700)).Body["status"])
	requireError(t, s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 301)), 403, payments.CodeForbidden)
	f := s.do("POST", "/agents/"+agentID+"/actions/"+p2.Body["id"].(string)+"/approve", nil)
	require.Equal(t, 200, f.Status, "%s", f.Raw)
	assert.Equal(t, "FAILED", f.Body["status"])
	assert.Nil(t, f.Body["transaction"])

	// Reject keeps the reason; a decided action is a conflict.
	s.clock.Advance(24 * time.Hour) // a new day: the daily counters reset
	p3 := s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 850))
	require.Equal(t, "PENDING_APPROVAL", p3.Body["status"], "%s", p3.Raw)
	rj := s.do("POST", "/agents/"+agentID+"/actions/"+p3.Body["id"].(string)+"/reject", map[string]any{"reason": "too much"})
	require.Equal(t, 200, rj.Status, "%s", rj.Raw)
	assert.Equal(t, "REJECTED", rj.Body["status"])
	assert.Equal(t, "too much", rj.Body["rejectionReason"])
	requireError(t, s.do("POST", "/agents/"+agentID+"/actions/"+p3.Body["id"].(string)+"/reject", nil), 409, payments.CodeTransactionNotPendingPlatformApproval)
	requireError(t, s.do("POST", "/agents/Agent:other/actions/"+p3.Body["id"].(string)+"/approve", nil), 404, payments.CodeNotFound)

	acts := s.as(token, "GET", "/agents/me/actions?status=REJECTED", nil)
	require.Equal(t, 200, acts.Status, "%s", acts.Raw)
	assert.Len(t, acts.Body["data"], 1)
	assert.Len(t, s.as(token, "GET", "/agents/me/actions", nil).Body["data"], 5)
	requireError(t, s.as(token, "GET", "/agents/me/actions?limit=0", nil), 400, payments.CodeInvalidInput, "limit")
	requireError(t, s.as(token, "GET", "/agents/me/actions?status=MAYBE", nil), 400, payments.CodeInvalidInput, "status")

	// Deleting the agent rejects what still waits for approval.
	p4 := s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 820))
	require.Equal(t, "PENDING_APPROVAL", p4.Body["status"], "%s", p4.Raw)
	defer func() {
		require.Equal(t, 204, s.do("DELETE", "/agents/"+agentID, nil).Status)
		assert.Empty(t, s.do("GET", "/agents/approvals", nil).Body["data"])
		requireError(t, s.do("POST", "/agents/"+agentID+"/actions/"+p4.Body["id"].(string)+"/approve", nil), 409, payments.CodeTransactionNotPendingPlatformApproval)
	}()

	// Transfer-in counts against the limits too.
	in := s.as(token, "POST", "/agents/me/transfer-in", transferBody(ext, acct, 500))
	require.Equal(t, 201, in.Status, "%s", in.Raw)
	assert.Equal(t, "APPROVED", in.Body["status"])
	assert.Equal(t, "TRANSFER_IN", in.Body["type"])
	assert.EqualValues(t, 500, s.as(token, "GET", "/agents/me", nil).Body["usage"].(map[string]any)["dailySpend"])
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

func TestAgents_QuotesExecuteAndExpiry(t *testing.T) {
	s := moneyServer(t)
	cust, acct, _, agentID, token := moneyAgent(t, s, 100_000, policy(50_000, 100_000,
		set("defaultExecutionMode", "APPROVAL_REQUIRED")))
	eur := s.eurAccount(cust, deIBAN("001"))

	q := s.as(token, "POST", "/agents/me/quotes", quoteBody(acct, eur, 1000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	quoteID := q.Body["id"].(string)
	require.Equal(t, 200, s.as(token, "GET", "/agents/me/quotes/"+quoteID, nil).Status)
	imm := quoteBody(acct, eur, 1000)
	imm["immediatelyExecute"] = true
	requireError(t, s.as(token, "POST", "/agents/me/quotes", imm), 400, payments.CodeInvalidInput, "immediatelyExecute")

	ex := s.as(token, "POST", "/agents/me/quotes/"+quoteID+"/execute", nil)
	require.Equal(t, 200, ex.Status, "%s", ex.Raw)
	assert.Equal(t, "PENDING_APPROVAL", ex.Body["status"])
	assert.Equal(t, quoteID, ex.Body["quote"].(map[string]any)["id"])
	ok := s.do("POST", "/agents/"+agentID+"/actions/"+ex.Body["id"].(string)+"/approve", nil)
	require.Equal(t, 200, ok.Status, "%s", ok.Raw)
	assert.Equal(t, "APPROVED", ok.Body["status"])
	txID := ok.Body["transaction"].(map[string]any)["id"].(string)
	got := s.as(token, "GET", "/agents/me/transactions/"+txID, nil)
	require.Equal(t, 200, got.Status, "%s", got.Raw)
	assert.Equal(t, agentID, got.Body["agentId"])

	// A quote that expires while waiting for approval fails on approval.
	q2 := s.as(token, "POST", "/agents/me/quotes", quoteBody(acct, eur, 2000))
	ex2 := s.as(token, "POST", "/agents/me/quotes/"+q2.Body["id"].(string)+"/execute", nil)
	require.Equal(t, "PENDING_APPROVAL", ex2.Body["status"], "%s", ex2.Raw)
	s.clock.Advance(time.Hour)
	f := s.do("POST", "/agents/"+agentID+"/actions/"+ex2.Body["id"].(string)+"/approve", nil)
	require.Equal(t, 200, f.Status, "%s", f.Raw)
	assert.Equal(t, "FAILED", f.Body["status"])
	bal, _ := s.usdBalance(acct)
	assert.EqualValues(t, 99_000, bal)
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

// TestAgents_BOLAMatrix: every /agents/me route given another customer's
// objects (or another agent's) answers exactly as for objects that do not
// exist, and lists never show them.
func TestAgents_BOLAMatrix(t *testing.T) {
	s := moneyServer(t)
	type party struct{ cust, acct, ext, agent, token, quote, tx, action string }
	mk := func() party {
		var p party
		p.cust, p.acct, p.ext, p.agent, p.token = moneyAgent(t, s, 10_000, policy(5000, 50_000))
		q := s.as(p.token, "POST", "/agents/me/quotes", quoteBody(p.acct, p.ext, 100))
		require.Equal(t, 201, q.Status, "%s", q.Raw)
		p.quote = q.Body["id"].(string)
		a := s.as(p.token, "POST", "/agents/me/transfer-out", transferBody(p.acct, p.ext, 100))
		require.Equal(t, 201, a.Status, "%s", a.Raw)
		p.action, p.tx = a.Body["id"].(string), a.Body["transaction"].(map[string]any)["id"].(string)
		return p
	}
	a, b := mk(), mk()
	// A second agent of a's customer sees the customer's objects but not
	// the first agent's quotes and actions.
	_, a2 := s.agent(a.cust, policy(5000, 50_000))

	for _, tc := range []struct {
		name, method, path string
		body               any
		missing            string // the same route with an id that does not exist
		code               payments.Code
	}{
		{"transaction", "GET", "/agents/me/transactions/" + b.tx, nil, "/agents/me/transactions/Transaction:nope", payments.CodeTransactionNotFound},
		{"quote", "GET", "/agents/me/quotes/" + b.quote, nil, "/agents/me/quotes/Quote:nope", payments.CodeQuoteNotFound},
		{"execute", "POST", "/agents/me/quotes/" + b.quote + "/execute", nil, "/agents/me/quotes/Quote:nope/execute", payments.CodeQuoteNotFound},
		{"action", "GET", "/agents/me/actions/" + b.action, nil, "/agents/me/actions/AgentAction:nope", payments.CodeNotFound},
		{"external get", "GET", "/agents/me/external-accounts/" + b.ext, nil, "/agents/me/external-accounts/ExternalAccount:nope", payments.CodeAccountNotFound},
		{"external delete", "DELETE", "/agents/me/external-accounts/" + b.ext, nil, "/agents/me/external-accounts/ExternalAccount:nope", payments.CodeAccountNotFound},
		{"quote source", "POST", "/agents/me/quotes", quoteBody(b.acct, a.ext, 100), "", payments.CodeAccountNotFound},
		{"quote destination", "POST", "/agents/me/quotes", quoteBody(a.acct, b.ext, 100), "", payments.CodeAccountNotFound},
		{"transfer-out source", "POST", "/agents/me/transfer-out", transferBody(b.acct, a.ext, 100), "", payments.CodeAccountNotFound},
		{"transfer-out destination", "POST", "/agents/me/transfer-out", transferBody(a.acct, b.ext, 100), "", payments.CodeAccountNotFound},
		{"transfer-in source", "POST", "/agents/me/transfer-in", transferBody(b.ext, a.acct, 100), "", payments.CodeAccountNotFound},
		{"transfer-in destination", "POST", "/agents/me/transfer-in", transferBody(a.ext, b.acct, 100), "", payments.CodeAccountNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := s.as(a.token, tc.method, tc.path, tc.body)
			requireError(t, got, 404, tc.code)
			if tc.missing != "" {
				requireError(t, s.as(a.token, tc.method, tc.missing, tc.body), 404, tc.code)
			}
		})
	}
	// Another agent of the same customer: the customer's transaction yes,
	// the first agent's quote and action no.
	require.Equal(t, 200, s.as(a2, "GET", "/agents/me/transactions/"+a.tx, nil).Status)
	requireError(t, s.as(a2, "GET", "/agents/me/quotes/"+a.quote, nil), 404, payments.CodeQuoteNotFound)
	requireError(t, s.as(a2, "POST", "/agents/me/quotes/"+a.quote+"/execute", nil), 404, payments.CodeQuoteNotFound)
	requireError(t, s.as(a2, "GET", "/agents/me/actions/"+a.action, nil), 404, payments.CodeNotFound)
	requireError(t, s.as(a.token, "POST", "/agents/me/external-accounts", usdAccount(b.cust, "777888001")), 400, payments.CodeInvalidInput, "customerId")

	// Lists hold only a's customer's objects.
	for _, path := range []string{"/agents/me/transactions", "/agents/me/internal-accounts", "/agents/me/external-accounts", "/agents/me/actions"} {
		r := s.as(a.token, "GET", path+"?limit=100", nil)
		require.Equal(t, 200, r.Status, "%s: %s", path, r.Raw)
		require.NotEmpty(t, r.Body["data"], path)
		for _, v := range []string{b.cust, b.acct, b.ext, b.tx, b.action, b.agent} {
			assert.NotContains(t, string(r.Raw), v, path)
		}
	}
	assert.Empty(t, s.as(a2, "GET", "/agents/me/actions", nil).Body["data"], "actions are the agent's own")

	// b's objects are intact.
	require.Equal(t, 200, s.do("GET", "/customers/external-accounts/"+b.ext, nil).Status)
}

// TestAgents_Permissions: each operation needs its policy permission.
func TestAgents_Permissions(t *testing.T) {
	s := moneyServer(t)
	_, acct, ext, _, full := moneyAgent(t, s, 10_000, policy(5000, 50_000))
	q := s.as(full, "POST", "/agents/me/quotes", quoteBody(acct, ext, 100)).Body["id"].(string)
	routes := []struct {
		perm, method, path string
		body               any
	}{
		{"VIEW_TRANSACTIONS", "GET", "/agents/me/transactions", nil},
		{"VIEW_TRANSACTIONS", "GET", "/agents/me/internal-accounts", nil},
		{"CREATE_QUOTES", "POST", "/agents/me/quotes", quoteBody(acct, ext, 100)},
		{"EXECUTE_QUOTES", "POST", "/agents/me/quotes/" + q + "/execute", nil},
		{"CREATE_TRANSFERS", "POST", "/agents/me/transfer-out", transferBody(acct, ext, 100)},
		{"CREATE_TRANSFERS", "POST", "/agents/me/transfer-in", transferBody(ext, acct, 100)},
		{"MANAGE_EXTERNAL_ACCOUNTS", "GET", "/agents/me/external-accounts", nil},
		{"MANAGE_EXTERNAL_ACCOUNTS", "GET", "/agents/me/external-accounts/" + ext, nil},
		{"MANAGE_EXTERNAL_ACCOUNTS", "DELETE", "/agents/me/external-accounts/" + ext, nil},
	}
	cust := s.do("GET", "/agents", nil).Body["data"].([]any)[0].(map[string]any)["customerId"].(string)
	for _, rt := range routes {
		var others []string
		for _, p := range []string{"VIEW_TRANSACTIONS", "CREATE_TRANSFERS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS"} {
			if p != rt.perm {
				others = append(others, p)
			}
		}
		_, tok := s.agent(cust, policy(5000, 50_000, set("permissions", others)))
		r := s.as(tok, rt.method, rt.path, rt.body)
		requireError(t, r, 403, payments.CodeForbidden)
		assert.Equal(t, rt.perm, r.Body["details"].(map[string]any)["permission"], "%s %s", rt.method, rt.path)
	}
	bal, _ := s.usdBalance(acct)
	assert.EqualValues(t, 10_000, bal, "no refused call moved money")
}

// TestAgents_PolicyAccountsMustBeTheCustomers: POST /agents and PATCH
// /agents/{id}/policy refuse allowedAccountIds and accountRules naming
// another customer's account or a missing one (400 INVALID_INPUT naming the
// request's field); the customer's own internal accounts are accepted.
func TestAgents_PolicyAccountsMustBeTheCustomers(t *testing.T) {
	s := moneyServer(t)
	cust, own := s.funded(0)
	own2 := s.do("GET", "/customers/internal-accounts?customerId="+cust+"&currency=EUR", nil).Body["data"].([]any)[0].(map[string]any)["id"].(string)
	_, other := s.funded(0)
	const missing = "InternalAccount:01a21ba9-0000-7000-8000-000000000000"
	restrictions := func(allowed []string, ruled ...string) map[string]any {
		var rules []any
		for _, id := range ruled {
			rules = append(rules, map[string]any{"accountId": id, "executionMode": "APPROVAL_REQUIRED"})
		}
		return map[string]any{"allowedAccountIds": allowed, "accountRules": rules}
	}
	for name, bad := range map[string]string{"another customer's": other, "missing": missing} {
		t.Run(name, func(t *testing.T) {
			r := s.do("POST", "/agents", map[string]any{"name": "bot", "customerId": cust,
				"policy": policy(1000, 5000, set("accountRestrictions", restrictions([]string{own, bad}, bad)))})
			requireError(t, r, 400, payments.CodeInvalidInput, "policy.accountRestrictions.allowedAccountIds.1", "policy.accountRestrictions.accountRules.0.accountId")
		})
	}
	agentID, _ := s.agent(cust, policy(1000, 5000, set("accountRestrictions", restrictions([]string{own, own2}, own2))))
	for name, bad := range map[string]string{"another customer's": other, "missing": missing} {
		t.Run("update/"+name, func(t *testing.T) {
			r := s.do("PATCH", "/agents/"+agentID+"/policy", map[string]any{"accountRestrictions": restrictions([]string{bad}, own, bad)})
			requireError(t, r, 400, payments.CodeInvalidInput, "accountRestrictions.allowedAccountIds.0", "accountRestrictions.accountRules.1.accountId")
			got := s.do("GET", "/agents/"+agentID, nil).Body["policy"].(map[string]any)["accountRestrictions"].(map[string]any)
			assert.Equal(t, []any{own, own2}, got["allowedAccountIds"], "unchanged")
		})
	}
	r := s.do("PATCH", "/agents/"+agentID+"/policy", map[string]any{"accountRestrictions": restrictions([]string{own2}, own)})
	require.Equal(t, 200, r.Status, "%s", r.Raw)
}

// An approval that ends FAILED (the daily limit passed since the action
// was recorded) is the approval's answer: repeated with its
// Idempotency-Key it replays FAILED, not "not pending".
func TestAgents_FailedApprovalReplays(t *testing.T) {
	s := moneyServer(t)
	pol := policy(1000, 1000, set("approvalThresholds", map[string]any{"currency": "USD", "amount": 800}))
	_, acct, ext, agentID, token := moneyAgent(t, s, 10_000, pol)
	pend := s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 900))
	require.Equal(t, "PENDING_APPROVAL", pend.Body["status"], "%s", pend.Raw)
	require.Equal(t, "APPROVED", s.as(token, "POST", "/agents/me/transfer-out", transferBody(acct, ext, 700)).Body["status"])
	path := "/agents/" + agentID + "/actions/" + pend.Body["id"].(string) + "/approve"
	first := s.do("POST", path, nil, "Idempotency-Key", "approve-1")
	require.Equal(t, 200, first.Status, "%s", first.Raw)
	require.Equal(t, "FAILED", first.Body["status"])
	again := s.do("POST", path, nil, "Idempotency-Key", "approve-1")
	require.Equal(t, 200, again.Status, "%s", again.Raw)
	assert.Equal(t, first.Body, again.Body)
	assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
}
