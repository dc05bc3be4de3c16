package agents_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/validate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func n(v int64) *int64 { return &v }

func base() agents.Policy {
	return agents.Policy{Permissions: []agents.Permission{agents.CreateTransfers}, DefaultExecutionMode: agents.Auto,
		SpendingLimits: agents.SpendingLimits{Currency: "USD", PerTransactionLimit: 1000, DailyLimit: n(3000), DailyTransactionLimit: n(3), MonthlyLimit: n(10_000)},
		AccountRestrictions: &agents.AccountRestrictions{AllowedAccountIDs: []string{"A", "B", "C"}, AccountRules: []agents.AccountRule{
			{AccountID: "B", ExecutionMode: agents.ApprovalRequired},
			{AccountID: "C", PerTransactionLimit: n(200)},
		}},
		ApprovalThresholds: &agents.ApprovalThresholds{Currency: "USD", Amount: n(800)}}
}

// TestEvaluate: each limit, rule and mode at its boundary.
func TestEvaluate(t *testing.T) {
	used := agents.Usage{DailySpend: 2000, DailyTransactionCount: 2, MonthlySpend: 9000}
	for _, tc := range []struct {
		name     string
		mutate   func(*agents.Policy)
		usage    agents.Usage
		spend    agents.Spend
		refused  agents.Refusal
		approval bool
	}{
		{"within everything", nil, agents.Usage{}, agents.Spend{Amount: 500, ThresholdAmount: 500, AccountID: "A", AccountAmount: 500}, "", false},
		{"per-transaction at the limit", nil, agents.Usage{}, agents.Spend{Amount: 1000, ThresholdAmount: 700, AccountID: "A", AccountAmount: 1000}, "", false},
		{"per-transaction one over", nil, agents.Usage{}, agents.Spend{Amount: 1001, AccountID: "A"}, agents.PerTransactionExceeded, false},
		{"account not allowed", nil, agents.Usage{}, agents.Spend{Amount: 1, AccountID: "Z"}, agents.AccountNotAllowed, false},
		{"no restrictions allow any account", func(p *agents.Policy) { p.AccountRestrictions = nil }, agents.Usage{}, agents.Spend{Amount: 1, AccountID: "Z"}, "", false},
		{"null allowed list allows any account", func(p *agents.Policy) { p.AccountRestrictions.AllowedAccountIDs = nil }, agents.Usage{}, agents.Spend{Amount: 1, AccountID: "Z"}, "", false},
		{"account limit at the limit", nil, agents.Usage{}, agents.Spend{Amount: 200, AccountID: "C", AccountAmount: 200}, "", false},
		{"account limit one over", nil, agents.Usage{}, agents.Spend{Amount: 201, AccountID: "C", AccountAmount: 201}, agents.AccountLimitExceeded, false},
		{"daily at the limit", nil, used, agents.Spend{Amount: 1000, AccountID: "A"}, "", false},
		{"daily one over", nil, used, agents.Spend{Amount: 1001, AccountID: "A"}, agents.PerTransactionExceeded, false},
		{"daily one over the day", func(p *agents.Policy) { p.SpendingLimits.PerTransactionLimit = 5000 }, used, agents.Spend{Amount: 1001, AccountID: "A"}, agents.DailyLimitExceeded, false},
		{"daily count reached", nil, agents.Usage{DailyTransactionCount: 3}, agents.Spend{Amount: 1, AccountID: "A"}, agents.DailyCountLimitExceeded, false},
		{"daily count last one", nil, agents.Usage{DailyTransactionCount: 2}, agents.Spend{Amount: 1, AccountID: "A"}, "", false},
		{"monthly at the limit", func(p *agents.Policy) { p.SpendingLimits.DailyLimit = nil }, agents.Usage{MonthlySpend: 9000}, agents.Spend{Amount: 1000, AccountID: "A"}, "", false},
		{"monthly one over", func(p *agents.Policy) { p.SpendingLimits.DailyLimit = nil }, agents.Usage{MonthlySpend: 9001}, agents.Spend{Amount: 1000, AccountID: "A"}, agents.MonthlyLimitExceeded, false},
		{"threshold at the amount", nil, agents.Usage{}, agents.Spend{Amount: 800, ThresholdAmount: 800, AccountID: "A"}, "", false},
		{"threshold one over", nil, agents.Usage{}, agents.Spend{Amount: 801, ThresholdAmount: 801, AccountID: "A"}, "", true},
		{"account rule requires approval", nil, agents.Usage{}, agents.Spend{Amount: 1, AccountID: "B"}, "", true},
		{"default mode requires approval", func(p *agents.Policy) { p.DefaultExecutionMode = agents.ApprovalRequired }, agents.Usage{}, agents.Spend{Amount: 1, AccountID: "A"}, "", true},
		{"a hard limit wins over approval", nil, agents.Usage{}, agents.Spend{Amount: 1001, ThresholdAmount: 1001, AccountID: "B"}, agents.PerTransactionExceeded, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := base()
			if tc.mutate != nil {
				tc.mutate(&p)
			}
			d := agents.Evaluate(&p, tc.usage, tc.spend)
			assert.Equal(t, tc.refused, d.Refused, d.Message)
			assert.Equal(t, tc.approval, d.NeedsApproval)
			if d.Refused == "" {
				assert.Equal(t, tc.usage.DailySpend+tc.spend.Amount, d.Usage.DailySpend)
				assert.Equal(t, tc.usage.DailyTransactionCount+1, d.Usage.DailyTransactionCount)
			} else {
				assert.Equal(t, tc.usage, d.Usage, "a refusal counts nothing")
			}
		})
	}
}

