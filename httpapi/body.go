package httpapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/jsonx"
	"github.com/paygrid/payments/validate"
)

// DefaultMaxStringLength caps every JSON string of a request body (in
// characters) where Config.MaxStringLength is zero. Fields the reference
// bounds are checked to its maxLength by the engine; this cap bounds every
// other free string (names, references, notes) so that no member can carry
// a body-sized value.
const DefaultMaxStringLength = 4096

// maxJSONDepth bounds the nesting of a request body. No request type nests
// anywhere near it, so a deeper body is refused (INVALID_INPUT at the path
// where it passes the bound) before a decoder walks it.
const maxJSONDepth = 64

// checkBody applies the rules every JSON request body meets before any
// handler sees it, so that validation always comes before state: a body is
// declared application/json (415 UNSUPPORTED_MEDIA_TYPE otherwise), is
// well-formed JSON, holds only valid UTF-8, repeats no member of an object
// and no string longer than maxString characters (400 INVALID_INPUT naming
// each offending field). An empty body passes: each operation decides
// whether it needs one.
func checkBody(hr *http.Request, body []byte, maxString int) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	mt, _, err := mime.ParseMediaType(hr.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return payments.Errorf(payments.CodeUnsupportedMediaType, "a request body must be sent as Content-Type: application/json")
	}
	if !validJSON(body) {
		dec := json.NewDecoder(bytes.NewReader(body))
		var v any
		err := dec.Decode(&v)
		if se, ok := err.(*json.SyntaxError); ok {
			return payments.Errorf(payments.CodeInvalidInput, "malformed JSON at byte %d", se.Offset)
		}
		return payments.Errorf(payments.CodeInvalidInput, "malformed JSON: the body is not a single JSON value")
	}
	var fe validate.Errors
	scanJSON(&fe, body, "", maxString, 0)
	return payments.Invalid(fe.Err())
}

// scanJSON records duplicate members, invalid UTF-8 and over-long strings
// in the well-formed JSON value raw at path. It reads raw once, left to
// right (json.Valid has already accepted it), and spells a field's name out
// only for a container or a finding: a body without findings costs an
// allocation per nested object or array.
func scanJSON(fe *validate.Errors, raw []byte, path string, maxString, depth int) {
	s := bodyScanner{fe: fe, raw: raw, max: maxString}
	s.value(at{path: path}, depth, true)
}

// bodyScanner walks one well-formed JSON value. report is false while it
// skips a value nested deeper than maxJSONDepth (reported once, at its path).
type bodyScanner struct {
	fe  *validate.Errors
	raw []byte
	i   int
	max int
}

// at is where a value sits: member name of, or element n of, the container
// at path; or path itself.
type at struct {
	path string
	name jsonString // a member's name
	n    int        // an element's index
	kind byte       // 'm' member, 'e' element, 0 path itself
}

// field is a's field name.
func (a at) field() string {
	switch a.kind {
	case 'm':
		return memberField(a.path, a.name.String())
	case 'e':
		return joinPath(a.path, strconv.Itoa(a.n))
	}
	return a.path
}

// jsonString is a JSON string as written, quotes included.
type jsonString []byte

// escaped reports whether the string holds an escape.
func (j jsonString) escaped() bool { return bytes.IndexByte(j, '\\') >= 0 }

// String is the string's value (escapes decoded as encoding/json decodes
// them; other bytes as they are).
func (j jsonString) String() string {
	if !j.escaped() {
		return string(j[1 : len(j)-1])
	}
	var v string
	_ = json.Unmarshal(j, &v)
	return v
}

// equal reports whether j and k have the same value.
func (j jsonString) equal(k jsonString) bool {
	if !j.escaped() && !k.escaped() {
		return bytes.Equal(j, k)
	}
	return j.String() == k.String()
}

// space skips JSON whitespace at s.i.
func (s *bodyScanner) space() { s.i = jsonx.SkipSpace(s.raw, s.i) }

