package engine

import (
	"time"

	"github.com/paygrid/payments/internal/eventrec"
)

// kernelArea declares the kernel's own tables: idempotency, due-work
// bookkeeping, intents, the outbox with its dead letters and history, and
// the ledger. The history's retention is a pass of internal/history, which
// the root registers.
func kernelArea(e *Handle) AreaDef {
	r := &e.Registry
	return AreaDef{Tables: []TableDef{
		{Name: tableIdempotency, Record: func() any { return new(idemRecord) }},
		{Name: tableIdempotencyExpiry},
		{Name: TableDueRetry, Record: func() any { return new(DueRetry) }},
		{Name: TableDueDead, Record: func() any { return new(DeadLetter) }},
		{Name: TableIntents, Record: func() any { return intentCheck{r} }},
		{Name: TableOutbox, Record: func() any { return new(outboxRecord) },
			ID: func(rec any) string { return rec.(*outboxRecord).Event.ID }}, // kept at its event's id
		{Name: TableOutboxDead, Record: func() any { return new(outboxRecord) }},
		{Name: TableOutboxRetry},
		{Name: TableEventLog, Record: func() any { return new(WebhookDelivery) },
			ID: func(rec any) string { return rec.(*WebhookDelivery).Event.ID }, // kept at its event's id
			Ix: Indexed(TableEventLog, func(x *WebhookDelivery) time.Time { return x.Event.Timestamp },
				Every[WebhookDelivery](),
				Ix(IxResource, func(x *WebhookDelivery) string { return x.Resource }),
				Ix(IxStatus, func(x *WebhookDelivery) string { return eventrec.IndexedStatus(x.Status) }))},
		{Name: TableLedgerBalances},
		{Name: TableLedgerEntries, Record: func() any { return new(LedgerEntry) },
			Ix: Indexed(TableLedgerEntries, func(x *LedgerEntry) time.Time { return x.CreatedAt },
				Ix(IxLedgerReference, func(x *LedgerEntry) string { return x.Reference }))},
	}}
}
