package agents_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// movingRates are the sandbox's rates; once armed, the next rate asked for
// runs move first: a change of the agent's policy that lands between an
// operation's conversion of its amount and its transaction.
type movingRates struct {
	sandbox.Rates
	mu    sync.Mutex
	move  func()
	asked []string
}

// Rate runs the armed move, notes the pair and answers the sandbox's rate.
func (m *movingRates) Rate(ctx context.Context, from, to string) (money.Rate, error) {
	m.mu.Lock()
	move := m.move
	m.move = nil
	m.asked = append(m.asked, from+">"+to)
	m.mu.Unlock()
	if move != nil {
		move()
	}
	return m.Rates.Rate(ctx, from, to)
}

// arm makes the next rate asked for run move, and forgets the pairs asked.
func (m *movingRates) arm(move func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.move, m.asked = move, nil
}

// TestAgents_PolicyMovedDecidesAgain: an agent's policy currency that
// changes after an operation converted its amount (and before its
// transaction decides) sends the operation round again: it converts into
// the new currency and decides, once, as the same call. Each of the five
// operations that convert is moved once: the spends by the quote the
// quotes area creates (a transfer out and its approval) and in the
// operation's own transaction (execute, transfer in, approving an
// execution), and a policy update whose recast the move outdated.
func TestAgents_PolicyMovedDecidesAgain(t *testing.T) {
	setup := func(t *testing.T, mode agents.ExecutionMode) (*enginetest.Env, *movingRates, string, string, *payments.Agent) {
		rates := &movingRates{}
		e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Rates = rates })
		pol := enginetest.AutoPolicy(1000, nil)
		pol.SpendingLimits.Currency = "EUR"
		pol.DefaultExecutionMode = mode
		acct, ext, agent := agentEnv(t, e, 100_000, pol)
		return e, rates, acct, ext, agent
	}
	toGBP := func(t *testing.T, e *enginetest.Env, agentID string) func() {
		return func() {
			gbp := "GBP"
			_, err := e.Eng.Agents.UpdatePolicy(ctx, agentID, agents.PolicyUpdate{SpendingLimits: &agents.SpendingLimitsUpdate{Currency: &gbp}})
			require.NoError(t, err)
		}
	}
	spentInGBP := func(t *testing.T, e *enginetest.Env, agentID string) {
		me, err := e.Eng.Agents.Me(ctx, agentID)
		require.NoError(t, err)
		assert.Equal(t, "GBP", me.Policy.SpendingLimits.Currency)
		assert.Positive(t, me.Usage.DailySpend)
		assert.EqualValues(t, 1, me.Usage.DailyTransactionCount)
		require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
	}
	transfer := func(acct, ext string) payments.AgentTransfer {
		return payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext, Amount: 500}
	}

	t.Run("transfer out", func(t *testing.T) {
		e, rates, acct, ext, agent := setup(t, agents.Auto)
		rates.arm(toGBP(t, e, agent.ID))
		a, err := e.Eng.Agents.TransferOut(ctx, agent.ID, transfer(acct, ext))
		require.NoError(t, err)
		assert.Equal(t, agents.Approved, a.Status)
		assert.Equal(t, []string{"USD>EUR", "EUR>GBP", "USD>GBP"}, rates.asked, "converted again into the new currency")
		spentInGBP(t, e, agent.ID)
	})
	t.Run("transfer in", func(t *testing.T) {
		e, rates, acct, ext, agent := setup(t, agents.Auto)
		rates.arm(toGBP(t, e, agent.ID))
		a, err := e.Eng.Agents.TransferIn(ctx, agent.ID, transfer(ext, acct))
		require.NoError(t, err)
		assert.Equal(t, agents.Approved, a.Status)
		assert.Equal(t, []string{"USD>EUR", "EUR>GBP", "USD>GBP"}, rates.asked)
		spentInGBP(t, e, agent.ID)
	})
	t.Run("execute", func(t *testing.T) {
		e, rates, acct, ext, agent := setup(t, agents.Auto)
		q, err := e.Eng.Agents.CreateQuote(ctx, agent.ID, enginetest.Transfer(acct, ext, 500, false))
		require.NoError(t, err)
		rates.arm(toGBP(t, e, agent.ID))
		a, err := e.Eng.Agents.ExecuteQuote(ctx, agent.ID, q.ID)
		require.NoError(t, err)
		assert.Equal(t, agents.Approved, a.Status)
		assert.Equal(t, []string{"USD>EUR", "EUR>GBP", "USD>GBP"}, rates.asked)
		spentInGBP(t, e, agent.ID)
	})
	for _, typ := range []agents.ActionType{agents.TransferOut, agents.ExecuteQuote} {
		t.Run("approve "+string(typ), func(t *testing.T) {
			e, rates, acct, ext, agent := setup(t, agents.ApprovalRequired)
			var pending *payments.AgentAction
			var err error
			if typ == agents.TransferOut {
				pending, err = e.Eng.Agents.TransferOut(ctx, agent.ID, transfer(acct, ext))
			} else {
				var q *payments.Quote
				q, err = e.Eng.Agents.CreateQuote(ctx, agent.ID, enginetest.Transfer(acct, ext, 500, false))
				require.NoError(t, err)
				pending, err = e.Eng.Agents.ExecuteQuote(ctx, agent.ID, q.ID)
			}
			require.NoError(t, err)
			require.Equal(t, agents.PendingApproval, pending.Status)
			// A policy in CHF since, so that the approval asks for a rate.
			chf := "CHF"
			_, err = e.Eng.Agents.UpdatePolicy(ctx, agent.ID, agents.PolicyUpdate{SpendingLimits: &agents.SpendingLimitsUpdate{Currency: &chf}})
			require.NoError(t, err)
			rates.arm(toGBP(t, e, agent.ID))
			a, err := e.Eng.Agents.Approve(ctx, agent.ID, pending.ID)
			require.NoError(t, err)
			assert.Equal(t, agents.Approved, a.Status)
			assert.Equal(t, []string{"USD>CHF", "CHF>GBP", "USD>GBP"}, rates.asked)
			spentInGBP(t, e, agent.ID)
		})
	}
	t.Run("update policy", func(t *testing.T) {
		e, rates, _, _, agent := setup(t, agents.Auto)
		rates.arm(func() {
			jpy := "JPY"
			_, err := e.Eng.Agents.UpdatePolicy(ctx, agent.ID, agents.PolicyUpdate{SpendingLimits: &agents.SpendingLimitsUpdate{Currency: &jpy}})
			require.NoError(t, err)
		})
		gbp := "GBP"
		a, err := e.Eng.Agents.UpdatePolicy(ctx, agent.ID, agents.PolicyUpdate{SpendingLimits: &agents.SpendingLimitsUpdate{Currency: &gbp}})
		require.NoError(t, err)
		assert.Equal(t, "GBP", a.Policy.SpendingLimits.Currency)
		assert.Equal(t, []string{"EUR>GBP", "EUR>JPY", "JPY>GBP"}, rates.asked, "recast from the currency the move left")
	})
}

