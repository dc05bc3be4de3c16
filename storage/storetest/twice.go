package storetest

import (
	"context"
	"errors"

	"github.com/paygrid/payments"
)

// Twice wraps a store so that every Update runs its function twice: once
// in a transaction that is then rolled back, and once for real; and every
// retryable View (payments.RetryableViewer) twice. It is how a store that
// retries (optimistic concurrency, serialization failures, bbolt Batch, a
// View whose cached reads were stale) looks to the engine; running the
// engine's tests over it proves that the engine's transaction functions are
// deterministic and retryable. It also reports that operations read in
// their Updates (payments.UpdateReader), as on pgstore and memstore, so
// those reads run twice too.
func Twice(s payments.Store) payments.Store { return twice{s} }

type twice struct{ payments.Store }

// ReadsInUpdate reports that operations read in their Updates (see Twice).
func (twice) ReadsInUpdate() bool { return true }

var errDiscard = errors.New("storetest: first run discarded")

// Update runs fn in a discarded transaction, then in the real one.
func (s twice) Update(ctx context.Context, fn func(payments.Tx) error) error {
	err := s.Store.Update(ctx, func(tx payments.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errDiscard
	})
	if !errors.Is(err, errDiscard) {
		return err
	}
	return s.Store.Update(ctx, fn)
}

// RetryableView runs a retryable View's fn twice, the second time through
// the store's own RetryableView when it has one.
func (s twice) RetryableView(ctx context.Context, fn func(payments.Tx) error) error {
	if err := s.Store.View(ctx, fn); err != nil {
		return err
	}
	if rv, ok := s.Store.(payments.RetryableViewer); ok {
		return rv.RetryableView(ctx, fn)
	}
	return s.Store.View(ctx, fn)
}
