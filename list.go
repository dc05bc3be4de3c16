package payments

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/paygrid/payments/validate"
)

// Page is one page of a list, in the reference's envelope. NextCursor is set
// only when HasMore; pass it back as ListParams.Cursor for the next page.
type Page[T any] struct {
	Data       []T    `json:"data"`
	HasMore    bool   `json:"hasMore"`
	NextCursor string `json:"nextCursor,omitempty"`
	TotalCount int    `json:"totalCount"`
}

// ListParams selects a page. Limit is 1..100 (0 means 20); Cursor is an opaque
// value from a previous Page; Desc lists newest first.
type ListParams struct {
	Limit  int
	Cursor string
	Desc   bool
}

// DefaultLimit and MaxLimit bound page sizes.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// check validates the parameters and returns the decoded cursor key.
func (p *ListParams) check() (string, error) {
	var fe validate.Errors
	if p.Limit == 0 {
		p.Limit = DefaultLimit
	}
	if p.Limit < 1 || p.Limit > MaxLimit {
		fe.Add("limit", &validate.Constraint{}, "limit must be between 1 and %d", MaxLimit)
	}
	var after string
	if p.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		dir, key, ok := strings.Cut(string(raw), ":")
		if err != nil || !ok || (dir == "d") != p.Desc || (dir != "a" && dir != "d") {
			fe.Add("cursor", nil, "cursor is not a value returned by this list")
		}
		after = key
	}
	return after, Invalid(fe.Err())
}

func (p ListParams) cursorFor(key string) string {
	dir := "a"
	if p.Desc {
		dir = "d"
	}
	return base64.RawURLEncoding.EncodeToString([]byte(dir + ":" + key))
}

// listTable pages over the JSON records of table in key (creation) order,
// keeping those match accepts (nil keeps all). TotalCount counts every match.
func listTable[T any](tx Tx, table string, p ListParams, match func(*T) bool) (Page[T], error) {
	return listIndex(tx, table, "", p, match, nil)
}

// listIndex is listTable over the keys of table that start with prefix; when
// load is set the stored values are ids resolved through it.
func listIndex[T any](tx Tx, table, prefix string, p ListParams, match func(*T) bool, load func(id string) ([]byte, error)) (Page[T], error) {
	after, err := p.check()
	if err != nil {
		return Page[T]{}, err
	}
	page := Page[T]{Data: []T{}}
	var lastKey string
	started := after == ""
	err = tx.Scan(table, ScanOptions{Prefix: prefix, Reverse: p.Desc}, func(k string, v []byte) (bool, error) {
		if load != nil {
			var err error
			if v, err = load(string(v)); err != nil {
				return false, err
			}
		}
		var item T
		if err := json.Unmarshal(v, &item); err != nil {
			return false, err
		}
		if match != nil && !match(&item) {
			return true, nil
		}
		page.TotalCount++
		if !started {
			started = (!p.Desc && k > after) || (p.Desc && k < after)
		}
		if !started {
			return true, nil
		}
		switch {
		case len(page.Data) < p.Limit:
			page.Data = append(page.Data, item)
			lastKey = k
		case len(page.Data) == p.Limit && !page.HasMore:
			page.HasMore = true
			page.NextCursor = p.cursorFor(lastKey)
		}
		return true, nil
	})
	return page, err
}

// mapPage converts the items of a page with fn, keeping its paging members.
func mapPage[T, U any](p Page[T], fn func(*T) (*U, error)) (Page[U], error) {
	out := Page[U]{Data: make([]U, 0, len(p.Data)), HasMore: p.HasMore, NextCursor: p.NextCursor, TotalCount: p.TotalCount}
	for i := range p.Data {
		u, err := fn(&p.Data[i])
		if err != nil {
			return out, err
		}
		out.Data = append(out.Data, *u)
	}
	return out, nil
}