// TestAgents_ApprovalReplaysUnderItsFingerprint: on an engine handle with an
// idempotency key and no request bytes, an approval is fingerprinted by
// what it approves (the transfer out's quote, or the action), whichever
// way it ended: a repeat replays the approved transfer out and the FAILED
// execution, instead of finding the action no longer pending.
func TestAgents_ApprovalReplaysUnderItsFingerprint(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	pol := enginetest.AutoPolicy(1000, nil)
	pol.DefaultExecutionMode = agents.ApprovalRequired
	acct, ext, agent := agentEnv(t, e, 100_000, pol)
	keyed := func(key string) *payments.Engine {
		k, err := e.Eng.WithIdempotency(engine.Idempotency{Scope: "test", Key: key})
		require.NoError(t, err)
		return k
	}

	out, err := e.Eng.Agents.TransferOut(ctx, agent.ID, payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext, Amount: 500})
	require.NoError(t, err)
	require.Equal(t, agents.PendingApproval, out.Status)
	first, err := keyed("approve-out").Agents.Approve(ctx, agent.ID, out.ID)
	require.NoError(t, err)
	require.Equal(t, agents.Approved, first.Status)
	k := keyed("approve-out")
	again, err := k.Agents.Approve(ctx, agent.ID, out.ID)
	require.NoError(t, err)
	assert.True(t, k.Replayed())
	assert.Equal(t, first.ID, again.ID)
	assert.Equal(t, agents.Approved, again.Status)

	q, err := e.Eng.Agents.CreateQuote(ctx, agent.ID, enginetest.Transfer(acct, ext, 500, false))
	require.NoError(t, err)
	exec, err := e.Eng.Agents.ExecuteQuote(ctx, agent.ID, q.ID)
	require.NoError(t, err)
	require.Equal(t, agents.PendingApproval, exec.Status)
	e.Clock.Advance(time.Hour) // the quote lapses: the approval ends FAILED
	failed, err := keyed("approve-exec").Agents.Approve(ctx, agent.ID, exec.ID)
	require.NoError(t, err)
	require.Equal(t, agents.Failed, failed.Status)
	k = keyed("approve-exec")
	again, err = k.Agents.Approve(ctx, agent.ID, exec.ID)
	require.NoError(t, err)
	assert.True(t, k.Replayed())
	assert.Equal(t, agents.Failed, again.Status)
}
