package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// modelFinding is a finding with its path spelled out: member names
// (decoded) and element indexes, each followed by a slash.
type modelFinding struct {
	Problem Problem
	Path    string
}

// badName spells a member name that is not valid UTF-8 (encoding/json
// decodes it with replacement characters, Step.Key leaves it as written).
const badName = "(not UTF-8)"

// spelled is found with its paths spelled out as scanModel spells them.
func spelled(found []Finding) []modelFinding {
	var out []modelFinding
	for _, f := range found {
		var p strings.Builder
		for _, st := range f.Path {
			switch {
			case st.Name == nil:
				p.WriteString(strconv.Itoa(st.Index))
			case !utf8.Valid(st.Name):
				p.WriteString(badName)
			default:
				p.WriteString(st.Key())
			}
			p.WriteString("/")
		}
		out = append(out, modelFinding{f.Problem, p.String()})
	}
	return out
}

// scanModel is the first scanner: obviously right and slow (a json.Decoder
// per object). FuzzScan checks that Scan finds exactly what it finds in a
// well-formed value.
func scanModel(found *[]modelFinding, raw []byte, path string, lim Limits, depth int) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return
	}
	if depth > lim.MaxDepth {
		*found = append(*found, modelFinding{TooDeep, path})
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
			name := key
			if !utf8.Valid(raw[start:dec.InputOffset()]) {
				name = badName
				*found = append(*found, modelFinding{BadName, path + name + "/"})
			} else if seen[key] {
				*found = append(*found, modelFinding{Duplicate, path + name + "/"})
			}
			seen[key] = true
			var val json.RawMessage
			if err := dec.Decode(&val); err != nil {
				return
			}
			scanModel(found, val, path+name+"/", lim, depth+1)
		}
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return
		}
		for i, item := range items {
			scanModel(found, item, path+strconv.Itoa(i)+"/", lim, depth+1)
		}
	case '"':
		if !utf8.Valid(raw) {
			*found = append(*found, modelFinding{BadUTF8, path})
			return
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && utf8.RuneCountInString(s) > lim.MaxString {
			*found = append(*found, modelFinding{TooLong, path})
		}
	}
}

// manyMembers is an object of n members m0, m1, ... and one more named
// name, which may repeat one of them.
func manyMembers(n int, name string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, `"m%d":%d, `, i, i)
	}
	b.WriteString(name + `:true}`)
	return b.String()
}

// valid is what Scan reports of b's syntax.
func valid(b []byte) bool {
	_, ok := Scan(b, Limits{MaxString: 4096, MaxDepth: 64}, nil)
	return ok
}

// FuzzScan compares Scan's syntax check with json.Valid on every text, and
// its findings with scanModel's on every well-formed one.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"a":2}`, `{"a":1, "a":2}`, "{\"a\":1,\n\t\"b\":\"long\", \"a\":3}", `{"amount":"12345678"}`, `[{"x":[1,2,{"y":"\u00e9\u00e9\u00e9"}]}]`,
		"{\"k\xff\":1}", "{\"s\":\"\xff\"}", `{"a_b":{"C1":{"_d":true}}}`, `{"Bad":null,"9x":[]}`,
		`{"s":"\ud800\udc00\ud800"}`, strings.Repeat(`[`, 70) + strings.Repeat(`]`, 70),
		strings.Repeat(`{"a":`, 66) + `"x"` + strings.Repeat(`}`, 66), ` { "a" : [ "b" , "c" ] } `,
		`{"a":1,"\u0061":2}`, `{"s":"\u00e9\u00e9\u00e9\u00e9"}`, manyMembers(20, `"m3"`), manyMembers(20, `"\u006d19"`),
	} {
		f.Add([]byte(s), 3, 64)
	}
	f.Fuzz(func(t *testing.T, body []byte, maxString, maxDepth int) {
		if maxDepth < 0 || maxDepth > 200 {
			return
		}
		if got, want := valid(body), json.Valid(body); got != want {
			t.Fatalf("Scan(%q) reports %v, json.Valid %v", body, got, want)
		}
		lim := Limits{MaxString: maxString, MaxDepth: maxDepth}
		found, ok := Scan(body, lim, nil)
		if !ok {
			return
		}
		var want []modelFinding
		scanModel(&want, body, "", lim, 0)
		if got := spelled(found); !reflect.DeepEqual(got, want) {
			t.Fatalf("Scan(%q) finds %v, want %v", body, got, want)
		}
	})
}

// TestScan_Valid compares Scan's syntax check with json.Valid on malformed
// texts of every kind and at encoding/json's nesting limit.
func TestScan_Valid(t *testing.T) {
	for _, s := range []string{
		``, ` `, `{}`, `[]`, `{"a":1,}`, `[1,]`, `[,1]`, `01`, `-01`, `1.`, `.5`, `-`, `1e`, `1e+`, `1E-7`, `-0.0e0`,
		`"\x"`, `"\u12"`, `"\u12g4"`, `"\uABCD"`, `"\/\b\f\n\r\t\"\\"`, "\"a\tb\"", `"abc`, `tru`, `true `, ` nul`,
		`falsey`, `{"a" 1}`, `{1:2}`, `{"a":}`, `[1 2]`, `{"a":[}`, `{"a":1}}`, `[[]`, `"\`, `{"a":"b"`, "\xff",
		"\"\xff\"", `[true,false,null,-1.5e+3,"s",{"k":[{}]}]`,
	} {
		assert.Equal(t, json.Valid([]byte(s)), valid([]byte(s)), "%q", s)
	}
	for _, n := range []int{maxNesting, maxNesting + 1} {
		s := []byte(strings.Repeat(`[`, n) + strings.Repeat(`]`, n))
		assert.Equal(t, json.Valid(s), valid(s), "%d nested arrays", n)
		o := []byte(strings.Repeat(`{"a":`, n) + `1` + strings.Repeat(`}`, n))
		assert.Equal(t, json.Valid(o), valid(o), "%d nested objects", n)
	}
}

// TestScan_SpaceBeforeName: a member name after white space is read from
// its quote, so a repeated name is found however the object is spaced, and
// a finding's path names its member.
func TestScan_SpaceBeforeName(t *testing.T) {
	found, ok := Scan([]byte("{\"a\":1, \"a\":2,\n\t\"b\":\"long\"}"), Limits{MaxString: 3, MaxDepth: 64}, nil)
	assert.True(t, ok)
	assert.Equal(t, []modelFinding{{Duplicate, "a/"}, {TooLong, "b/"}}, spelled(found))
}

// BenchmarkScan is Scan of a quote request, the body of every payment.
func BenchmarkScan(b *testing.B) {
	body := []byte(`{"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:1"},"destination":{"destinationType":"ACCOUNT","accountId":"ExternalAccount:2"},"lockedCurrencySide":"SENDING","lockedCurrencyAmount":1000, "description": "Invoice 7"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Scan(body, Limits{MaxString: 4096, MaxDepth: 64}, nil); !ok {
			b.Fatal("not valid")
		}
	}
}
