package agents_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func limit(n int64) *int64 { return &n }

// agentEnv creates a customer with a funded USD account, an external USD
// account and a connected agent with pol; it returns the account ids and
// the agent.
func agentEnv(t *testing.T, e *enginetest.Env, funds int64, pol agents.Policy) (acct, ext string, agent *payments.Agent) {
	t.Helper()
	acct = e.USDAccount(t, "Ann Agent")
	if funds > 0 {
		_, err := e.Eng.Sandbox.Fund(ctx, acct, funds)
		require.NoError(t, err)
	}
	ia, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "444555001", "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Ann Agent"}})
	x, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: ia.CustomerID, Currency: "USD", AccountInfo: info}, payments.CustomerScope)
	require.NoError(t, err)
	created, err := e.Eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: ia.CustomerID, Policy: &pol})
	require.NoError(t, err)
	_, err = e.Eng.Agents.Redeem(ctx, created.DeviceCode.Code)
	require.NoError(t, err)
	return acct, x.ID, &created.Agent
}

// TestAgents_ConcurrentExecutesKeepTheDailyLimit: 64 agent executes at once
// against a daily limit that covers 25 of them: exactly 25 run, the others
// are FORBIDDEN, and the spend equals the money moved.
func TestAgents_ConcurrentExecutesKeepTheDailyLimit(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			const funds = 1_000_000
			acct, ext, agent := agentEnv(t, e, funds, enginetest.AutoPolicy(1000, limit(2500)))
			var ids []string
			var each int64
			for range 64 {
				q, err := e.Eng.Agents.CreateQuote(ctx, agent.ID, enginetest.Transfer(acct, ext, 100, false))
				require.NoError(t, err)
				ids, each = append(ids, q.ID), q.TotalSendingAmount
			}
			require.EqualValues(t, 100, each)
			next := make(chan string, len(ids))
			for _, id := range ids {
				next <- id
			}
			codes := enginetest.Concurrently(64, func() error {
				a, err := e.Eng.Agents.ExecuteQuote(ctx, agent.ID, <-next)
				if err == nil && a.Status != agents.Approved {
					t.Errorf("status %s", a.Status)
				}
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 25, payments.CodeForbidden: 39}, codes)
			me, err := e.Eng.Agents.Me(ctx, agent.ID)
			require.NoError(t, err)
			assert.EqualValues(t, 2500, me.Usage.DailySpend)
			assert.EqualValues(t, 25, me.Usage.DailyTransactionCount)
			a, err := e.Eng.Accounts.Internal(ctx, acct)
			require.NoError(t, err)
			assert.EqualValues(t, funds-2500, a.TotalBalance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}
}

// TestAgents_ConcurrentTransfersKeepTheDailyCount: 64 transfer-outs at once
// against a daily count of 10.
func TestAgents_ConcurrentTransfersKeepTheDailyCount(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			pol := enginetest.AutoPolicy(1000, nil)
			pol.SpendingLimits.DailyTransactionLimit = limit(10)
			acct, ext, agent := agentEnv(t, e, 100_000, pol)
			codes := enginetest.Concurrently(64, func() error {
				_, err := e.Eng.Agents.TransferOut(ctx, agent.ID, payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext, Amount: 7})
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 10, payments.CodeForbidden: 54}, codes)
			a, err := e.Eng.Accounts.Internal(ctx, acct)
			require.NoError(t, err)
			assert.EqualValues(t, 100_000-70, a.TotalBalance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}
}

// TestAgents_UsageRollsOverOnTheClock: the daily counters reset at the
// day's end and the monthly one at the month's, on the engine clock.
func TestAgents_UsageRollsOverOnTheClock(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	e.Clock.Set(time.Date(2026, 1, 31, 23, 0, 0, 0, time.UTC))
	pol := enginetest.AutoPolicy(1000, limit(1000))
	pol.SpendingLimits.MonthlyLimit = limit(1500)
	acct, ext, agent := agentEnv(t, e, 100_000, pol)
	out := func(n int64) error {
		_, err := e.Eng.Agents.TransferOut(ctx, agent.ID, payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext, Amount: n})
		return err
	}
	require.NoError(t, out(1000))
	enginetest.RequireCode(t, out(1), payments.CodeForbidden)
	me, err := e.Eng.Agents.Me(ctx, agent.ID)
	require.NoError(t, err)
	assert.Equal(t, agents.Usage{DailyTransactionCount: 1, DailySpend: 1000, DailyResetDate: "2026-02-01", MonthlySpend: 1000, MonthlyResetMonth: "2026-02"}, me.Usage)

	e.Clock.Set(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)) // a new day and month
	me, err = e.Eng.Agents.Me(ctx, agent.ID)
	require.NoError(t, err)
	assert.Equal(t, agents.Usage{DailyResetDate: "2026-02-02", MonthlyResetMonth: "2026-03"}, me.Usage)
	require.NoError(t, out(1000))

	e.Clock.Set(time.Date(2026, 2, 2, 12, 0, 0, 0, time.UTC))   // a new day, same month
	enginetest.RequireCode(t, out(501), payments.CodeForbidden) // 1000 + 501 > the monthly 1500
	require.NoError(t, out(500))
	me, err = e.Eng.Agents.Me(ctx, agent.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 500, me.Usage.DailySpend)
	assert.EqualValues(t, 1500, me.Usage.MonthlySpend)
	require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
}