// value scans the value at s.i (after any space), which sits at a.
func (s *bodyScanner) value(a at, depth int, report bool) {
	s.space()
	if s.i >= len(s.raw) {
		return
	}
	if report && depth > maxJSONDepth {
		s.fe.Add(a.field(), nil, "the request body nests deeper than %d levels", maxJSONDepth)
		report = false
	}
	switch s.raw[s.i] {
	case '{':
		s.object(a, depth, report)
	case '[':
		s.i++
		path := ""
		if report {
			path = a.field()
		}
		for n := 0; s.more(']'); n++ {
			s.value(at{path: path, n: n, kind: 'e'}, depth+1, report)
		}
	case '"':
		v := s.str()
		switch {
		case !report:
		case !utf8.Valid(v):
			s.fe.Add(orBody(a.field()), nil, "%s is not valid UTF-8", orBody(a.field()))
		case len(v)-2 <= s.max: // no more characters than bytes
		case utf8.RuneCountInString(v.String()) > s.max:
			f := orBody(a.field())
			s.fe.Add(f, &validate.Constraint{MaxLength: &s.max}, "%s must be at most %d characters", f, s.max)
		}
	default: // number, true, false, null
		for s.i < len(s.raw) && !strings.ContainsRune(",]} \t\n\r", rune(s.raw[s.i])) {
			s.i++
		}
	}
}

// smallObject is how many member names an object's duplicate check
// compares one by one; a larger object's names go into a map.
const smallObject = 16

// object scans the object at s.i, which sits at a.
func (s *bodyScanner) object(a at, depth int, report bool) {
	s.i++
	path := ""
	if report {
		path = a.field()
	}
	var buf [smallObject]jsonString
	names := buf[:0]
	var many map[string]bool
	for s.more('}') {
		m := at{path: path, name: s.str(), kind: 'm'}
		if report {
			switch {
			case !utf8.Valid(m.name):
				s.fe.Add(m.field(), nil, "a member name of %s is not valid UTF-8", orBody(path))
			case seenName(names, many, m.name):
				f := m.field()
				s.fe.Add(f, nil, "%s appears more than once", f)
			}
			if len(names) < smallObject {
				names = append(names, m.name)
			} else {
				if many == nil {
					many = make(map[string]bool, 2*smallObject)
					for _, n := range names {
						many[n.String()] = true
					}
				}
				many[m.name.String()] = true
			}
		}
		s.space()
		s.i++ // ':'
		s.value(m, depth+1, report)
	}
}

// seenName reports whether name is among names or in many.
func seenName(names []jsonString, many map[string]bool, name jsonString) bool {
	if many != nil {
		return many[name.String()]
	}
	for _, n := range names {
		if n.equal(name) {
			return true
		}
	}
	return false
}

// more reports whether the object or array being scanned, which ends
// with end, has another member or element; if so s.i is at it, else past
// end.
func (s *bodyScanner) more(end byte) bool {
	s.space()
	if s.i >= len(s.raw) || s.raw[s.i] == end {
		s.i++
		return false
	}
	if s.raw[s.i] == ',' {
		s.i++
		s.space()
	}
	return true
}

// str reads the string at s.i and returns it as written; s.i ends past its
// closing quote.
func (s *bodyScanner) str() jsonString {
	start := s.i
	s.i++
	for s.i < len(s.raw) && s.raw[s.i] != '"' {
		if s.raw[s.i] == '\\' {
			s.i++
		}
		s.i++
	}
	s.i++
	return jsonString(s.raw[start:min(s.i, len(s.raw))])
}

// memberField names member key of the object at path in a field error: its
// path when key reads as a member name, else the object itself (a field
// error never echoes a name that no request could define).
func memberField(path, key string) string {
	if !memberName(key, path == "") {
		return orBody(path)
	}
	return joinPath(path, key)
}

