package pgstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments/internal/jsonx"
)

// Typed columns are taken from a record's JSON in one pass over its bytes
// (extract): the declared paths form a tree of object members, and the
// scanner descends only into members on it, skipping the rest.

// pathNode is one object level of the declared paths: the member names
// that lead further down, or to a column (col >= 0).
type pathNode struct {
	col      int
	typ      colType
	children map[string]*pathNode
	// objSpan is where extract notes the span of this node's object when
	// a column's value names it (markObjects), 0 for none.
	objSpan int
}

// absentValues returns, per column, its value when the record lacks it.
func absentValues(cols []column) []pgtype.Text {
	out := make([]pgtype.Text, len(cols))
	for i, c := range cols {
		out[i] = pgtype.Text{String: c.absent, Valid: c.absent != ""}
	}
	return out
}

func newPaths(cols []column) *pathNode {
	root := &pathNode{col: -1}
	for i, c := range cols {
		n := root
		for _, name := range strings.Split(c.path, ".") {
			next := n.children[name]
			if next == nil {
				next = &pathNode{col: -1}
				if n.children == nil {
					n.children = map[string]*pathNode{}
				}
				n.children[name] = next
			}
			n = next
		}
		n.col, n.typ = i, c.typ
	}
	return root
}

// markObjects marks the objects that the values of a table's ncols
// columns name (objects, by column: a member path above the column's, or
// ""): extract notes the span of column i's object at spans[ncols+i].
func markObjects(root *pathNode, objects []string, ncols int) {
	for i, o := range objects {
		if o == "" {
			continue
		}
		n := root
		for _, name := range strings.Split(o, ".") {
			if n = n.children[name]; n == nil {
				break
			}
		}
		if n != nil && n.col < 0 {
			n.objSpan = ncols + i
		}
	}
}

var errNotJSON = errors.New("pgstore: a record of this table is not a JSON object")

// span is where the value of a column's member lies in a record:
// doc[start:end] (end 0 where the record lacks the member), and where the
// member itself begins: doc[key:end] is the member, name included. Where a member
// occurs more than once (a duplicate name in the record or in an object
// above it), it is the last occurrence: the one the column's value is
// taken from.
type span struct{ key, start, end int }

// extract sets out[i] to the text of column i of the record doc (Valid false
// where the member is absent, null or not of the column's type), and
// spans[i], when spans is not nil, to where its member's value lies. out
// may be nil (only the spans are wanted). doc must be a JSON object.
func extract(doc []byte, paths *pathNode, absent, out []pgtype.Text, spans []span) error {
	copy(out, absent)
	clear(spans)
	p := jsonx.SkipSpace(doc, 0)
	if p >= len(doc) || doc[p] != '{' {
		return errNotJSON
	}
	end, err := scanObject(doc, p, paths, out, spans)
	if err != nil {
		return err
	}
	if jsonx.SkipSpace(doc, end) != len(doc) {
		return errNotJSON
	}
	return nil
}

// scanObject reads the object at doc[p] ('{'), filling the columns of the
// members on node (and their spans), and returns the position after it.
func scanObject(doc []byte, p int, node *pathNode, out []pgtype.Text, spans []span) (int, error) {
	p = jsonx.SkipSpace(doc, p+1)
	if p < len(doc) && doc[p] == '}' {
		return p + 1, nil
	}
	for {
		if p >= len(doc) || doc[p] != '"' {
			return 0, errNotJSON
		}
		key := p
		kend, err := skipString(doc, p)
		if err != nil {
			return 0, err
		}
		var child *pathNode
		if node != nil && node.children != nil {
			if name := doc[p+1 : kend-1]; bytes.IndexByte(name, '\\') < 0 {
				child = node.children[string(name)] // no copy for the lookup
			} else {
				child = node.children[unquote(doc[p:kend])]
			}
		}
		p = jsonx.SkipSpace(doc, kend)
		if p >= len(doc) || doc[p] != ':' {
			return 0, errNotJSON
		}
		p = jsonx.SkipSpace(doc, p+1)
		if p >= len(doc) {
			return 0, errNotJSON
		}
		var vend int
		switch {
		case child != nil && child.col >= 0:
			if vend, err = skipValue(doc, p); err != nil {
				return 0, err
			}
			if out != nil {
				out[child.col] = typed(doc[p:vend], child.typ)
			}
			if spans != nil {
				spans[child.col] = span{key, p, vend}
			}
		case child != nil && doc[p] == '{':
			if vend, err = scanObject(doc, p, child, out, spans); err != nil {
				return 0, err
			}
			if child.objSpan > 0 && child.objSpan < len(spans) {
				spans[child.objSpan] = span{key, p, vend}
			}
		default:
			if vend, err = skipValue(doc, p); err != nil {
				return 0, err
			}
		}
		p = jsonx.SkipSpace(doc, vend)
		if p >= len(doc) {
			return 0, errNotJSON
		}
		switch doc[p] {
		case ',':
			p = jsonx.SkipSpace(doc, p+1)
		case '}':
			return p + 1, nil
		default:
			return 0, errNotJSON
		}
	}
}

// typed returns the column value of the JSON value raw, or NULL when raw
// is not of type t.
func typed(raw []byte, t colType) pgtype.Text {
	switch t {
	case colText:
		if len(raw) > 0 && raw[0] == '"' {
			return pgtype.Text{String: unquote(raw), Valid: true}
		}
	case colBigint:
		if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return pgtype.Text{String: string(raw), Valid: true}
		}
	case colNumeric:
		if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') && json.Valid(raw) {
			return pgtype.Text{String: string(raw), Valid: true}
		}
	case colTimestamptz:
		if len(raw) > 0 && raw[0] == '"' {
			s := unquote(raw)
			if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
				return pgtype.Text{String: s, Valid: true}
			}
		}
	case colBoolean:
		if s := string(raw); s == "true" || s == "false" {
			return pgtype.Text{String: s, Valid: true}
		}
	}
	return pgtype.Text{}
}

// unquote returns the string the JSON string literal raw (quotes included)
// stands for.
func unquote(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return string(inner)
			}
			return s
		}
	}
	return string(inner)
}

// skipString returns the position after the string literal at doc[p].
func skipString(doc []byte, p int) (int, error) {
	for i := p + 1; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errNotJSON
}

// skipValue returns the position after the JSON value at doc[p].
func skipValue(doc []byte, p int) (int, error) {
	switch doc[p] {
	case '"':
		return skipString(doc, p)
	case '{', '[':
		depth := 0
		for i := p; i < len(doc); i++ {
			switch doc[i] {
			case '"':
				end, err := skipString(doc, i)
				if err != nil {
					return 0, err
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
		}
		return 0, errNotJSON
	}
	i := p
	for i < len(doc) && !strings.ContainsRune(",}] \t\n\r", rune(doc[i])) {
		i++
	}
	if i == p {
		return 0, errNotJSON
	}
	return i, nil
}
