package agents

import (
	"context"
	"errors"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/quotes"
	"github.com/shopspring/decimal"
)

// Agent tables: agents by id, device codes by code, agent credentials by the
// hash of the access token, and actions by id.
const (
	tableAgents           = "agents"
	tableAgentDeviceCodes = "agent_device_codes"
	tableAgentTokens      = "agent_tokens"
	tableAgentActions     = "agent_actions"
)

// ixAgent is the index of actions by agent.
const ixAgent = "agent"

// Service is the agents area (the reference's Agents operations): the
// platform manages agents, device codes and approvals with its own
// credentials; an agent acts for its one customer with the bearer
// credential it got by redeeming a device code, under its policy. The root
// facade binds it as eng.Agents (payments.Agents). A Service is a small
// value over the engine handle: copy it freely and use it from any number
// of goroutines.
type Service struct{ e *engine.Handle }

// NewService returns the Agents group of h. On a handle made by
// WithIdempotency its write operations record and replay their answers
// under the handle's key.
func NewService(h *engine.Handle) Service { return Service{h} }

// Agent is an agent as the API shows it (reference Agent). Usage is as of
// the engine clock: counters of a past day or month read zero.
// IsConnected is set once a device code was redeemed; the credential
// itself is never part of an Agent.
type Agent struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	CustomerID  string    `json:"customerId"`
	IsPaused    bool      `json:"isPaused"`
	IsConnected bool      `json:"isConnected"`
	Policy      Policy    `json:"policy"`
	Usage       Usage     `json:"usage"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// agentRecord is an Agent as stored: with the hash of its access token
// (never the token) and its newest device code.
type agentRecord struct {
	Agent
	TokenHash  string `json:"tokenHash,omitempty"`
	DeviceCode string `json:"deviceCode,omitempty"`
}

// AgentCreated answers POST /agents: the agent and its first device code.
type AgentCreated struct {
	Agent      Agent      `json:"agent"`
	DeviceCode DeviceCode `json:"deviceCode"`
}

// AgentCredential answers a redemption: the bearer access token, shown this
// once (only its hash is stored).
type AgentCredential struct {
	AgentID     string `json:"agentId"`
	AgentName   string `json:"agentName"`
	AccessToken string `json:"accessToken"`
	Policy      Policy `json:"policy"`
}

// AgentTransferDetails describe a transfer action (reference
// AgentTransferDetails).
type AgentTransferDetails struct {
	Amount               int64  `json:"amount"`
	Currency             string `json:"currency"`
	SourceAccountID      string `json:"sourceAccountId"`
	DestinationAccountID string `json:"destinationAccountId"`
}

// AgentAction is one money-moving request of an agent (reference
// AgentAction): the quote it executes or the transfer it makes, and once
// it ran, the resulting transaction as it stands now.
type AgentAction struct {
	ID                 string                `json:"id"`
	AgentID            string                `json:"agentId"`
	CustomerID         string                `json:"customerId"`
	PlatformCustomerID string                `json:"platformCustomerId"`
	Status             ActionStatus          `json:"status"`
	Type               ActionType            `json:"type"`
	Quote              *quotes.Quote         `json:"quote,omitempty"`
	TransferDetails    *AgentTransferDetails `json:"transferDetails,omitempty"`
	Transaction        *quotes.Transaction   `json:"transaction,omitempty"`
	RejectionReason    string                `json:"rejectionReason,omitempty"`
	CreatedAt          time.Time             `json:"createdAt"`
	UpdatedAt          time.Time             `json:"updatedAt"`
}

// actionRecord is an action as stored: references instead of the quote and
// transaction, which are read fresh when the action is shown.
type actionRecord struct {
	AgentAction
	QuoteID       string `json:"quoteId,omitempty"`
	TransactionID string `json:"transactionId,omitempty"`
	// FailureReason says why an approved action could not run (logs and
	// operators; the reference's AgentAction has no member for it).
	FailureReason string `json:"failureReason,omitempty"`
	// Remittance and Purpose are a transfer-out's remittanceInformation and
	// purposeOfPayment.
	Remittance string `json:"remittance,omitempty"`
	Purpose    string `json:"purpose,omitempty"`
}

// agentView is a's Agent with its usage rolled to now.
func agentView(a *agentRecord, now time.Time) *Agent {
	out := a.Agent
	out.Usage = Roll(a.Usage, now)
	return &out
}

// agent reads agent id in t: NOT_FOUND when there is none.
func agent(t *engine.Txn, id string) (*agentRecord, error) {
	var a agentRecord
	if err := engine.GetJSON(t, tableAgents, id, &a); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "agent", id)
	}
	return &a, nil
}

// errAgentCredential answers every agent credential that no longer works:
// one message for unknown, revoked and deleted alike, so a caller cannot
// probe which agents exist.
var errAgentCredential = &engine.Error{Code: engine.CodeUnauthorized, Message: "invalid or revoked agent credential"}

// actingAgent reads the agent a credential authenticated as, in the
// operation's own transaction, and checks it may act: a deleted agent is
// UNAUTHORIZED, a paused one FORBIDDEN, and perm (when set) must be granted.
func actingAgent(t *engine.Txn, id string, perm Permission) (*agentRecord, error) {
	a, err := agent(t, id)
	if engine.CodeOf(err) == engine.CodeNotFound {
		return nil, errAgentCredential
	}
	if err != nil {
		return nil, err
	}
	// An agent whose credential was never issued cannot be acting: the
	// id came from somewhere other than Authenticate.
	if a.TokenHash == "" {
		return nil, errAgentCredential
	}
	if a.IsPaused {
		return nil, &engine.Error{Code: engine.CodeForbidden, Message: "the agent is paused", Details: map[string]any{"reason": string(AgentPaused)}}
	}
	if perm != "" && !a.Policy.Has(perm) {
		return nil, &engine.Error{Code: engine.CodeForbidden, Message: "the agent's policy lacks the " + string(perm) + " permission",
			Details: map[string]any{"reason": string(PermissionMissing), "permission": string(perm)}}
	}
	return a, nil
}

// spendCheck evaluates s against a's policy and usage at t.Now: a broken
// hard limit is FORBIDDEN with details.reason, and nothing changes. With
// consume, the usage the action adds is written with a, in t: concurrent
// spends of one agent serialize on its record, so together they never pass
// a limit. s must be in the policy's currencies of the time (limit and
// threshold): otherwise the policy changed since it was converted and the
// caller converts again (errPolicyMoved).
func spendCheck(t *engine.Txn, a *agentRecord, s Spend, limitCur, thresholdCur string, consume bool) (Decision, error) {
	if a.Policy.SpendingLimits.Currency != limitCur || a.Policy.ThresholdCurrency() != thresholdCur {
		return Decision{}, errPolicyMoved
	}
	d := Evaluate(&a.Policy, Roll(a.Usage, t.Now), s)
	if d.Refused != "" {
		return d, &engine.Error{Code: engine.CodeForbidden, Message: d.Message, Details: map[string]any{"reason": string(d.Refused)}}
	}
	if consume {
		a.Usage = d.Usage
		if err := engine.PutJSON(t, tableAgents, a.ID, a); err != nil {
			return d, err
		}
	}
	return d, nil
}

// errPolicyMoved: the policy's currencies changed between converting an
// action's amount and deciding it; the operation converts again.
var errPolicyMoved = errors.New("payments: agent policy currency changed")

// convertAmount converts amount minor units of from into to at the engine's
// rate, rounding up (a limit is never passed by rounding), capped at
// money.MaxAmount. It asks the rate source, so it runs before the
// operation's transaction, never inside it. QUOTE_RATE_UNAVAILABLE when
// no usable rate is known.
func convertAmount(e *engine.Handle, ctx context.Context, amount int64, from, to string) (int64, error) {
	if from == to || to == "" {
		return amount, nil
	}
	r, _, err := quotes.Rate(e, ctx, from, to)
	if err != nil {
		return 0, err
	}
	fc, _ := money.Lookup(from)
	tc, _ := money.Lookup(to)
	mr := r.MinorRate(fc, tc) // from minor units per one to minor unit
	if !mr.IsPositive() {
		return 0, engine.Errorf(engine.CodeQuoteRateUnavailable, "no usable rate from %s to %s", from, to)
	}
	v := decimal.NewFromInt(amount).Div(mr).Ceil()
	if v.GreaterThan(decimal.NewFromInt(money.MaxAmount)) {
		return money.MaxAmount, nil
	}
	return v.IntPart(), nil
}

// spendOf converts an action's amount for a's policy. amounts holds the
// action's own amounts by currency (a quote's sending and receiving totals),
// used as they are where the policy names their currency ("the rate used by
// the quote"); any other currency is converted from base's amount at the
// engine's rate. accountID is the customer's account the action uses and
// accountAmount the amount in its currency.
func spendOf(e *engine.Handle, ctx context.Context, a *agentRecord, base string, amounts map[string]int64, accountID string, accountAmount int64) (s Spend, limitCur, thresholdCur string, err error) {
	limitCur, thresholdCur = a.Policy.SpendingLimits.Currency, a.Policy.ThresholdCurrency()
	conv := func(to string) (int64, error) {
		if v, ok := amounts[to]; ok {
			return v, nil
		}
		return convertAmount(e, ctx, amounts[base], base, to)
	}
	s = Spend{AccountID: accountID, AccountAmount: accountAmount}
	if s.Amount, err = conv(limitCur); err != nil {
		return s, "", "", err
	}
	s.ThresholdAmount, err = conv(thresholdCur)
	return s, limitCur, thresholdCur, err
}
