package agents

import (
	"context"

	"time"

	"github.com/paygrid/payments/internal/engine"
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

// begin begins the operation name of this area (engine.Handle.Begin): every
// exported method of the area's groups starts with
//
//	ctx, op := begin(ctx, s.e, "Name")
//	defer op.End(&err)
//
// naming the method, qualified by its group when that is not Service
// ("Transactions.Get"), so that an Observer counts and times it by area,
// operation and outcome code.
func begin(ctx context.Context, e *engine.Handle, name string) (context.Context, engine.Span) {
	return e.Begin(ctx, "agents", name)
}
