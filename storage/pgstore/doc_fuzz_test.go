package pgstore

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"
)

// docShape is a declared table with a column of every type, a nested
// one, one with a value for absent members (never stripped), and one whose
// value names an object (kept for the value USD), its columns numbered as
// a table created for it numbers them (id first).
func docShape() *shape {
	sh := newShape("things", "things",
		text("name", "name"),
		text("city", "address.city"),
		column{name: "n", typ: colBigint, path: "n"},
		column{name: "amount", typ: colNumeric, path: "amount"},
		timestamptz("at", "at"),
		column{name: "ok", typ: colBoolean, path: "ok"},
		column{name: "flag", typ: colBoolean, path: "flag", absent: "false"},
		text("cur", "money.cur.code"))
	sh.objects = []string{7: "money.cur"}
	sh.kept = &keptObjects{known: map[objectKey]string{{"things", "cur", "USD"}: keptUSD}}
	sh.stripColumns()
	sh.setCodes(func(name string) int {
		if name == "id" {
			return 1
		}
		return slices.IndexFunc(sh.cols, func(c column) bool { return c.name == name }) + 2
	})
	return sh
}

// keptUSD is the object kept for the value USD of docShape's column cur.
const keptUSD = `{"code":"USD","name":"Dollar"}`

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

// FuzzDoc: a record stored at a key, without the members its columns and
// the key hold and the objects kept as its columns' values name them
// (appendDoc), and spelled back from the columns' values as
// PostgreSQL answers them (record), is the record byte for byte; its doc
// is JSON; the two forms written before read unchanged: the record with
// those members 0 (appendZeroed), and the record kept whole.
func FuzzDoc(f *testing.F) {
	for _, seed := range []struct{ v, key string }{
		{`{"name":"plain","address":{"city":"Austin","zip":"78701"},"n":42,"amount":1.50,"at":"2026-01-02T03:04:05.123456Z","ok":true,"flag":true}`, "a"},
		{`{"name":"\u003cb\u003e \u0026 \"q\" \\ é 日本 \u2028","n":-7,"amount":1e2,"at":"2026-01-02T03:04:05+02:00","ok":false}`, "b"},
		{`{"name":"<b>","n":0,"amount":0,"at":"2026-01-02T03:04:05.123456789Z","ok":null,"address":{"city":0}}`, "c"},
		{`{"name":0,"n":"0","amount":-0.0,"at":0,"ok":0,"flag":0}`, "d"},
		{`{"name":"x","name":"y","address":{"city":"Paris"},"address":{"zip":"1"},"n":1,"n":2}`, "e"},
		{`{"name":0,"name":"last","amount":0.000,"at":"2026-01-02T03:04:05.1Z","extra":{"name":"inner"}}`, "f"},
		{`{ "name" : "spaced" , "n" : 9223372036854775807 , "amount" : 123456789012345678901234567890.0001 }`, "g"},
		{`{"name":"caf\u00e9","at":"0001-01-01T00:00:00Z","amount":-12.340,"n":5,"n":0}`, "h"},
		{`{"address":{"city":"A"},"address":5,"ok":true,"ok":0}`, "i"},
		{`{}`, "j"},
		{`{"id":"k","name":"x","address":{"city":"B"},"n":1}`, "k"},
		{`{"id":"k"}`, "k"},
		{`{"id":"k","id":"k","name":"x"}`, "k"},
		{`{"id":"other","name":"x"}`, "k"},
		{`{"id":"<k>","n":3}`, "<k>"},
		{`{"~":"a1","name":"x"}`, "l"},
		{`{"~":"a1"}`, "l"},
		{`{"name":"a" ,"n":1}`, "m"},
		{`{"n":1, "name":"a"}`, "m"},
		{`{"address":{"city":"C"},"name":"a"}`, "n"},
		{`{"\u006eame":"a","n":1}`, "o"},
		{`{"id":"p","money":{"amount":1,"cur":{"code":"USD","name":"Dollar"}},"name":"x"}`, "p"},
		{`{"money":{"cur":{"code":"USD","name":"Dollar"}}}`, "q"},
		{`{"money":{"cur":{"code":"USD","name":"US Dollar"}}}`, "r"},
		{`{"money":{"cur":{"code":"EUR","name":"Dollar"}}}`, "s"},
		{`{"money":{"cur":{"name":"Dollar","code":"USD"}},"money":{"cur":{"code":"USD","name":"Dollar"}}}`, "t"},
		{`{"money":{"cur":{"code":"USD","name":"Dollar"},"cur":{"code":"USD","name":"Dollar"}}}`, "u"},
		{shapeSeed, "v"},
		{`{"id":"w","address":{"city":"Austin","zip":"78701"},"money":{"cur":{"code":"USD","name":"Dollar"}},"n":1,"amount":2,"ok":true}`, "w"},
	} {
		f.Add(seed.v, seed.key)
	}
	sh := docShape()
	f.Fuzz(func(t *testing.T, v, key string) {
		if !json.Valid([]byte(v)) || !utf8.ValidString(v) || strings.Contains(v, `\u0000`) ||
			!utf8.ValidString(key) || strings.ContainsRune(key, 0) {
			return // PostgreSQL's json and text refuse it: the write fails
		}
		row := make([]pgtype.Text, len(sh.cols))
		spans := make([]span, 2*len(sh.cols))
		if extract([]byte(v), sh.paths, sh.absent, row, spans) != nil {
			return // not an object: the write fails
		}
		vals := make([]pgtype.Text, sh.nvals())
		for j, i := range sh.strip {
			vals[j] = pgText(sh.cols[i].typ, row[i])
		}
		vals[len(sh.strip)] = pgtype.Text{String: key, Valid: true}
		if cur := row[7]; cur.Valid && cur.String == "USD" {
			vals[sh.objVals[slices.Index(sh.strip, 7)]] = pgtype.Text{String: keptUSD, Valid: true}
		}
		doc := sh.appendDoc(nil, key, []byte(v), row, spans, &docBuf{})
		if bytes.HasPrefix(doc, []byte(shapeMark)) { // a shape an earlier input kept
			kept, _ := sh.kept.get(objectKey{sh.sql, shapeCol, string(doc[len(cutMark) : len(doc)-2])})
			vals[len(vals)-1] = pgtype.Text{String: kept, Valid: true}
		}
		if s := sh.docOf(key, []byte(v), row, spans, &docBuf{}); s != string(doc) {
			t.Fatalf("docOf %s, appendDoc %s", s, doc)
		}
		if !json.Valid(doc) {
			t.Fatalf("doc %s of %s is not JSON", doc, v)
		}
		got, err := sh.record(doc, vals)
		if err != nil || string(got) != v {
			t.Fatalf("record %s\nstored %s\nread   %s (%v)", v, doc, got, err)
		}
		if named, ok := namedShape(t, sh, key, []byte(v), doc, row, spans); ok {
			shaped := slices.Clone(vals)
			shaped[len(shaped)-1] = pgtype.Text{String: string(doc), Valid: true}
			if got, err := sh.record(named, shaped); err != nil || string(got) != v {
				t.Fatalf("record %s\nstored naming its shape %s (%s)\nread   %s (%v)", v, named, doc, got, err)
			}
		}
		if strings.HasPrefix(v, cutMark) {
			return // the forms before never held such a record
		}
		zeroed := sh.appendZeroed(nil, []byte(v), row, spans, &docBuf{})
		if got, err := sh.record(zeroed, vals); err != nil || string(got) != v {
			t.Fatalf("record %s\nstored with 0 %s\nread   %s (%v)", v, zeroed, got, err)
		}
		if whole, err := sh.record([]byte(v), vals); err != nil || string(whole) != v {
			t.Fatalf("record %s kept whole reads %s (%v)", v, whole, err)
		}
	})
}

