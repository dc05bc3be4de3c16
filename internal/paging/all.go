package paging

import (
	"context"
	"iter"

	"github.com/paygrid/payments/internal/errs"
)

// All walks a whole list: it returns an iterator over every item of the
// pages list returns, from the page p selects onward. It reads the first
// page with p, then follows NextCursor while HasMore, one page at a time
// and only as far as the loop goes: p.Limit is the page size (0 means
// DefaultLimit), p.Desc the order, p.Cursor where to start ("" the
// beginning).
//
// Each item comes with a nil error. A page that fails ends the walk with
// one pair (zero T, the error), so a loop needs no other check:
//
//	for c, err := range paging.All(ctx, p, svc.List) {
//		if err != nil {
//			return err
//		}
//		...
//	}
//
// Breaking out of the loop stops the walk; no further page is read. A page
// that says HasMore without a NextCursor, or with the cursor it was read
// with, ends the walk with an INTERNAL_ERROR instead of reading it again
// forever.
//
// Every list method M of an engine group has its walk beside it, MAll,
// with M's parameters: Customers.List and Customers.ListAll,
// Agents.Transactions and Agents.TransactionsAll, and so on.
func All[T any](ctx context.Context, p ListParams, list func(context.Context, ListParams) (Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			page, err := list(ctx, p)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range page.Data {
				if !yield(item, nil) {
					return
				}
			}
			if !page.HasMore {
				return
			}
			if page.NextCursor == "" || page.NextCursor == p.Cursor {
				var zero T
				yield(zero, errs.Errorf(errs.CodeInternalError, "a list page has more items but no new cursor (%q)", page.NextCursor))
				return
			}
			p.Cursor = page.NextCursor
		}
	}
}
