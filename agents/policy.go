package agents

import (
	"encoding/json"
	"slices"

	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/validate"
)

// Permission is what an agent may do (reference AgentPermission). Each
// /agents/me operation that reads or moves money needs one; a policy
// without it answers FORBIDDEN with details.reason PERMISSION_MISSING. The
// platform's own operations need none.
type Permission string

// Permissions, as the reference names them.
const (
	// ViewTransactions lets the agent read its customer's transactions
	// and internal accounts (which carry balances).
	ViewTransactions Permission = "VIEW_TRANSACTIONS"
	// CreateTransfers lets it move money between its customer's internal
	// and external accounts (TransferOut, TransferIn).
	CreateTransfers Permission = "CREATE_TRANSFERS"
	// CreateQuotes lets it price quotes (CreateQuote).
	CreateQuotes Permission = "CREATE_QUOTES"
	// ExecuteQuotes lets it execute the quotes it created, under the
	// policy's limits (ExecuteQuote).
	ExecuteQuotes Permission = "EXECUTE_QUOTES"
	// ManageExternalAccounts lets it list, add and delete its customer's
	// external accounts.
	ManageExternalAccounts Permission = "MANAGE_EXTERNAL_ACCOUNTS"
)

// Permissions lists every permission, in the reference's order, as the
// strings validate.Errors.Enum takes.
var Permissions = []string{string(ViewTransactions), string(CreateTransfers), string(CreateQuotes), string(ExecuteQuotes), string(ManageExternalAccounts)}

// ExecutionMode says whether an agent's actions run at once (AUTO) or wait
// for the platform's approval (APPROVAL_REQUIRED).
type ExecutionMode string

// Execution modes.
const (
	// Auto runs an action at once when it passes the hard limits (unless
	// an account rule or the approval threshold asks for approval).
	Auto ExecutionMode = "AUTO"
	// ApprovalRequired records every action PENDING_APPROVAL until the
	// platform approves or rejects it.
	ApprovalRequired ExecutionMode = "APPROVAL_REQUIRED"
)

// SpendingLimits cap an agent's amounts and counts, in Currency's minor
// units. A nil limit is none. PerTransactionLimit is required (at least
// 1); the daily and monthly amounts are counted in Usage, on the engine
// clock in UTC. DailyTransactionLimit counts actions, not money, so a
// change of Currency leaves it as it is.
type SpendingLimits struct {
	Currency              string `json:"currency"`
	PerTransactionLimit   int64  `json:"perTransactionLimit"`
	DailyLimit            *int64 `json:"dailyLimit"`
	DailyTransactionLimit *int64 `json:"dailyTransactionLimit,omitempty"`
	MonthlyLimit          *int64 `json:"monthlyLimit"`
}

// AccountRule overrides the policy for one internal account. A nil
// PerTransactionLimit inherits the spending limits'; it is in the account's
// currency.
type AccountRule struct {
	AccountID           string        `json:"accountId"`
	ExecutionMode       ExecutionMode `json:"executionMode,omitempty"`
	PerTransactionLimit *int64        `json:"perTransactionLimit,omitempty"`
}

// AccountRestrictions limit the accounts an agent may use. A nil
// AllowedAccountIDs allows every account of the customer.
type AccountRestrictions struct {
	AllowedAccountIDs []string      `json:"allowedAccountIds"`
	AccountRules      []AccountRule `json:"accountRules,omitempty"`
}

// ApprovalThresholds force approval above Amount (in Currency); a nil Amount
// is no threshold.
type ApprovalThresholds struct {
	Currency string `json:"currency,omitempty"`
	Amount   *int64 `json:"amount"`
}

// Policy governs an agent (reference AgentPolicy). It is stored with the
// agent and read in every action's transaction, so a change applies to the
// next action at once; Evaluate is the one place it is interpreted.
type Policy struct {
	Permissions          []Permission         `json:"permissions"`
	DefaultExecutionMode ExecutionMode        `json:"defaultExecutionMode"`
	SpendingLimits       SpendingLimits       `json:"spendingLimits"`
	AccountRestrictions  *AccountRestrictions `json:"accountRestrictions,omitempty"`
	ApprovalThresholds   *ApprovalThresholds  `json:"approvalThresholds,omitempty"`
}

// Has reports whether the policy grants p.
func (p *Policy) Has(perm Permission) bool { return slices.Contains(p.Permissions, perm) }

// Rule returns the account rule of accountID, or nil.
func (p *Policy) Rule(accountID string) *AccountRule {
	if p.AccountRestrictions == nil {
		return nil
	}
	for i := range p.AccountRestrictions.AccountRules {
		if r := &p.AccountRestrictions.AccountRules[i]; r.AccountID == accountID {
			return r
		}
	}
	return nil
}

// Allows reports whether the restrictions let the agent use accountID.
func (p *Policy) Allows(accountID string) bool {
	r := p.AccountRestrictions
	return r == nil || r.AllowedAccountIDs == nil || slices.Contains(r.AllowedAccountIDs, accountID)
}

