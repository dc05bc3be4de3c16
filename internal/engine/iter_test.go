package engine_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/paygrid/payments/internal/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pagedInts is a list of n ints served limit at a time, the cursor being the
// next index; failAt makes the page starting there fail. It counts the pages
// it served.
type pagedInts struct {
	n, failAt int
	pages     int
	seen      []engine.ListParams
}

func (l *pagedInts) list(_ context.Context, p engine.ListParams) (engine.Page[int], error) {
	l.pages++
	l.seen = append(l.seen, p)
	start := 0
	if p.Cursor != "" {
		start, _ = strconv.Atoi(p.Cursor)
	}
	if start == l.failAt {
		return engine.Page[int]{}, errors.New("page failed")
	}
	end := min(start+p.Limit, l.n)
	var out engine.Page[int]
	for i := start; i < end; i++ {
		out.Data = append(out.Data, i)
	}
	if end < l.n {
		out.HasMore, out.NextCursor = true, strconv.Itoa(end)
	}
	return out, nil
}

func TestAll(t *testing.T) {
	t.Run("walks every page", func(t *testing.T) {
		l := &pagedInts{n: 7, failAt: -1}
		var got []int
		for v, err := range engine.All(ctx, engine.ListParams{Limit: 3, Desc: true}, l.list) {
			require.NoError(t, err)
			got = append(got, v)
		}
		assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6}, got)
		assert.Equal(t, 3, l.pages)
		for _, p := range l.seen {
			assert.Equal(t, 3, p.Limit, "every page keeps the page size")
			assert.True(t, p.Desc, "and the order")
		}
	})
	t.Run("starts at p's cursor", func(t *testing.T) {
		l := &pagedInts{n: 7, failAt: -1}
		var got []int
		for v, err := range engine.All(ctx, engine.ListParams{Limit: 3, Cursor: "5"}, l.list) {
			require.NoError(t, err)
			got = append(got, v)
		}
		assert.Equal(t, []int{5, 6}, got)
	})
	t.Run("stops early without error", func(t *testing.T) {
		l := &pagedInts{n: 100, failAt: -1}
		var got []int
		for v, err := range engine.All(ctx, engine.ListParams{Limit: 3}, l.list) {
			require.NoError(t, err)
			got = append(got, v)
			if len(got) == 4 {
				break
			}
		}
		assert.Equal(t, []int{0, 1, 2, 3}, got)
		assert.Equal(t, 2, l.pages, "no page is read past the break")
	})
	t.Run("surfaces a list error", func(t *testing.T) {
		l := &pagedInts{n: 10, failAt: 6}
		var got []int
		var errs []error
		for v, err := range engine.All(ctx, engine.ListParams{Limit: 3}, l.list) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			got = append(got, v)
		}
		assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, got)
		require.Len(t, errs, 1, "the walk ends after the error")
		assert.EqualError(t, errs[0], "page failed")
		assert.Equal(t, 3, l.pages)
	})
	t.Run("a page with more but no cursor ends the walk", func(t *testing.T) {
		calls := 0
		list := func(context.Context, engine.ListParams) (engine.Page[int], error) {
			calls++
			return engine.Page[int]{Data: []int{1}, HasMore: true}, nil
		}
		var errs []error
		for _, err := range engine.All(ctx, engine.ListParams{}, list) {
			if err != nil {
				errs = append(errs, err)
			}
		}
		require.Len(t, errs, 1)
		assert.Equal(t, engine.CodeInternalError, engine.CodeOf(errs[0]))
		assert.Equal(t, 1, calls)
	})
}
