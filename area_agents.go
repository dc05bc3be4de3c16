package payments

import "time"

// agentsArea declares the agents area's tables: agents, their device codes
// and tokens, and their actions.
func agentsArea() areaDef {
	return areaDef{tables: []tableDef{
		{name: tableAgents, record: func() any { return new(agentRecord) },
			ix: indexed(tableAgents, func(x *agentRecord) time.Time { return x.CreatedAt },
				every[agentRecord](),
				ix(ixCustomer, func(x *agentRecord) string { return x.CustomerID }))},
		{name: tableAgentDeviceCodes, record: func() any { return new(AgentDeviceCode) }},
		{name: tableAgentTokens},
		{name: tableAgentActions, record: func() any { return new(actionRecord) },
			ix: indexed(tableAgentActions, func(x *actionRecord) time.Time { return x.CreatedAt },
				ix(ixAgent, func(x *actionRecord) string { return x.AgentID }),
				ix(ixCustomer, func(x *actionRecord) string { return x.CustomerID }),
				ix(ixStatus, func(x *actionRecord) string { return string(x.Status) }))},
	}}
}