// ThresholdCurrency is the currency approval thresholds are compared in:
// the thresholds' own, else the spending limits'.
func (p *Policy) ThresholdCurrency() string {
	if t := p.ApprovalThresholds; t != nil && t.Currency != "" {
		return t.Currency
	}
	return p.SpendingLimits.Currency
}

// MaxLimit bounds every amount limit (money.MaxAmount, the largest amount the API accepts), so that
// a limit plus a day's usage never overflows int64.
const MaxLimit = money.MaxAmount

// CheckPolicy adds an error to fe for every invalid member of p, named under
// prefix as in the request ("policy.spendingLimits.currency", ...).
func CheckPolicy(fe *validate.Errors, prefix string, p *Policy) {
	at := func(f string) string { return validate.Path(prefix, f) }
	if p.Permissions == nil {
		fe.Missing(at("permissions"))
	}
	checkPermissions(fe, at("permissions"), p.Permissions)
	if fe.Required(at("defaultExecutionMode"), string(p.DefaultExecutionMode)) {
		fe.Enum(at("defaultExecutionMode"), string(p.DefaultExecutionMode), string(Auto), string(ApprovalRequired))
	}
	checkLimits(fe, at("spendingLimits"), &p.SpendingLimits, true)
	if r := p.AccountRestrictions; r != nil {
		checkRestrictions(fe, at("accountRestrictions"), r)
	}
	if t := p.ApprovalThresholds; t != nil {
		checkThresholds(fe, at("approvalThresholds"), t)
	}
}

// checkPermissions adds an error for every unknown or repeated permission.
func checkPermissions(fe *validate.Errors, field string, perms []Permission) {
	seen := map[Permission]bool{}
	for i, perm := range perms {
		f := validate.Index(field, i)
		if fe.Enum(f, string(perm), Permissions...) && seen[perm] {
			fe.Add(f, nil, "permission %s is listed twice", perm)
		}
		seen[perm] = true
	}
}

// checkCurrency adds an error for a currency code the money package does
// not know, or for a missing one when required.
func checkCurrency(fe *validate.Errors, field, c string, required bool) {
	if c == "" {
		if required {
			fe.Missing(field)
		}
		return
	}
	if !money.Known(c) {
		fe.Add(field, nil, "%s is not a supported currency code", c)
	}
}

// checkAmount adds an error when the limit v is set and outside
// min..MaxLimit.
func checkAmount(fe *validate.Errors, field string, v *int64, min int64) {
	if v != nil && (*v < min || *v > MaxLimit) {
		fe.Add(field, nil, "%s must be between %d and %d", field, min, MaxLimit)
	}
}

// checkLimits checks spending limits; full checks a whole policy's (the
// currency and the per-transaction limit are required), otherwise only
// the members an update may leave as they were are checked.
func checkLimits(fe *validate.Errors, field string, l *SpendingLimits, full bool) {
	at := func(f string) string { return validate.Path(field, f) }
	checkCurrency(fe, at("currency"), l.Currency, full)
	if full {
		checkAmount(fe, at("perTransactionLimit"), &l.PerTransactionLimit, 1)
	}
	checkAmount(fe, at("dailyLimit"), l.DailyLimit, 0)
	checkAmount(fe, at("dailyTransactionLimit"), l.DailyTransactionLimit, 0)
	checkAmount(fe, at("monthlyLimit"), l.MonthlyLimit, 0)
}

// checkRestrictions checks the shape of account restrictions: ids are
// present and each account has one rule. Whether the accounts are the
// customer's needs the store (checkPolicyAccounts).
func checkRestrictions(fe *validate.Errors, field string, r *AccountRestrictions) {
	for i, id := range r.AllowedAccountIDs {
		fe.Required(validate.Index(validate.Path(field, "allowedAccountIds"), i), id)
	}
	seen := map[string]bool{}
	for i, rule := range r.AccountRules {
		f := validate.Index(validate.Path(field, "accountRules"), i)
		if fe.Required(validate.Path(f, "accountId"), rule.AccountID) && seen[rule.AccountID] {
			fe.Add(validate.Path(f, "accountId"), nil, "account %s has two rules", rule.AccountID)
		}
		seen[rule.AccountID] = true
		fe.Enum(validate.Path(f, "executionMode"), string(rule.ExecutionMode), string(Auto), string(ApprovalRequired))
		checkAmount(fe, validate.Path(f, "perTransactionLimit"), rule.PerTransactionLimit, 1)
	}
}

// checkThresholds checks approval thresholds: an amount needs a known
// currency and must be in 0..MaxLimit; without an amount there is no
// threshold and the currency may be left out.
func checkThresholds(fe *validate.Errors, field string, t *ApprovalThresholds) {
	checkCurrency(fe, validate.Path(field, "currency"), t.Currency, t.Amount != nil)
	checkAmount(fe, validate.Path(field, "amount"), t.Amount, 0)
}

