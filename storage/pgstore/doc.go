package pgstore

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/paygrid/payments/internal/jsonx"
)

// A row of a declared record table stores no field twice: doc holds the
// members no typed column holds. The value of a member a column holds
// exactly is replaced in doc by the one byte 0 when the record is written
// (appendDoc), and spelled back from the column when it is read (record),
// so the engine reads back the record byte for byte as it wrote it.
//
// A column's member is stripped (shape.strip) when the column tells an
// absent member from a present one (its declaration names no value for
// absent members: a NULL column is an absent or null member) and its value
// is not NULL, and when the column's value spelled as JSON (appendColumn:
// a string as the engine's encoder writes it, an integer in decimal, a
// numeric as PostgreSQL prints it, a time in UTC to the microsecond as
// Go's time.MarshalJSON writes it, true or false) is the member's bytes
// exactly. Any other member stays in doc as written: "1e2" in a numeric
// column, a time with an offset or with nanoseconds, a string the engine
// would escape otherwise.
//
// Reading is exact: a member whose value in doc is 0 and whose column is
// not NULL was stripped, for a record whose own member is 0 has a NULL
// column (0 is no string, time or boolean), but in a bigint or numeric
// column, whose 0 is spelled 0 again. A row written before the store
// stripped members has its record whole in doc and reads back unchanged,
// so no migration rewrites the rows; a record written again is stripped
// then.
//
// The journal (shape.journal) is not stripped: its narrow rows keep no doc
// but for an entry they would not spell back (journal.go). Nor is version
// 4's journal (journalV4), whose docs migration 5 reads as written.
//
// A user's query reads a column where it wants a member a column holds:
// doc->>'status' of a transaction is 0.

// stripColumns marks the columns of a declared table whose members are
// stripped from doc, and makes the table's read statements select them.
func (s *shape) stripColumns() {
	s.strip = s.strip[:0]
	for i, c := range s.cols {
		if c.absent == "" {
			s.strip = append(s.strip, i)
		}
	}
	s.statements()
}

// stripSQL is the select list of the stripped columns' values (made once,
// by statements).
func (s *shape) stripSQL() string { return s.stripSel }

// stripSelect makes the select list of the stripped columns' values, each
// as text that appendColumn spells as JSON: a time as microseconds since
// the epoch (exact: extract returns numeric).
func (s *shape) stripSelect() string {
	var out string
	for _, i := range s.strip {
		c := s.cols[i]
		switch c.typ {
		case colText:
			out += ", " + c.name
		case colTimestamptz:
			out += ", (extract(epoch FROM " + c.name + ") * 1000000)::bigint::text"
		default:
			out += ", " + c.name + "::text"
		}
	}
	return out
}

// docBuf is what appendDoc reuses from one record to the next.
type docBuf struct {
	scratch []byte
	cut     []int // the stripped columns of the record, in its order
}

// cuts returns the stripped columns whose members the doc of the record
// v leaves out (the column holds the member exactly), in the record's
// order, and how many bytes they take. row and spans are extract's of v.
func (s *shape) cuts(v []byte, row []pgtype.Text, spans []span, buf *docBuf) (cut []int, n int) {
	buf.cut = buf.cut[:0]
	for _, i := range s.strip {
		if sp := spans[i]; sp.end > 0 && row[i].Valid {
			var exact bool
			if exact, buf.scratch = holds(s.cols[i].typ, row[i].String, v[sp.start:sp.end], buf.scratch); exact {
				buf.cut = append(buf.cut, i)
				n += sp.end - sp.start - 1
			}
		}
	}
	slices.SortFunc(buf.cut, func(i, j int) int { return spans[i].start - spans[j].start })
	return buf.cut, n
}

// docOf returns the doc of the record v: v with the value of each stripped
// column's member replaced by 0 where the column holds it exactly (one
// allocation: the string itself).
func (s *shape) docOf(v []byte, row []pgtype.Text, spans []span, buf *docBuf) string {
	cut, n := s.cuts(v, row, spans, buf)
	if len(cut) == 0 {
		return string(v)
	}
	var b strings.Builder
	b.Grow(len(v) - n)
	at := 0
	for _, i := range cut {
		b.Write(v[at:spans[i].start])
		b.WriteByte('0')
		at = spans[i].end
	}
	b.Write(v[at:])
	return b.String()
}

// appendDoc appends the doc of the record v (docOf's) to b.
func (s *shape) appendDoc(b, v []byte, row []pgtype.Text, spans []span, buf *docBuf) []byte {
	cut, _ := s.cuts(v, row, spans, buf)
	at := 0
	for _, i := range cut {
		b = append(append(b, v[at:spans[i].start]...), '0')
		at = spans[i].end
	}
	return append(b, v[at:]...)
}

