package agents

import (
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
