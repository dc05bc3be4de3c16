package engine

import (
	"context"
	"time"
)

// SeedOutbox writes n events of type typ to h's outbox, due at next (with
// their index entries, as Emit writes them), batch per transaction: the
// tests fill an outbox in bulk, with events waiting in backoff, without an
// operation per event.
func SeedOutbox(ctx context.Context, h *Handle, n, batch int, typ EventType, next time.Time) error {
	for n > 0 {
		m := min(n, batch)
		err := h.Update(ctx, func(t *Txn) error {
			for range m {
				id := t.NewID("Webhook")
				rec := outboxRecord{Event: Event{ID: id, Type: typ, Timestamp: t.Now, Data: []byte(`{}`)}, NextAttemptAt: next}
				b, err := rec.Encode()
				if err != nil {
					return err
				}
				if err := insertIndexed(t, TableOutbox, id, rec, b, false); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		n -= m
	}
	return nil
}
