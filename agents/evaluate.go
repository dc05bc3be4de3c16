package agents

import (
	"fmt"
	"time"
)

// Usage counts an agent's spending against its limits (reference
// AgentUsage). DailyResetDate is the first day the daily counters no longer
// cover (YYYY-MM-DD), MonthlyResetMonth the first month the monthly counter
// no longer covers (YYYY-MM), both on the engine clock in UTC.
type Usage struct {
	DailyTransactionCount int64  `json:"dailyTransactionCount"`
	DailySpend            int64  `json:"dailySpend"`
	DailyResetDate        string `json:"dailyResetDate,omitempty"`
	MonthlySpend          int64  `json:"monthlySpend"`
	MonthlyResetMonth     string `json:"monthlyResetMonth,omitempty"`
}

// Roll returns u as of now: the daily counters start again once now reaches
// DailyResetDate, the monthly one once now reaches MonthlyResetMonth, and
// the reset marks name the next day and month after now.
func Roll(u Usage, now time.Time) Usage {
	now = now.UTC()
	today := now.Format(time.DateOnly)
	month := now.Format("2006-01")
	if u.DailyResetDate == "" || today >= u.DailyResetDate {
		u.DailyTransactionCount, u.DailySpend = 0, 0
	}
	if u.MonthlyResetMonth == "" || month >= u.MonthlyResetMonth {
		u.MonthlySpend = 0
	}
	y, m, d := now.Date()
	u.DailyResetDate = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	u.MonthlyResetMonth = time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
	return u
}

// Spend is one action as the policy sees it: Amount in the spending limits'
// currency, ThresholdAmount in the approval thresholds' currency, and
// AccountAmount in the currency of AccountID, the customer's internal
// account the action uses (the one account rules and restrictions name).
// The conversions are the caller's, made before the transaction (rates are
// the outside world); Evaluate compares integers only.
type Spend struct {
	Amount          int64
	ThresholdAmount int64
	AccountID       string
	AccountAmount   int64
}

// Refusal names the hard limit an action broke.
type Refusal string

// Refusals, as reported in a FORBIDDEN error's details.reason. The first
// six are Evaluate's, in the order it checks them; the last two are
// refused before any evaluation, when the agent is read.
const (
	// AccountNotAllowed refuses an account outside the policy's
	// allowedAccountIds.
	AccountNotAllowed Refusal = "ACCOUNT_NOT_ALLOWED"
	// PerTransactionExceeded refuses an amount above the spending
	// limits' perTransactionLimit.
	PerTransactionExceeded Refusal = "PER_TRANSACTION_LIMIT_EXCEEDED"
	// AccountLimitExceeded refuses an amount, in the account's currency,
	// above its account rule's perTransactionLimit.
	AccountLimitExceeded Refusal = "ACCOUNT_PER_TRANSACTION_LIMIT_EXCEEDED"
	// DailyLimitExceeded refuses a spend that would take today's past
	// dailyLimit.
	DailyLimitExceeded Refusal = "DAILY_LIMIT_EXCEEDED"
	// DailyCountLimitExceeded refuses an action past today's
	// dailyTransactionLimit.
	DailyCountLimitExceeded Refusal = "DAILY_TRANSACTION_LIMIT_EXCEEDED"
	// MonthlyLimitExceeded refuses a spend that would take this month's
	// past monthlyLimit.
	MonthlyLimitExceeded Refusal = "MONTHLY_LIMIT_EXCEEDED"
	// PermissionMissing refuses an operation whose Permission the policy
	// lacks.
	PermissionMissing Refusal = "PERMISSION_MISSING"
	// AgentPaused refuses every call of an agent the platform paused
	// (AgentUpdate.IsPaused).
	AgentPaused Refusal = "AGENT_PAUSED"
)

// Decision is the outcome of Evaluate: Refused names a broken hard limit
// (with Message); otherwise NeedsApproval says whether the action waits for
// the platform, and Usage is the usage once the action runs.
type Decision struct {
	Refused       Refusal
	Message       string
	NeedsApproval bool
	Usage         Usage
}

// Evaluate decides an action s of an agent with policy p and usage u (already
// rolled to now): the hard limits first (account allowed, per-transaction,
// per-account, daily amount, daily count, monthly amount: the limit itself is
// allowed, one unit over is not), then whether it needs approval (default
// mode, the account's rule, or an amount strictly above the threshold).
func Evaluate(p *Policy, u Usage, s Spend) Decision {
	refuse := func(r Refusal, format string, args ...any) Decision {
		return Decision{Refused: r, Message: fmt.Sprintf(format, args...), Usage: u}
	}
	l := p.SpendingLimits
	if s.AccountID != "" && !p.Allows(s.AccountID) {
		return refuse(AccountNotAllowed, "the agent's policy does not allow account %s", s.AccountID)
	}
	if s.Amount > l.PerTransactionLimit {
		return refuse(PerTransactionExceeded, "%d %s is above the agent's per-transaction limit of %d", s.Amount, l.Currency, l.PerTransactionLimit)
	}
	rule := p.Rule(s.AccountID)
	if rule != nil && rule.PerTransactionLimit != nil && s.AccountAmount > *rule.PerTransactionLimit {
		return refuse(AccountLimitExceeded, "%d is above the per-transaction limit of %d for account %s", s.AccountAmount, *rule.PerTransactionLimit, s.AccountID)
	}
	if l.DailyLimit != nil && u.DailySpend+s.Amount > *l.DailyLimit {
		return refuse(DailyLimitExceeded, "%d %s would take today's spend to %d, above the daily limit of %d", s.Amount, l.Currency, u.DailySpend+s.Amount, *l.DailyLimit)
	}
	if l.DailyTransactionLimit != nil && u.DailyTransactionCount+1 > *l.DailyTransactionLimit {
		return refuse(DailyCountLimitExceeded, "the agent reached its limit of %d transactions today", *l.DailyTransactionLimit)
	}
	if l.MonthlyLimit != nil && u.MonthlySpend+s.Amount > *l.MonthlyLimit {
		return refuse(MonthlyLimitExceeded, "%d %s would take this month's spend to %d, above the monthly limit of %d", s.Amount, l.Currency, u.MonthlySpend+s.Amount, *l.MonthlyLimit)
	}
	// The default mode, the account's rule, or an amount
	// strictly above the threshold each force approval.
	// Usage is what it becomes once the action runs; the caller writes it
	// only for an action that runs now. One that waits for approval is
	// evaluated and counted again when the platform approves it.
	approval := p.DefaultExecutionMode == ApprovalRequired || rule != nil && rule.ExecutionMode == ApprovalRequired
	if t := p.ApprovalThresholds; t != nil && t.Amount != nil && s.ThresholdAmount > *t.Amount {
		approval = true
	}
	next := u
	next.DailySpend += s.Amount
	next.DailyTransactionCount++
	next.MonthlySpend += s.Amount
	return Decision{NeedsApproval: approval, Usage: next}
}