// holds reports whether raw is the JSON spelling of the value val of a
// column of type t (appendColumn's).
func holds(t colType, val string, raw, scratch []byte) (bool, []byte) {
	switch t {
	case colText:
		scratch = jsonx.AppendString(scratch[:0], val)
		return bytes.Equal(scratch, raw), scratch
	case colBigint:
		n, err := strconv.ParseInt(val, 10, 64)
		scratch = strconv.AppendInt(scratch[:0], n, 10)
		return err == nil && bytes.Equal(scratch, raw), scratch
	case colNumeric:
		return plainDecimal(raw), scratch
	case colTimestamptz:
		return len(raw) == len(val)+2 && string(raw[1:len(raw)-1]) == val && utcMicros(val), scratch
	case colBoolean:
		return string(raw) == "true" || string(raw) == "false", scratch
	}
	return false, scratch
}

// utcMicros reports whether val, a time that parses as RFC 3339 (typed
// checked it), is spelled as appendTime spells it: in UTC (Z), with a
// fraction of at most six digits (PostgreSQL keeps microseconds) that ends
// in no 0, after a point (Go reads a comma too), and T between date and
// time.
func utcMicros(val string) bool {
	const whole = len("2006-01-02T15:04:05Z")
	n := len(val)
	switch {
	case n < whole || val[10] != 'T' || val[n-1] != 'Z':
		return false
	case n == whole:
		return true
	}
	frac := val[whole-1 : n-1]
	if len(frac) < 2 || len(frac) > 7 || frac[0] != '.' || frac[len(frac)-1] == '0' {
		return false
	}
	for _, c := range []byte(frac[1:]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// plainDecimal reports whether raw is a number PostgreSQL's numeric prints
// as it is: digits without leading zeros, an optional fraction, no
// exponent, and a minus only before a value other than zero (numeric has
// no negative zero: -0.0 prints 0.0).
func plainDecimal(raw []byte) bool {
	p, nonzero := 0, false
	if p < len(raw) && raw[p] == '-' {
		p++
	}
	digits := func() int {
		n := 0
		for ; p < len(raw) && raw[p] >= '0' && raw[p] <= '9'; p++ {
			nonzero = nonzero || raw[p] != '0'
			n++
		}
		return n
	}
	start := p
	if n := digits(); n == 0 || n > 1 && raw[start] == '0' {
		return false
	}
	if p < len(raw) && raw[p] == '.' {
		p++
		if digits() == 0 {
			return false
		}
	}
	return p == len(raw) && (raw[0] != '-' || nonzero)
}

// appendColumn appends the JSON spelling of a stripped column's value as
// stripSQL selects it.
func appendColumn(b []byte, t colType, val string) ([]byte, error) {
	switch t {
	case colText:
		return jsonx.AppendString(b, val), nil
	case colTimestamptz:
		us, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return nil, err
		}
		return appendTime(b, time.UnixMicro(us)), nil
	}
	return append(b, val...), nil
}

// appendTime appends t as time.MarshalJSON writes it in UTC.
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// record returns the record of a row of the table: its doc with the value
// of each stripped member spelled back from its column (vals: the stripped
// columns' values as stripSQL selects them).
func (s *shape) record(doc []byte, vals []pgtype.Text) ([]byte, error) {
	if !slices.ContainsFunc(vals, func(v pgtype.Text) bool { return v.Valid }) {
		return doc, nil
	}
	spans := make([]span, len(s.cols))
	if err := extract(doc, s.paths, nil, nil, spans); err != nil {
		return nil, err
	}
	var cut []int // indexes into s.strip, in the record's order
	for j, i := range s.strip {
		if sp := spans[i]; vals[j].Valid && sp.end-sp.start == 1 && doc[sp.start] == '0' {
			cut = append(cut, j)
		}
	}
	if len(cut) == 0 {
		return doc, nil
	}
	slices.SortFunc(cut, func(a, b int) int { return spans[s.strip[a]].start - spans[s.strip[b]].start })
	out := make([]byte, 0, len(doc)+32*len(cut))
	at := 0
	for _, j := range cut {
		sp := spans[s.strip[j]]
		var err error
		if out, err = appendColumn(append(out, doc[at:sp.start]...), s.cols[s.strip[j]].typ, vals[j].String); err != nil {
			return nil, err
		}
		at = sp.end
	}
	return append(out, doc[at:]...), nil
}

// scanRecord scans a row of head's columns followed by a record of the
// table sh (nil: a value kept whole) as its read statements select it, and
// returns the record.
func scanRecord(rows pgx.Rows, sh *shape, head ...any) ([]byte, error) {
	_, v, err := scanRow(rows, sh, head...)
	return v, err
}

// scanRow is scanRecord, returning the row's doc too.
func scanRow(rows pgx.Rows, sh *shape, head ...any) (doc, record []byte, err error) {
	if sh == nil || len(sh.strip) == 0 {
		err := rows.Scan(append(head, &doc)...)
		return doc, doc, err
	}
	vals := make([]pgtype.Text, len(sh.strip))
	dst := append(head, &doc)
	for i := range vals {
		dst = append(dst, &vals[i])
	}
	if err := rows.Scan(dst...); err != nil {
		return nil, nil, err
	}
	record, err = sh.record(doc, vals)
	return doc, record, err
}
