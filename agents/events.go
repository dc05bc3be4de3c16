package agents

import "github.com/paygrid/payments/internal/engine"

// EventAgentActionPendingApproval is the webhook event of package agents
// (reference WebhookType): an agent's action waits for its customer's
// approval. The data is the AgentAction (AgentActionOf).
const EventAgentActionPendingApproval engine.EventType = "AGENT_ACTION.PENDING_APPROVAL"

// AgentActionOf decodes the action an AGENT_ACTION.PENDING_APPROVAL event
// carries; another event is INVALID_INPUT.
func AgentActionOf(ev engine.Event) (*AgentAction, error) {
	return engine.DataOf[AgentAction](ev, EventAgentActionPendingApproval)
}
