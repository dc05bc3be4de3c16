package jsonx

import (
	"encoding/json"
	"testing"
)

// FuzzReader holds the Reader's reads to encoding/json: Value and AtEnd
// accept exactly what json.Valid does; Quoted encloses what a string
// decodes from; String, Int64 and Bool read only what decodes to what
// they return.
func FuzzReader(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, ` "x\u00e9" `, `-12`, `1e3`, `true`, `false `, `"a\"b"`, "\"\xff\"", `123456789012345678`, `1234567890123456789`, `[`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(b)
		if got, want := r.Value() && r.AtEnd(), json.Valid(b); got != want {
			t.Fatalf("Value(%q) and AtEnd: %v, json.Valid %v", b, got, want)
		}
		r = NewReader(b)
		if q, ok := r.Quoted(); ok && r.AtEnd() {
			var want string
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatalf("Quoted(%q) read %q, encoding/json: %v", b, q, err)
			}
		}
		r = NewReader(b)
		if s, ok := r.String(); ok && r.AtEnd() {
			var want string
			if err := json.Unmarshal(b, &want); err != nil || want != string(s) {
				t.Fatalf("String(%q) = %q, encoding/json %q (%v)", b, s, want, err)
			}
		}
		r = NewReader(b)
		if n, ok := r.Int64(); ok && r.AtEnd() {
			var want int64
			if err := json.Unmarshal(b, &want); err != nil || want != n {
				t.Fatalf("Int64(%q) = %d, encoding/json %d (%v)", b, n, want, err)
			}
		}
		r = NewReader(b)
		if v, ok := r.Bool(); ok && r.AtEnd() {
			var want bool
			if err := json.Unmarshal(b, &want); err != nil || want != v {
				t.Fatalf("Bool(%q) = %v, encoding/json %v (%v)", b, v, want, err)
			}
		}
	})
}
