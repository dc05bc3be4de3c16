package engine

import (
	"context"
	"iter"

	"github.com/paygrid/payments/internal/paging"
)

// All walks a whole list: an iterator over every item of the pages list
// returns, from the page p selects onward (paging.All says how).
func All[T any](ctx context.Context, p ListParams, list func(context.Context, ListParams) (Page[T], error)) iter.Seq2[T, error] {
	return paging.All(ctx, p, list)
}
