package pgstore

import (
	"bytes"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/paygrid/payments/internal/jsonx"
)

// A row of a declared record table stores no field twice: doc holds the
// members no typed column holds. A member a column holds exactly is left
// out of doc when the record is written (appendDoc), name, value and one
// comma beside it, and spelled back from the column when it is read
// (record), so the engine reads back the record byte for byte as it wrote
// it. So is the record's own id member, which the row's key holds.
//
// Where members were left out, doc's first member says where: "~", a
// string of one entry per member in the record's order, each a letter
// naming the member's column and the decimal distance in bytes from the
// place of the entry before (the first: from the start) to the place in
// the rest of doc (doc without its "~" member) where the member goes
// back. The letter is the column's number in its table (a for the first
// column, id; z the 26th, A to Z the 27th to 52nd), which never changes
// while the table stands, so rows written under one declaration read
// right under the next (a column past the 52nd is not cut). A quote's
// doc so begins {"~":"a1b0p0q0e10f0g17h0*i2*j0k0l0m0n0o25c178", and holds
// no id, status, times, account ids, currencies or amounts.
//
// An object a column's value names (engine.Column's Object: a currency
// object, by its code) is left out whole where its bytes are the ones kept
// for the column's value in payments_doc_objects (objects.go), its entry
// a * before the column's letter; reading takes the kept bytes back from
// that table (a subquery of the read statements). The column's own member
// goes with the object.
//
// Reading puts each member back at its place, the comma spelled as the
// neighbouring bytes say: alone between { and }, after a comma before a
// }, else followed by a comma. The writer removes a member with the
// comma after it, else the comma before it, right to left, and spells
// the doc back before it keeps it: a record it would not read back
// exactly (a space beside a member, a name spelled with an escape) is
// written in the form before, below.
//
// A column's member is cut (shape.strip) when the column tells an absent
// member from a present one (its declaration names no value for absent
// members: a NULL column is an absent or null member) and its value is
// not NULL, when the member's name is spelled plainly ("name":, no space),
// and when the column's value spelled as JSON (appendColumn: a string as
// the engine's encoder writes it, an integer in decimal, a numeric as
// PostgreSQL prints it, a time in UTC to the microsecond as Go's
// time.MarshalJSON writes it, true or false) is the member's bytes
// exactly. Any other member stays in doc as written: "1e2" in a numeric
// column, a time with an offset or with nanoseconds, a string the engine
// would escape otherwise. The id member is cut when it is the record's
// first member and is the row's key as the engine spells it.
//
// Two forms written before still read unchanged, so no migration rewrites
// the rows; a record written again is cut then. A doc without "~" first
// either replaces the value of each member a column holds exactly by the
// one byte 0 (the form the writer still falls back to), or is the record
// whole (a row written before the store stripped members). Reading those
// is exact: a member whose value in doc is 0 and whose column is not NULL
// was stripped, for a record whose own member is 0 has a NULL column (0
// is no string, time or boolean), but in a bigint or numeric column, whose
// 0 is spelled 0 again. A record that itself begins with a "~" member is
// written with an empty "~" before it.
//
// The journal (shape.journal) is not stripped: its narrow rows keep no doc
// but for an entry they would not spell back (journal.go). Nor is version
// 4's journal (journalV4), whose docs migration 5 reads as written.
//
// A doc that holds nothing but its "~" member and empty objects is the
// record's shape, which a row may name instead of holding (shapes.go).
//
// A user's query reads a column where it wants a member a column holds:
// doc->>'status' of a transaction is NULL; doc->>'name' of a member no
// column holds is its value, but for an object a column names, which is
// payments_doc_objects' obj for the table, the column and its value.