// SpendingLimitsUpdate is a partial update of the spending limits
// (reference AgentSpendingLimitsUpdate): nil members keep their value; a
// nullable limit given as JSON null is removed.
type SpendingLimitsUpdate struct {
	Currency              *string  `json:"currency,omitempty"`
	PerTransactionLimit   *int64   `json:"perTransactionLimit,omitempty"`
	DailyLimit            Nullable `json:"dailyLimit"`
	DailyTransactionLimit *int64   `json:"dailyTransactionLimit,omitempty"`
	MonthlyLimit          Nullable `json:"monthlyLimit"`
}

// Nullable is an optional member that may be null: Set reports it was
// present; a nil Value is null.
type Nullable struct {
	Set   bool
	Value *int64
}

// UnmarshalJSON records that the member was present (null included).
func (n *Nullable) UnmarshalJSON(b []byte) error {
	n.Set = true
	if string(b) == "null" {
		n.Value = nil
		return nil
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}

// MarshalJSON writes the value (null when unset or null).
func (n Nullable) MarshalJSON() ([]byte, error) { return json.Marshal(n.Value) }

// PolicyUpdate is a partial update of a policy (reference
// AgentPolicyUpdateRequest): nil members keep their value; Permissions,
// when given, replaces the list wholesale.
type PolicyUpdate struct {
	Permissions          *[]Permission         `json:"permissions,omitempty"`
	DefaultExecutionMode *ExecutionMode        `json:"defaultExecutionMode,omitempty"`
	SpendingLimits       *SpendingLimitsUpdate `json:"spendingLimits,omitempty"`
	AccountRestrictions  *AccountRestrictions  `json:"accountRestrictions,omitempty"`
	ApprovalThresholds   *ApprovalThresholds   `json:"approvalThresholds,omitempty"`
}

// Recast converts an amount of the old limits currency into the new one
// (rounding down, so a recast limit never grows past its old worth).
type Recast func(amount int64) (int64, error)

// Apply returns p with u applied, or field errors (every invalid member,
// named under prefix). recast converts existing amount limits when u changes
// the spending limits' currency without restating them; nil when it does not.
func Apply(p Policy, u PolicyUpdate, prefix string, recast Recast) (Policy, error) {
	var fe validate.Errors
	at := func(f string) string { return validate.Path(prefix, f) }
	if u.Permissions != nil {
		checkPermissions(&fe, at("permissions"), *u.Permissions)
		p.Permissions = append([]Permission{}, *u.Permissions...)
	}
	if m := u.DefaultExecutionMode; m != nil {
		if fe.Required(at("defaultExecutionMode"), string(*m)) {
			fe.Enum(at("defaultExecutionMode"), string(*m), string(Auto), string(ApprovalRequired))
		}
		p.DefaultExecutionMode = *m
	}
	if s := u.SpendingLimits; s != nil {
		l := &p.SpendingLimits
		field := at("spendingLimits")
		if s.Currency != nil && *s.Currency != l.Currency {
			// A new currency with limits not restated: the old limits are
			// converted (recast), never reinterpreted as the new
			// currency's units. The per-transaction limit stays at least
			// 1, its lower bound.
			checkCurrency(&fe, validate.Path(field, "currency"), *s.Currency, true)
			if recast != nil && len(fe) == 0 {
				for _, v := range []*int64{&l.PerTransactionLimit, l.DailyLimit, l.MonthlyLimit} {
					if v == nil {
						continue
					}
					n, err := recast(*v)
					if err != nil {
						return p, err
					}
					*v = max(n, 0)
				}
				l.PerTransactionLimit = max(l.PerTransactionLimit, 1)
			}
			l.Currency = *s.Currency
		}
		if s.PerTransactionLimit != nil {
			checkAmount(&fe, validate.Path(field, "perTransactionLimit"), s.PerTransactionLimit, 1)
			l.PerTransactionLimit = *s.PerTransactionLimit
		}
		if s.DailyLimit.Set {
			l.DailyLimit = s.DailyLimit.Value
		}
		if s.MonthlyLimit.Set {
			l.MonthlyLimit = s.MonthlyLimit.Value
		}
		if s.DailyTransactionLimit != nil {
			l.DailyTransactionLimit = s.DailyTransactionLimit
		}
		// The merged limits are checked, not the update alone: a
		// restated limit and a kept one must both be in range.
		checkLimits(&fe, field, &SpendingLimits{DailyLimit: l.DailyLimit, MonthlyLimit: l.MonthlyLimit, DailyTransactionLimit: l.DailyTransactionLimit, Currency: l.Currency}, false)
	}
	if r := u.AccountRestrictions; r != nil {
		checkRestrictions(&fe, at("accountRestrictions"), r)
		p.AccountRestrictions = r
	}
	if t := u.ApprovalThresholds; t != nil {
		checkThresholds(&fe, at("approvalThresholds"), t)
		p.ApprovalThresholds = t
	}
	return p, fe.Err()
}