// memberName reports whether key reads as a member name: 1 to 64 ASCII
// letters, digits or underscores, not starting with a digit; at the top
// level, a lower-case letter followed by letters and digits.
func memberName(key string, top bool) bool {
	if len(key) == 0 || len(key) > 64 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z', c == '_':
			if top && (i == 0 || c == '_') {
				return false
			}
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// orBody names the value at path in a field error, "body" for the body
// itself (a top-level string or array element has no member name).
func orBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

// maxNesting is encoding/json's limit on nested objects and arrays.
const maxNesting = 10000

// validJSON reports json.Valid(b) (FuzzScanJSON compares them) in one pass
// of its own: encoding/json's scanner calls a state function per byte,
// which made it the larger part of a request's body checks.
func validJSON(b []byte) bool {
	v := jsonValidator{b: b}
	return v.value(1) && v.space() == len(b)
}

// jsonValidator reads a JSON text for validJSON; each read reports whether
// what it read is well-formed.
type jsonValidator struct {
	b []byte
	i int
}

// space skips white space and returns the position after it.
func (v *jsonValidator) space() int {
	v.i = jsonx.SkipSpace(v.b, v.i)
	return v.i
}

// next returns the byte after white space, 0 at the end.
func (v *jsonValidator) next() byte {
	if v.space() == len(v.b) {
		return 0
	}
	return v.b[v.i]
}

// value reads a value nested depth deep.
func (v *jsonValidator) value(depth int) bool {
	switch c := v.next(); {
	case c == '{':
		return depth <= maxNesting && v.container('}', depth)
	case c == '[':
		return depth <= maxNesting && v.container(']', depth)
	case c == '"':
		return v.str()
	case c == '-' || c >= '0' && c <= '9':
		return v.number()
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	}
	return false
}

// container reads an object (end '}') or an array (end ']').
func (v *jsonValidator) container(end byte, depth int) bool {
	v.i++
	if v.next() == end {
		v.i++
		return true
	}
	for {
		if end == '}' {
			if v.next() != '"' || !v.str() || v.next() != ':' {
				return false
			}
			v.i++
		}
		if !v.value(depth + 1) {
			return false
		}
		switch v.next() {
		case ',':
			v.i++
		case end:
			v.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string: no control characters, and only JSON's escapes.
func (v *jsonValidator) str() bool {
	for v.i++; v.i < len(v.b); v.i++ {
		switch c := v.b[v.i]; {
		case c == '"':
			v.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			v.i++
			if v.i == len(v.b) {
				return false
			}
			switch v.b[v.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if v.i+4 >= len(v.b) {
					return false
				}
				for _, h := range v.b[v.i+1 : v.i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				v.i += 4
			default:
				return false
			}
		}
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (v *jsonValidator) number() bool {
	if v.b[v.i] == '-' {
		v.i++
	}
	switch {
	case v.i < len(v.b) && v.b[v.i] == '0':
		v.i++
	case !v.digits():
		return false
	}
	if v.i < len(v.b) && v.b[v.i] == '.' {
		v.i++
		if !v.digits() {
			return false
		}
	}
	if v.i < len(v.b) && (v.b[v.i] == 'e' || v.b[v.i] == 'E') {
		v.i++
		if v.i < len(v.b) && (v.b[v.i] == '+' || v.b[v.i] == '-') {
			v.i++
		}
		return v.digits()
	}
	return true
}

// digits reads one or more digits.
func (v *jsonValidator) digits() bool {
	start := v.i
	for v.i < len(v.b) && v.b[v.i] >= '0' && v.b[v.i] <= '9' {
		v.i++
	}
	return v.i > start
}

// literal reads word.
func (v *jsonValidator) literal(word string) bool {
	if len(v.b)-v.i < len(word) || string(v.b[v.i:v.i+len(word)]) != word {
		return false
	}
	v.i += len(word)
	return true
}
