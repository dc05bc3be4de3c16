package agents

import (
	"context"
	"encoding/json"

	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes"
)

// Area declares the agents area's tables: agents, their device codes
// and tokens, and their actions.
func Area() engine.AreaDef {
	return engine.AreaDef{Tables: []engine.TableDef{
		{Name: tableAgents, Record: func() any { return new(agentRecord) },
			Ix: engine.Indexed(tableAgents, func(x *agentRecord) time.Time { return x.CreatedAt },
				engine.Every[agentRecord](),
				engine.Ix(ixCustomer, func(x *agentRecord) string { return x.CustomerID }))},
		{Name: tableAgentDeviceCodes, Record: func() any { return new(DeviceCode) }},
		{Name: tableAgentTokens},
		{Name: tableAgentActions, Record: func() any { return new(actionRecord) },
			Ix: engine.Indexed(tableAgentActions, func(x *actionRecord) time.Time { return x.CreatedAt },
				engine.Ix(ixAgent, func(x *actionRecord) string { return x.AgentID }),
				engine.Ix(ixCustomer, func(x *actionRecord) string { return x.CustomerID }),
				engine.Ix(engine.IxStatus, func(x *actionRecord) string { return string(x.Status) }))},
	}}
}

// agentList is a List request: its filter and page.
type agentList struct {
	f AgentFilter
	p engine.ListParams
}

// txList is a Transactions request: the agent, the filter and the page.
type txList struct {
	agentID string
	f       quotes.TransactionFilter
	p       engine.ListParams
}

// approvalList is an Approvals request: its filter and page.
type approvalList struct {
	f ApprovalFilter
	p engine.ListParams
}

// agentUpdate is an Update request: the agent and the change. It is
// fingerprinted as the pair [id, update].
type agentUpdate struct {
	id string
	u  AgentUpdate
}

// MarshalJSON fingerprints the request as [id, update].
func (a agentUpdate) MarshalJSON() ([]byte, error) { return json.Marshal([]any{a.id, a.u}) }

// actionList is an Actions request: the agent, the status and the page.
type actionList struct {
	agentID string
	status  ActionStatus
	p       engine.ListParams
}

// internalList is an InternalAccounts request.
type internalList struct {
	agentID string
	f       accounts.InternalAccountFilter
	p       engine.ListParams
}

// externalList is an ExternalAccounts request.
type externalList struct {
	agentID string
	f       accounts.ExternalAccountFilter
	p       engine.ListParams
}

// externalCreate is a CreateExternalAccount request.
type externalCreate struct {
	agentID string
	in      accounts.ExternalAccountInput
}

// quoteCreate is a CreateQuote request.
type quoteCreate struct {
	agentID string
	req     quotes.Request
}

// delegated is what an operation that delegates to another area's
// operation gathers: that operation's answer.
type delegated[Out any] struct{ out Out }

// delegate is the Prefetch of an operation that hands its work to another
// area's operation (which runs its own transactions): fn's answer settles
// it, and Answer (answerDelegated) gives it.
func delegate[In, Out any](fn func(ctx context.Context, e *engine.Handle, in *In) (Out, error)) func(context.Context, *engine.Handle, *In, *delegated[Out], error) error {
	return func(ctx context.Context, e *engine.Handle, in *In, f *delegated[Out], _ error) error {
		out, err := fn(ctx, e, in)
		if err != nil {
			return err
		}
		f.out = out
		return engine.Settled
	}
}

// noDecide is the Decide of a delegating operation, which never runs: its
// Prefetch settles every answer.
func noDecide[In, Out any](*engine.Txn, *In, *delegated[Out]) (out Out, err error) { return out, nil }

// answerDelegated is the Answer of a delegating operation: the delegated
// operation's answer.
func answerDelegated[In, Out any](_ *engine.Handle, _ *In, f *delegated[Out], _ Out, err error) (Out, error) {
	return f.out, err
}
