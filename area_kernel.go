package payments

import "time"

// kernelArea declares the kernel's own tables: idempotency, due-work
// bookkeeping, intents, the outbox with its dead letters and history, and
// the ledger.
func kernelArea(r *registry) areaDef {
	return areaDef{tables: []tableDef{
		{name: tableIdempotency, record: func() any { return new(idemRecord) }},
		{name: tableIdempotencyExpiry},
		{name: tableDueRetry, record: func() any { return new(dueRetry) }},
		{name: tableDueDead, record: func() any { return new(DeadLetter) }},
		{name: tableIntents, record: func() any { return intentCheck{r} }},
		{name: tableOutbox, record: func() any { return new(outboxRecord) }},
		{name: tableOutboxDead, record: func() any { return new(outboxRecord) }},
		{name: tableEventLog, record: func() any { return new(WebhookDelivery) },
			ix: indexed(tableEventLog, func(x *WebhookDelivery) time.Time { return x.Event.Timestamp },
				every[WebhookDelivery](),
				ix(ixResource, func(x *WebhookDelivery) string { return x.Resource }),
				ix(ixStatus, func(x *WebhookDelivery) string { return x.Status }))},
		{name: tableLedgerBalances},
		{name: tableLedgerEntries, record: func() any { return new(LedgerEntry) }},
	}}
}
