package pgstore

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/paygrid/payments/internal/jsonx"
)

// A doc that leaves members out (doc.go): the letters that name them, and
// the writer and reader of its "~" member.

// setCodes names the stripped columns' members and the id member in a doc
// that leaves them out, by the columns' numbers in the table (attnum: 0
// for a column the table lacks), and makes the read statements select the
// row's id and the kept objects the columns name too.
func (s *shape) setCodes(attnum func(name string) int) {
	n := len(s.strip)
	s.codes, s.keys = make([]byte, n), make([]string, n)
	s.objKeys, s.objVals = make([]string, n), make([]int, n)
	for j, i := range s.strip {
		c := s.cols[i]
		s.codes[j] = codeOf(attnum(c.name))
		s.keys[j] = memberName(c.path)
	}
	s.idCode = codeOf(attnum("id"))
	if s.idCode != 0 {
		n++
	}
	for j, i := range s.strip {
		s.objVals[j] = -1
		if s.object(i) != "" && s.codes[j] != 0 {
			s.objKeys[j], s.objVals[j] = memberName(s.object(i)), n
			n++
		}
	}
	markObjects(s.paths, s.objects, len(s.cols))
	s.shapes = true
	s.statements()
}

// memberName is the name of the member at path as doc spells it, colon
// included: `"code":` for sendingCurrency.code.
func memberName(path string) string {
	return string(jsonx.AppendString(nil, path[strings.LastIndexByte(path, '.')+1:])) + ":"
}

// object returns the member path of the object the value of column i
// names, "" for none.
func (s *shape) object(i int) string {
	if i < len(s.objects) {
		return s.objects[i]
	}
	return ""
}

// codeOf returns the letter of the column numbered n in its table, 0 past
// the 52nd.
func codeOf(n int) byte {
	switch {
	case n >= 1 && n <= 26:
		return 'a' + byte(n-1)
	case n >= 27 && n <= 52:
		return 'A' + byte(n-27)
	}
	return 0
}

// nvals is how many values stripSQL selects: the stripped columns', the
// row's id where the id member is cut, the kept objects the columns name,
// and the shape the doc names (shapes.go).
func (s *shape) nvals() int {
	n := len(s.strip)
	if s.idCode != 0 {
		n++
	}
	for _, k := range s.objKeys {
		if k != "" {
			n++
		}
	}
	if s.shapes {
		n++
	}
	return n
}

// fit makes buf hold a record of n bytes with m members cut without
// growing (once for a batch of records of about one size).
func (buf *docBuf) fit(n, m int) {
	if cap(buf.check) < n {
		n += n / 4
		buf.check, buf.doc = make([]byte, 0, n), make([]byte, 0, n)
	}
	if cap(buf.members) < m {
		buf.members = make([]member, 0, m)
	}
}

// following returns where in v the byte after v[:pos] lies once the
// removals ms (in v's order, each starting at or after pos) are made.
func following(v []byte, ms []member, pos int) int {
	for _, m := range ms {
		if m.at == pos {
			pos = m.at + m.n
		}
	}
	return pos
}

// member is a member cut from a record: the letter of its column, where
// it lies in the record (v[key:end]), and where and how many bytes the
// writer removed (the member and a comma).
type member struct {
	code     byte
	obj      bool // the object the column's value names
	key, end int
	at, n    int
}

// cutMark is how a doc that leaves members out begins.
const cutMark = `{"~":"`