// shapeSeed is a record whose doc is a shape (shapes.go): every member but
// two objects is a column's.
const shapeSeed = `{"id":"v","name":"x","address":{"city":"Austin"},"money":{"cur":{"code":"USD","name":"Dollar"}},"n":1,"amount":2,"at":"2026-01-02T03:04:05Z","ok":true}`

// namedShape returns the doc of the record v once the shape doc, its doc,
// is kept (the store learns it), and whether doc is a shape: the doc that
// names the shape (t fails where it does not).
func namedShape(t testing.TB, sh *shape, key string, v, doc []byte, row []pgtype.Text, spans []span) ([]byte, bool) {
	if !bytes.HasPrefix(doc, []byte(cutMark)) || len(doc) < minShape || len(doc) > maxShape || !isShape(doc) {
		return nil, false
	}
	sh.kept.mu.Lock()
	sh.kept.known[objectKey{sh.sql, shapeCol, shapeName(doc)}] = string(doc)
	sh.kept.mu.Unlock()
	named := sh.appendDoc(nil, key, v, row, spans, &docBuf{})
	if string(named) != cutMark+shapeName(doc)+`"}` {
		t.Fatalf("the doc of %s names not its kept shape %s: %s", v, doc, named)
	}
	return named, true
}

// TestDoc_ShapeSeedIsAShape: FuzzDoc's seed reaches the shapes' path.
func TestDoc_ShapeSeedIsAShape(t *testing.T) {
	sh := docShape()
	row := make([]pgtype.Text, len(sh.cols))
	spans := make([]span, 2*len(sh.cols))
	if err := extract([]byte(shapeSeed), sh.paths, sh.absent, row, spans); err != nil {
		t.Fatal(err)
	}
	doc := sh.appendDoc(nil, "v", []byte(shapeSeed), row, spans, &docBuf{})
	if _, ok := namedShape(t, sh, "v", []byte(shapeSeed), doc, row, spans); !ok {
		t.Fatalf("the seed's doc %s (%d bytes) is no shape", doc, len(doc))
	}
}