// stripColumns marks the columns of a declared table whose members are
// stripped from doc, and makes the table's read statements select them.
// No member is cut until setCodes names the columns.
func (s *shape) stripColumns() {
	s.strip = s.strip[:0]
	for i, c := range s.cols {
		if c.absent == "" {
			s.strip = append(s.strip, i)
		}
	}
	s.codes, s.keys, s.idCode, s.objKeys, s.objVals, s.shapes = nil, nil, 0, nil, nil, false
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
	if s.idCode != 0 {
		out += ", id"
	}
	for j, k := range s.objKeys {
		if k != "" {
			c := s.cols[s.strip[j]].name
			out += ", (SELECT o.obj FROM payments_doc_objects o WHERE o.tbl = " + literal(s.sql) + " AND o.col = " + literal(c) +
				" AND o.val = " + ident(s.sql) + "." + c + ")"
		}
	}
	if s.shapes {
		out += s.shapeSelect()
	}
	return out
}

// docBuf is what appendDoc reuses from one record to the next.
type docBuf struct {
	scratch []byte
	cut     []int    // the stripped columns of the record, in its order
	members []member // the members cut from the record, in its order
	check   []byte   // the doc spelled back
	doc     []byte   // docOf's doc
}

// cuts returns the stripped columns whose members the doc of the record
// v replaces by 0 (the column holds the member exactly), in the record's
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

// docOf returns the doc of the record v stored at key (appendDoc's; one
// allocation: the string itself, once buf fits records of v's size).
func (s *shape) docOf(key string, v []byte, row []pgtype.Text, spans []span, buf *docBuf) string {
	buf.fit(len(v), len(s.strip)+1)
	buf.doc = s.appendDoc(buf.doc[:0], key, v, row, spans, buf)
	return string(buf.doc)
}

// appendDoc appends the doc of the record v stored at key to b: v without
// the members the columns and the key hold (appendCut), or where that
// would not read back, v with their values 0 (appendZeroed). row and
// spans are extract's of v.
func (s *shape) appendDoc(b []byte, key string, v []byte, row []pgtype.Text, spans []span, buf *docBuf) []byte {
	if out, ok := s.appendCut(b, key, v, row, spans, buf); ok {
		return s.shaped(out, len(b))
	}
	if bytes.HasPrefix(v, []byte(cutMark)) {
		return append(append(b, cutMark+`",`...), v[1:]...)
	}
	return s.appendZeroed(b, v, row, spans, buf)
}

// appendZeroed appends v with the value of each stripped column's member
// replaced by 0 where the column holds it exactly.
func (s *shape) appendZeroed(b, v []byte, row []pgtype.Text, spans []span, buf *docBuf) []byte {
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

// record returns the record of a row of the table: its doc with each
// member it leaves out put back, or the value of each stripped member it
// holds as 0 spelled back, from the columns (vals: the stripped columns'
// values, and the id where it is cut, as stripSQL selects them).
func (s *shape) record(doc []byte, vals []pgtype.Text) ([]byte, error) {
	if s.shapes && len(vals) > 0 {
		var err error
		if doc, err = unshaped(doc, vals[len(vals)-1]); err != nil {
			return nil, err
		}
	}
	if bytes.HasPrefix(doc, []byte(cutMark)) {
		return uncut(make([]byte, 0, len(doc)+24*len(vals)), doc, func(out []byte, code byte, obj bool) ([]byte, error) {
			if code == s.idCode && !obj && len(vals) > len(s.strip) && vals[len(s.strip)].Valid {
				return jsonx.AppendString(append(out, `"id":`...), vals[len(s.strip)].String), nil
			}
			j := bytes.IndexByte(s.codes, code)
			switch {
			case j < 0:
				return nil, errCut
			case obj:
				if k := s.objVals[j]; k >= 0 && k < len(vals) && vals[k].Valid {
					return append(append(out, s.objKeys[j]...), vals[k].String...), nil
				}
				return nil, errCut
			case !vals[j].Valid:
				return nil, errCut
			}
			return appendColumn(append(out, s.keys[j]...), s.cols[s.strip[j]].typ, vals[j].String)
		})
	}
	if !slices.ContainsFunc(vals[:len(s.strip)], func(v pgtype.Text) bool { return v.Valid }) {
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
	if sh == nil || sh.nvals() == 0 {
		err := rows.Scan(append(head, &doc)...)
		return doc, doc, err
	}
	vals := make([]pgtype.Text, sh.nvals())
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