// TestAgents_PolicyCurrencyConversion: a limit in EUR is compared with a
// USD transfer converted at the engine's rate.
func TestAgents_PolicyCurrencyConversion(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	pol := enginetest.AutoPolicy(1000, nil)
	pol.SpendingLimits.Currency = "EUR"
	acct, ext, agent := agentEnv(t, e, 100_000, pol)
	_, err := e.Eng.Agents.TransferOut(ctx, agent.ID, payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext, Amount: 500})
	require.NoError(t, err)
	me, err := e.Eng.Agents.Me(ctx, agent.ID)
	require.NoError(t, err)
	assert.NotEqualValues(t, 500, me.Usage.DailySpend, "counted in EUR")
	assert.Positive(t, me.Usage.DailySpend)
}

// TestAgents_PolicyAccountsMustBeTheCustomers: allowedAccountIds and
// accountRules name accounts of the agent's customer; another customer's
// account or a missing one is INVALID_INPUT naming the field, on create and
// on a policy update (which then changes nothing).
func TestAgents_PolicyAccountsMustBeTheCustomers(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	in := enginetest.FullIndividual("Ann Agent")
	in.Currencies = []string{"USD", "EUR"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	own, own2 := page.Data[0].ID, page.Data[1].ID
	ownExt := e.ExternalUSD(t, c.ID, "000")
	other := e.USDAccount(t, "Bob Other")
	ia, err := e.Eng.Accounts.Internal(ctx, other)
	require.NoError(t, err)
	otherExt := e.ExternalUSD(t, ia.CustomerID, "000")
	const missing = "InternalAccount:01a21ba9-0000-7000-8000-000000000000"

	restricted := func(allowed []string, ruled ...string) *agents.Policy {
		p := enginetest.AutoPolicy(1000, nil)
		p.AccountRestrictions = &agents.AccountRestrictions{AllowedAccountIDs: allowed}
		for _, id := range ruled {
			p.AccountRestrictions.AccountRules = append(p.AccountRestrictions.AccountRules, agents.AccountRule{AccountID: id, ExecutionMode: agents.ApprovalRequired})
		}
		return &p
	}
	for name, bad := range map[string][]string{"another customer's": {other, otherExt}, "missing": {missing, "ExternalAccount:nope"}} {
		t.Run(name, func(t *testing.T) {
			_, err := e.Eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: c.ID, Policy: restricted([]string{own, bad[0]}, own, bad[1])})
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "policy.accountRestrictions.allowedAccountIds.1", "policy.accountRestrictions.accountRules.1.accountId")
		})
	}
	agent, err := e.Eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: c.ID, Policy: restricted([]string{own, own2}, own2, ownExt)})
	require.NoError(t, err, "the customer's own accounts")

	for name, bad := range map[string][]string{"another customer's": {other, otherExt}, "missing": {missing, "ExternalAccount:nope"}} {
		t.Run("update/"+name, func(t *testing.T) {
			_, err := e.Eng.Agents.UpdatePolicy(ctx, agent.Agent.ID, agents.PolicyUpdate{AccountRestrictions: &agents.AccountRestrictions{
				AllowedAccountIDs: []string{bad[0], own}, AccountRules: []agents.AccountRule{{AccountID: bad[1]}}}})
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "accountRestrictions.allowedAccountIds.0", "accountRestrictions.accountRules.0.accountId")
			got, err := e.Eng.Agents.Get(ctx, agent.Agent.ID)
			require.NoError(t, err)
			assert.Equal(t, []string{own, own2}, got.Policy.AccountRestrictions.AllowedAccountIDs, "unchanged")
		})
	}
	got, err := e.Eng.Agents.UpdatePolicy(ctx, agent.Agent.ID, agents.PolicyUpdate{AccountRestrictions: &agents.AccountRestrictions{
		AllowedAccountIDs: []string{own2}, AccountRules: []agents.AccountRule{{AccountID: own}}}})
	require.NoError(t, err)
	assert.Equal(t, []string{own2}, got.Policy.AccountRestrictions.AllowedAccountIDs)
}
