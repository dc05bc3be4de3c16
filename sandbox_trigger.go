package payments

// Triggered is the answer of a sandbox trigger (POST /sandbox/trigger,
// sandbox.Controls.Trigger): the event type asked for, the records the
// flow made or moved to produce it, in the order it made them, and the ids
// of the events of that type it produced that the engine can still show
// (those waiting in the outbox, given up, or kept by Config.EventHistory;
// a delivered event of an engine without the history leaves no id to
// show).
type Triggered struct {
	// EventType is the type of event the flow produced.
	EventType EventType `json:"eventType"`
	// Records are the records the flow made or changed.
	Records []TriggeredRecord `json:"records"`
	// EventIDs are the ids of the events of EventType it produced.
	EventIDs []string `json:"eventIds"`
}

// TriggeredRecord names one record a sandbox trigger made or changed: its
// kind (Customer, InternalAccount, ExternalAccount, Quote, Transaction,
// Card, CardTransaction, Agent, AgentAction, Invitation, BulkJob,
// Verification) and its id.
type TriggeredRecord struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}
