package pgstore

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"
)

// docShape is a declared table with a column of every type, a nested
// one, and one with a value for absent members (never stripped).
func docShape() *shape {
	sh := newShape("things", "things",
		text("name", "name"),
		text("city", "address.city"),
		column{name: "n", typ: colBigint, path: "n"},
		column{name: "amount", typ: colNumeric, path: "amount"},
		timestamptz("at", "at"),
		column{name: "ok", typ: colBoolean, path: "ok"},
		column{name: "flag", typ: colBoolean, path: "flag", absent: "false"})
	sh.stripColumns()
	return sh
}

// pgText is the text PostgreSQL answers for a stripped column (stripSQL)
// of value v as written (extract's). A numeric it would print otherwise
// than plainDecimal's is given a text no member has: only a member whose
// value is 0 is spelled back, and a numeric member 0 is plain.
func pgText(t colType, v pgtype.Text) pgtype.Text {
	if !v.Valid {
		return v
	}
	switch t {
	case colBigint:
		n, _ := strconv.ParseInt(v.String, 10, 64)
		v.String = strconv.FormatInt(n, 10)
	case colNumeric:
		if !plainDecimal([]byte(v.String)) {
			v.String = "~" + v.String
		}
	case colTimestamptz:
		at, _ := time.Parse(time.RFC3339Nano, v.String)
		v.String = strconv.FormatInt(at.Round(time.Microsecond).UnixMicro(), 10)
	}
	return v
}

// FuzzDoc: a record stripped of the members its columns hold (appendDoc)
// and spelled back from the columns' values as PostgreSQL answers them
// (record) is the record byte for byte; its doc is JSON; a record kept
// whole (a row written before members were stripped) reads unchanged.
func FuzzDoc(f *testing.F) {
	for _, seed := range []string{
		`{"name":"plain","address":{"city":"Austin","zip":"78701"},"n":42,"amount":1.50,"at":"2026-01-02T03:04:05.123456Z","ok":true,"flag":true}`,
		`{"name":"\u003cb\u003e \u0026 \"q\" \\ é 日本 \u2028","n":-7,"amount":1e2,"at":"2026-01-02T03:04:05+02:00","ok":false}`,
		`{"name":"<b>","n":0,"amount":0,"at":"2026-01-02T03:04:05.123456789Z","ok":null,"address":{"city":0}}`,
		`{"name":0,"n":"0","amount":-0.0,"at":0,"ok":0,"flag":0}`,
		`{"name":"x","name":"y","address":{"city":"Paris"},"address":{"zip":"1"},"n":1,"n":2}`,
		`{"name":0,"name":"last","amount":0.000,"at":"2026-01-02T03:04:05.1Z","extra":{"name":"inner"}}`,
		`{ "name" : "spaced" , "n" : 9223372036854775807 , "amount" : 123456789012345678901234567890.0001 }`,
		`{"name":"caf\u00e9","at":"0001-01-01T00:00:00Z","amount":-12.340,"n":5,"n":0}`,
		`{"address":{"city":"A"},"address":5,"ok":true,"ok":0}`,
		`{}`,
	} {
		f.Add(seed)
	}
	sh := docShape()
	f.Fuzz(func(t *testing.T, v string) {
		if !json.Valid([]byte(v)) || !utf8.ValidString(v) || strings.Contains(v, `\u0000`) {
			return // PostgreSQL's json and text refuse it: the write fails
		}
		row := make([]pgtype.Text, len(sh.cols))
		spans := make([]span, len(sh.cols))
		if extract([]byte(v), sh.paths, sh.absent, row, spans) != nil {
			return // not an object: the write fails
		}
		vals := make([]pgtype.Text, len(sh.strip))
		for j, i := range sh.strip {
			vals[j] = pgText(sh.cols[i].typ, row[i])
		}
		doc := sh.appendDoc(nil, []byte(v), row, spans, &docBuf{})
		if s := sh.docOf([]byte(v), row, spans, &docBuf{}); s != string(doc) {
			t.Fatalf("docOf %s, appendDoc %s", s, doc)
		}
		if !json.Valid(doc) {
			t.Fatalf("doc %s of %s is not JSON", doc, v)
		}
		got, err := sh.record(doc, vals)
		if err != nil || string(got) != v {
			t.Fatalf("record %s\nstored %s\nread   %s (%v)", v, doc, got, err)
		}
		if whole, err := sh.record([]byte(v), vals); err != nil || string(whole) != v {
			t.Fatalf("record %s kept whole reads %s (%v)", v, whole, err)
		}
	})
}
