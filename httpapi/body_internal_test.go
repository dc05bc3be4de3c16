package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paygrid/payments/validate"
)

// scanJSONModel is the first body scanner: obviously right and slow (a
// json.Decoder per object, a regexp per member name). FuzzScanJSON checks
// that the single-pass scanner (jsonx.Scan) and the field errors made of
// its findings (bodyFindings) report exactly what it reports.
func scanJSONModel(fe *validate.Errors, raw []byte, path string, maxString, depth int) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return
	}
	if depth > maxJSONDepth {
		fe.Add(path, nil, "the request body nests deeper than %d levels", maxJSONDepth)
		return
	}
	switch raw[0] {
	case '{':
		dec := json.NewDecoder(bytes.NewReader(raw))
		if _, err := dec.Token(); err != nil {
			return
		}
		seen := map[string]bool{}
		for dec.More() {
			start := dec.InputOffset()
			tok, err := dec.Token()
			if err != nil {
				return
			}
			key, _ := tok.(string)
			field := memberFieldModel(path, key)
			if !utf8.Valid(raw[start:dec.InputOffset()]) {
				fe.Add(field, nil, "a member name of %s is not valid UTF-8", orBody(path))
			} else if seen[key] {
				fe.Add(field, nil, "%s appears more than once", field)
			}
			seen[key] = true
			var val json.RawMessage
			if err := dec.Decode(&val); err != nil {
				return
			}
			scanJSONModel(fe, val, field, maxString, depth+1)
		}
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return
		}
		for i, item := range items {
			scanJSONModel(fe, item, joinPath(path, strconv.Itoa(i)), maxString, depth+1)
		}
	case '"':
		if !utf8.Valid(raw) {
			fe.Add(orBody(path), nil, "%s is not valid UTF-8", orBody(path))
			return
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && utf8.RuneCountInString(s) > maxString {
			fe.Add(orBody(path), &validate.Constraint{MaxLength: &maxString}, "%s must be at most %d characters", orBody(path), maxString)
		}
	}
}

var (
	reMember    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	reTopMember = regexp.MustCompile(`^[a-z][A-Za-z0-9]{0,63}$`)
)

func memberFieldModel(path, key string) string {
	re := reMember
	if path == "" {
		re = reTopMember
	}
	if !utf8.ValidString(key) || !re.MatchString(key) {
		return orBody(path)
	}
	return joinPath(path, key)
}

// manyMembers is an object of n members m0, m1, ... and one more named
// name, which may repeat one of them.
func manyMembers(n int, name string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, `"m%d":%d,`, i, i)
	}
	b.WriteString(name + `:true}`)
	return b.String()
}

// validJSON is what bodyFindings reports of b's syntax.
func validJSON(b []byte) bool {
	_, ok := bodyFindings(b, DefaultMaxStringLength)
	return ok
}

// FuzzScanJSON compares bodyFindings's syntax check (validJSON) with
// json.Valid on every body, its field errors with scanJSONModel on every
// well-formed one, and memberName with the regular expressions it
// replaced.
func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"a":2}`, `{"a":1, "a":2}`, "{\"x\":1,\n\t\"bb\":\"long\"}", `{"amount":"12345678"}`, `[{"x":[1,2,{"y":"\u00e9\u00e9\u00e9"}]}]`,
		"{\"k\xff\":1}", "{\"s\":\"\xff\"}", `{"a_b":{"C1":{"_d":true}}}`, `{"Bad":null,"9x":[]}`,
		`{"s":"\ud800\udc00\ud800"}`, strings.Repeat(`[`, 70) + strings.Repeat(`]`, 70),
		strings.Repeat(`{"a":`, 66) + `"x"` + strings.Repeat(`}`, 66), ` { "a" : [ "b" , "c" ] } `,
		`{"a":1,"\u0061":2}`, `{"s":"\u00e9\u00e9\u00e9\u00e9"}`, manyMembers(20, `"m3"`), manyMembers(20, `"\u006d19"`),
	} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, body []byte, maxString int) {
		if got, want := validJSON(body), json.Valid(body); got != want {
			t.Fatalf("validJSON(%q) = %v, want %v", body, got, want)
		}
		if !json.Valid(body) {
			return
		}
		var want validate.Errors
		got, _ := bodyFindings(body, maxString)
		scanJSONModel(&want, body, "", maxString, 0)
		if !reflect.DeepEqual(got.Err(), want.Err()) {
			t.Fatalf("bodyFindings(%q) = %v, want %v", body, got.Err(), want.Err())
		}
		for _, key := range []string{string(body), strings.Trim(string(body), `{}"[]:`)} {
			for _, top := range []bool{true, false} {
				re := reMember
				if top {
					re = reTopMember
				}
				if w := utf8.ValidString(key) && re.MatchString(key); memberName(key, top) != w {
					t.Fatalf("memberName(%q, top %v) = %v, want %v", key, top, !w, w)
				}
			}
		}
	})
}