// appendCut appends to b the doc of v that leaves out the members the
// columns and the key hold, and reports whether it did: not where none is
// cut, nor where the doc would not read back as v.
func (s *shape) appendCut(b []byte, key string, v []byte, row []pgtype.Text, spans []span, buf *docBuf) ([]byte, bool) {
	if len(s.codes) == 0 && s.idCode == 0 || len(v) < 2 || v[0] != '{' {
		return b, false
	}
	buf.fit(len(v), len(s.strip)+1)
	ms := buf.members[:0]
	if s.idCode != 0 {
		buf.scratch = jsonx.AppendString(append(buf.scratch[:0], `{"id":`...), key)
		if bytes.HasPrefix(v, buf.scratch) {
			ms = append(ms, member{code: s.idCode, key: 1, end: len(buf.scratch)})
		}
	}
	for j, i := range s.strip {
		sp := spans[i]
		if j >= len(s.codes) || s.codes[j] == 0 || sp.end == 0 || !row[i].Valid || string(v[sp.key:sp.start]) != s.keys[j] {
			continue
		}
		var exact bool
		if exact, buf.scratch = holds(s.cols[i].typ, row[i].String, v[sp.start:sp.end], buf.scratch); exact {
			ms = append(ms, member{code: s.codes[j], key: sp.key, end: sp.end})
		}
	}
	for j, i := range s.strip {
		if s.kept == nil || j >= len(s.objKeys) || s.objKeys[j] == "" || len(spans) < 2*len(s.cols) || !row[i].Valid {
			continue
		}
		o, sp := spans[len(s.cols)+i], spans[i]
		if o.end == 0 || sp.start <= o.start || sp.end >= o.end || string(v[o.key:o.start]) != s.objKeys[j] {
			continue
		}
		key := objectKey{s.sql, s.cols[i].name, row[i].String}
		switch kept, ok := s.kept.get(key); {
		case !ok:
			s.kept.see(key, v[o.start:o.end])
		case kept == string(v[o.start:o.end]):
			ms = append(ms, member{code: s.codes[j], obj: true, key: o.key, end: o.end})
		}
	}
	slices.SortFunc(ms, func(x, y member) int { return x.key - y.key })
	// A member named twice where a column and the id take the same one.
	ms = slices.CompactFunc(ms, func(next, prev member) bool { return next.key < prev.end })
	buf.members = ms
	if len(ms) == 0 {
		return b, false
	}
	// Right to left, each member with the comma after it, else the one
	// before it; the removals to the right of a member leave the bytes
	// before it where they are in v.
	for k := len(ms) - 1; k >= 0; k-- {
		at, end := ms[k].key, ms[k].end
		switch next := following(v, ms[k+1:], end); {
		case next < len(v) && v[next] == ',' && next == end:
			end++
		case v[at-1] == ',':
			at--
		case v[at-1] != '{' || next >= len(v) || v[next] != '}':
			return b, false // a space beside the member
		}
		ms[k].at, ms[k].n = at, end-at
	}
	first := following(v, ms, 1)
	if first >= len(v) || v[first] != '}' && v[first] != '"' {
		return b, false
	}
	start := len(b)
	b = append(b, cutMark...)
	last, removed := 0, 0
	for _, m := range ms {
		at := m.at - removed
		if m.obj {
			b = append(b, '*')
		}
		b = strconv.AppendInt(append(b, m.code), int64(at-last), 10)
		last, removed = at, removed+m.n
	}
	b = append(b, '"')
	if v[first] != '}' {
		b = append(b, ',')
	}
	at := 1
	for _, m := range ms {
		b = append(b, v[at:m.at]...)
		at = m.at + m.n
	}
	b = append(b, v[at:]...)
	var err error
	buf.check, err = uncut(buf.check[:0], b[start:], func(out []byte, code byte, obj bool) ([]byte, error) {
		for _, m := range ms {
			if m.code == code && m.obj == obj {
				return append(out, v[m.key:m.end]...), nil
			}
		}
		return nil, errCut
	})
	if err != nil || !bytes.Equal(buf.check, v) {
		return b[:start], false
	}
	return b, true
}

var errCut = errors.New("pgstore: a doc leaves out a member of no column")

// uncut appends to out the record of doc, a doc that leaves members out
// (cutMark first), each member spelled by member (which appends it, name
// included, to out): the member of the column whose letter is code, or
// (obj) the object its value names.
func uncut(out, doc []byte, member func(out []byte, code byte, obj bool) ([]byte, error)) ([]byte, error) {
	q := bytes.IndexByte(doc[len(cutMark):], '"')
	if q < 0 {
		return nil, errNotJSON
	}
	q += len(cutMark)
	list := doc[len(cutMark):q]
	// The rest of doc is doc[base:] with its first byte read as {.
	var base int
	switch {
	case q+1 < len(doc) && doc[q+1] == ',':
		base = q + 1
	case q+1 < len(doc) && doc[q+1] == '}':
		base = q
	default:
		return nil, errNotJSON
	}
	n := len(doc) - base
	out = append(out, '{')
	at, last := 1, 0
	for p := 0; p < len(list); {
		obj := list[p] == '*'
		if obj && p+1 < len(list) {
			p++
		}
		code, d, digits := list[p], 0, p+1
		for p++; p < len(list) && list[p] >= '0' && list[p] <= '9' && d <= n; p++ {
			d = d*10 + int(list[p]-'0')
		}
		o := last + d
		if p == digits || o < at || o >= n {
			return nil, errCut
		}
		out = append(out, doc[base+at:base+o]...)
		var err error
		switch next := doc[base+o]; {
		case next == '}' && out[len(out)-1] == '{':
			out, err = member(out, code, obj)
		case next == '}':
			out, err = member(append(out, ','), code, obj)
		default:
			out, err = member(out, code, obj)
			out = append(out, ',')
		}
		if err != nil {
			return nil, err
		}
		at, last = o, o
	}
	return append(out, doc[base+at:]...), nil
}
