package engine

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/ixkey"
	"github.com/paygrid/payments/internal/paging"
)

// Page is one page of a list, in the reference's envelope
// (paging.Page).
type Page[T any] = paging.Page[T]

// ListParams selects a page (paging.ListParams).
type ListParams = paging.ListParams

// DefaultLimit and MaxLimit bound page sizes (paging).
const (
	DefaultLimit = paging.DefaultLimit
	MaxLimit     = paging.MaxLimit
)

// MapPage converts the items of a page with fn, keeping its paging members
// (paging.MapPage).
func MapPage[T, U any](p Page[T], fn func(*T) (*U, error)) (Page[U], error) {
	return paging.MapPage(p, fn)
}

// scanFactor bounds the index entries one page examines to scanFactor ×
// limit. A page whose filters reject more than that many entries stops
// early with HasMore and a cursor where it stopped, so a sparse post-filter
// costs several cheap requests, never one scan of the table.
const scanFactor = 100

// ListQuery says where a list reads: the entries of one index of table
// with one value (list the rest with IxAll's "" value), created between
// From and To (inclusive, zero is open), and Match, the post-filter over the
// decoded records (nil keeps all). Match holds every filter of the list,
// those the index range already answers included: they cost a comparison.
//
// Probes are the list's other indexed filters, as (index, value) pairs: an
// entry whose record lacks the entry of a probe in that index is passed
// over without reading the record (a point read of an index key instead of
// a read and a decode of the record). Every probe must be implied by Match.
type ListQuery[T any] struct {
	Table, Index, Value string
	From, To            time.Time
	Match               func(*T) bool
	Probes              [][2]string
}

// Narrowest returns q reading the first of the (index, value) candidates
// whose value is set, q's own index when none is, and probing the others
// that are set. Lists name their indexed filters most selective first;
// every candidate is a filter the list's Match also checks.
func (q ListQuery[T]) Narrowest(candidates ...[2]string) ListQuery[T] {
	read := false
	for _, c := range candidates {
		switch {
		case c[1] == "":
		case !read:
			q.Index, q.Value, read = c[0], c[1], true
		case c != [2]string{q.Index, q.Value}:
			q.Probes = append(q.Probes, c)
		}
	}
	return q
}

// List reads one page of q in creation order (newest first with p.Desc).
// The cursor names the index and value it was made for and the key of the
// last entry examined, so it resumes after that entry, and a cursor of
// another list, filter or direction is INVALID_INPUT on cursor.
func List[T any](t *Txn, q ListQuery[T], p ListParams) (Page[T], error) {
	tx := t.Tx
	ti := t.Handle.Registry.indexesOf(q.Table)
	if ti == nil || !ti.names[q.Index] {
		return Page[T]{}, fmt.Errorf("payments: %s has no index %q", q.Table, q.Index)
	}
	table, prefix := IndexTable(q.Table, q.Index), EscapeValue(q.Value)+"|"
	probes := make([][2]string, len(q.Probes)) // index table, value prefix
	for i, pr := range q.Probes {
		if !ti.names[pr[0]] {
			return Page[T]{}, fmt.Errorf("payments: %s has no index %q", q.Table, pr[0])
		}
		probes[i] = [2]string{IndexTable(q.Table, pr[0]), EscapeValue(pr[1]) + "|"}
	}
	after, err := p.Check(table, prefix)
	if err != nil {
		return Page[T]{}, err
	}
	var lo, hi string // the createdAt bounds as keys: every entry in range is > lo and < hi
	if !q.From.IsZero() {
		lo = prefix + ixkey.SortKey(q.From)
	}
	if !q.To.IsZero() {
		hi = prefix + ixkey.SortKey(q.To) + "}" // '}' follows the '|' after the sort key
	}
	opts := ScanOptions{Prefix: prefix, Reverse: p.Desc, After: max(after, lo)}
	if p.Desc {
		opts.After = after
		if hi != "" && (after == "" || hi < after) {
			opts.After = hi
		}
	}
	page := Page[T]{Data: []T{}}
	budget := scanFactor * p.Limit
	var last, examined string // the last entry returned, and examined
	err = tx.Scan(table, opts, func(k string, _ []byte) (bool, error) {
		if (p.Desc && lo != "" && k < lo) || (!p.Desc && hi != "" && k > hi) {
			return false, nil
		}
		if len(page.Data) == p.Limit && q.Match == nil {
			page.HasMore, page.NextCursor = true, p.CursorFor(table, last)
			return false, nil
		}
		if budget == 0 {
			page.HasMore, page.NextCursor = true, p.CursorFor(table, examined)
			return false, nil
		}
		budget--
		examined = k
		for _, pr := range probes { // the same sort key and id under another value
			_, err := tx.Get(pr[0], pr[1]+k[len(prefix):])
			if errors.Is(err, ErrNotFound) {
				return true, nil
			} else if err != nil {
				return false, err
			}
		}
		b, err := tx.Get(q.Table, k[strings.LastIndexByte(k, '|')+1:])
		if errors.Is(err, ErrNotFound) {
			return true, nil
		}
		var item T
		if err == nil {
			err = decodeRecord(b, &item)
		}
		if err != nil || (q.Match != nil && !q.Match(&item)) {
			return err == nil, err
		}
		if len(page.Data) == p.Limit {
			page.HasMore, page.NextCursor = true, p.CursorFor(table, last)
			return false, nil
		}
		page.Data, last = append(page.Data, item), k
		return true, nil
	})
	if p.Cursor == "" && !page.HasMore {
		n := len(page.Data)
		page.TotalCount = &n
	}
	return page, err
}
