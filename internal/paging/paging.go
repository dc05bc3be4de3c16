// Package paging is how every list of the API is paged: the page of a
// list in the reference's envelope (Page), the parameters that select one
// (ListParams) and its opaque cursor, which names the index it was made
// for and the entry it resumes after. It is a leaf: the kernel's lists
// (internal/engine.List) read an index a page at a time with it, and a
// page of anything else (a list the root assembles, a page mapped to
// another type) takes the same envelope.
package paging

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/paygrid/payments/internal/errs"
	"github.com/paygrid/payments/internal/jsonx"
	"github.com/paygrid/payments/validate"
)

// Page is one page of a list, in the reference's envelope. NextCursor is set
// only when HasMore; pass it back as ListParams.Cursor for the next page.
//
// TotalCount is set only when it is known without counting: on a first page
// that holds every match (no cursor given, HasMore false), where it is
// len(Data). Lists read an index a page at a time (a page costs O(limit +
// log n)), and no counter is maintained, so a longer list has none; the
// reference makes it optional.
type Page[T any] struct {
	Data       []T    `json:"data"`
	HasMore    bool   `json:"hasMore"`
	NextCursor string `json:"nextCursor,omitempty"`
	TotalCount *int   `json:"totalCount,omitempty"`
}

// MarshalJSON encodes the page in the reference's envelope, Data always an
// array. An item that encodes itself (json.Marshaler) is appended as its
// MarshalJSON wrote it: encoding/json would check and compact those bytes
// again, a quarter of the time of serving a page of transactions, and the
// engine's own encoders are fuzzed against encoding/json. Other items go
// through json.Marshal.
func (p Page[T]) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 64+1024*len(p.Data)), `{"data":[`...)
	for i := range p.Data {
		if i > 0 {
			b = append(b, ',')
		}
		var raw []byte
		var err error
		if m, ok := any(&p.Data[i]).(json.Marshaler); ok {
			raw, err = m.MarshalJSON()
		} else {
			raw, err = json.Marshal(&p.Data[i])
		}
		if err != nil {
			return nil, err
		}
		b = append(b, raw...)
	}
	b = strconv.AppendBool(append(b, `],"hasMore":`...), p.HasMore)
	if p.NextCursor != "" {
		b = jsonx.AppendString(append(b, `,"nextCursor":`...), p.NextCursor)
	}
	if p.TotalCount != nil {
		b = strconv.AppendInt(append(b, `,"totalCount":`...), int64(*p.TotalCount), 10)
	}
	return append(b, '}'), nil
}

// ListParams selects a page. Limit is 1..100 (0 means 20); Cursor is an opaque
// value from a previous Page of the same list; Desc lists newest first.
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

// Check validates the parameters and returns the index key the cursor
// resumes after, which must be an entry of index table under prefix.
func (p *ListParams) Check(table, prefix string) (string, error) {
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
		dir, rest, _ := strings.Cut(string(raw), ":")
		t, key, _ := strings.Cut(rest, ":")
		if err != nil || dir != p.direction() || t != table || !strings.HasPrefix(key, prefix) {
			fe.Add("cursor", nil, "cursor is not a value returned by this list")
		}
		after = key
	}
	return after, errs.Invalid(fe.Err())
}

func (p ListParams) direction() string {
	if p.Desc {
		return "d"
	}
	return "a"
}

// CursorFor is the opaque cursor resuming after the entry key of table.
func (p ListParams) CursorFor(table, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(p.direction() + ":" + table + ":" + key))
}

// MapPage converts the items of a page with fn, keeping its paging members.
func MapPage[T, U any](p Page[T], fn func(*T) (*U, error)) (Page[U], error) {
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