func TestRoll(t *testing.T) {
	u := agents.Roll(agents.Usage{}, time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC))
	assert.Equal(t, "2027-01-01", u.DailyResetDate)
	assert.Equal(t, "2027-01", u.MonthlyResetMonth)
	u.DailySpend, u.MonthlySpend, u.DailyTransactionCount = 5, 7, 1
	assert.Equal(t, u, agents.Roll(u, time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC)), "same day: nothing resets")
	next := agents.Roll(u, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC))
	assert.Zero(t, next.DailySpend+next.MonthlySpend+next.DailyTransactionCount)
	mid := agents.Roll(agents.Roll(agents.Usage{}, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)), time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC))
	assert.Equal(t, "2027-02", mid.MonthlyResetMonth)
}

func TestCheckPolicy_ListsEveryField(t *testing.T) {
	var fe validate.Errors
	agents.CheckPolicy(&fe, "policy", &agents.Policy{Permissions: []agents.Permission{"X", agents.CreateQuotes, agents.CreateQuotes},
		SpendingLimits:      agents.SpendingLimits{Currency: "", PerTransactionLimit: 0, MonthlyLimit: n(-1)},
		AccountRestrictions: &agents.AccountRestrictions{AllowedAccountIDs: []string{""}, AccountRules: []agents.AccountRule{{AccountID: "A", PerTransactionLimit: n(0)}, {AccountID: "A"}}},
		ApprovalThresholds:  &agents.ApprovalThresholds{Amount: n(5)}})
	var got []string
	for _, f := range fe {
		got = append(got, f.Field)
	}
	assert.ElementsMatch(t, []string{"policy.permissions.0", "policy.permissions.2", "policy.defaultExecutionMode", "policy.spendingLimits.currency",
		"policy.spendingLimits.perTransactionLimit", "policy.spendingLimits.monthlyLimit", "policy.accountRestrictions.allowedAccountIds.0",
		"policy.accountRestrictions.accountRules.0.perTransactionLimit", "policy.accountRestrictions.accountRules.1.accountId",
		"policy.approvalThresholds.currency"}, got)
}

func TestApply_PartialUpdate(t *testing.T) {
	p := base()
	perms := []agents.Permission{agents.ViewTransactions}
	eur := "EUR"
	out, err := agents.Apply(p, agents.PolicyUpdate{Permissions: &perms, SpendingLimits: &agents.SpendingLimitsUpdate{
		Currency: &eur, DailyLimit: agents.Nullable{Set: true}}}, "", func(v int64) (int64, error) { return v * 9 / 10, nil })
	require.NoError(t, err)
	assert.Equal(t, perms, out.Permissions)
	assert.Equal(t, "EUR", out.SpendingLimits.Currency)
	assert.EqualValues(t, 900, out.SpendingLimits.PerTransactionLimit, "recast")
	assert.Nil(t, out.SpendingLimits.DailyLimit, "null removes")
	assert.EqualValues(t, 9000, *out.SpendingLimits.MonthlyLimit, "recast")
	assert.Equal(t, p.AccountRestrictions, out.AccountRestrictions, "omitted members keep their value")
	assert.Equal(t, []agents.Permission{agents.CreateTransfers}, p.Permissions, "the input is not changed")
}

func TestDeviceCodeStates(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := agents.DeviceCode{Code: agents.FormatCode([12]byte{1, 2, 3}), ExpiresAt: now.Add(agents.DeviceCodeTTL)}
	assert.Regexp(t, `^SERVICE-AGENT-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$`, c.Code)
	assert.Equal(t, agents.Redeemable, c.State(now))
	assert.Equal(t, agents.Expired, c.State(c.ExpiresAt))
	c.Replaced = true
	assert.Equal(t, agents.Replaced, c.State(now))
	c.Redeemed = true
	assert.Equal(t, agents.Redeemed, c.State(now))
	tok := agents.FormatToken([20]byte{9})
	h := agents.HashToken(tok)
	assert.True(t, agents.TokenMatches(tok, h))
	assert.False(t, agents.TokenMatches(tok+"x", h))
	assert.False(t, agents.TokenMatches(tok, ""))
}
