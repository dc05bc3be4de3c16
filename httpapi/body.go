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
	var fe validate.Errors
	if !scanJSON(&fe, body, "", maxString, 0) {
		dec := json.NewDecoder(bytes.NewReader(body))
		var v any
		err := dec.Decode(&v)
		if se, ok := err.(*json.SyntaxError); ok {
			return payments.Errorf(payments.CodeInvalidInput, "malformed JSON at byte %d", se.Offset)
		}
		return payments.Errorf(payments.CodeInvalidInput, "malformed JSON: the body is not a single JSON value")
	}
	return payments.Invalid(fe.Err())
}

// scanJSON reports whether raw is one well-formed JSON value, exactly as
// json.Valid does (FuzzScanJSON compares them), and records in fe its
// duplicate members, invalid UTF-8 and over-long strings, at path. It reads
// raw once, left to right, checking its syntax as it goes (encoding/json's
// scanner calls a state function per byte, and a second pass over the body
// cost as much again), and spells a field's name out only for a container
// or a finding: a body without findings costs an allocation per nested
// object or array. fe is complete only when it reports true.
func scanJSON(fe *validate.Errors, raw []byte, path string, maxString, depth int) bool {
	s := bodyScanner{fe: fe, raw: raw, max: maxString}
	return s.value(at{path: path}, depth, true) && jsonx.SkipSpace(raw, s.i) == len(raw)
}

// bodyScanner walks one JSON value. report is false while it skips a value
// nested deeper than maxJSONDepth (reported once, at its path); each read
// reports whether what it read is well-formed.
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

// next returns the byte at s.i after white space, 0 at the end.
func (s *bodyScanner) next() byte {
	s.i = jsonx.SkipSpace(s.raw, s.i)
	if s.i >= len(s.raw) {
		return 0
	}
	return s.raw[s.i]
}

// value reads the value at s.i (after any space), which sits at a, nested
// depth deep (0 for the body itself).
func (s *bodyScanner) value(a at, depth int, report bool) bool {
	c := s.next()
	if (c == '{' || c == '[') && depth >= maxNesting {
		return false
	}
	if c != 0 && report && depth > maxJSONDepth {
		s.fe.Add(a.field(), nil, "the request body nests deeper than %d levels", maxJSONDepth)
		report = false
	}
	switch {
	case c == '{':
		return s.object(a, depth, report)
	case c == '[':
		return s.array(a, depth, report)
	case c == '"':
		start := s.i
		if !s.str() {
			return false
		}
		v := jsonString(s.raw[start:s.i])
		switch {
		case !report:
		case !utf8.Valid(v):
			s.fe.Add(orBody(a.field()), nil, "%s is not valid UTF-8", orBody(a.field()))
		case len(v)-2 <= s.max: // no more characters than bytes
		case utf8.RuneCountInString(v.String()) > s.max:
			f := orBody(a.field())
			s.fe.Add(f, &validate.Constraint{MaxLength: &s.max}, "%s must be at most %d characters", f, s.max)
		}
		return true
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return false
}

// array reads the array at s.i, which sits at a.
func (s *bodyScanner) array(a at, depth int, report bool) bool {
	s.i++
	path := ""
	if report {
		path = a.field()
	}
	if s.next() == ']' {
		s.i++
		return true
	}
	for n := 0; ; n++ {
		if !s.value(at{path: path, n: n, kind: 'e'}, depth+1, report) {
			return false
		}
		if end, ok := s.sep(']'); end || !ok {
			return ok
		}
	}
}

// smallObject is how many member names an object's duplicate check
// compares one by one; a larger object's names go into a map.
const smallObject = 16

// object reads the object at s.i, which sits at a.
func (s *bodyScanner) object(a at, depth int, report bool) bool {
	s.i++
	path := ""
	if report {
		path = a.field()
	}
	if s.next() == '}' {
		s.i++
		return true
	}
	var buf [smallObject]jsonString
	names := buf[:0]
	var many map[string]bool
	for {
		start := s.i
		if s.next() != '"' || !s.str() {
			return false
		}
		m := at{path: path, name: jsonString(s.raw[start:s.i]), kind: 'm'}
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
		if s.next() != ':' {
			return false
		}
		s.i++
		if !s.value(m, depth+1, report) {
			return false
		}
		if end, ok := s.sep('}'); end || !ok {
			return ok
		}
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

// sep reads what follows a member or an element: a comma (end false, s.i
// past it) or end (end true, s.i past it); ok is false at anything else.
func (s *bodyScanner) sep(end byte) (atEnd, ok bool) {
	switch s.next() {
	case ',':
		s.i++
		return false, true
	case end:
		s.i++
		return true, true
	}
	return false, false
}

// str reads the string at s.i (its opening quote) and leaves s.i past its
// closing quote: no control characters, and only JSON's escapes.
func (s *bodyScanner) str() bool {
	b := s.raw
	for s.i++; s.i < len(b); s.i++ {
		switch c := b[s.i]; {
		case c == '"':
			s.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			s.i++
			if s.i == len(b) {
				return false
			}
			switch b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if s.i+4 >= len(b) {
					return false
				}
				for _, h := range b[s.i+1 : s.i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				s.i += 4
			default:
				return false
			}
		}
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *bodyScanner) number() bool {
	b := s.raw
	if b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(b) && b[s.i] == '0':
		s.i++
	case !s.digits():
		return false
	}
	if s.i < len(b) && b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if s.i < len(b) && (b[s.i] == 'e' || b[s.i] == 'E') {
		s.i++
		if s.i < len(b) && (b[s.i] == '+' || b[s.i] == '-') {
			s.i++
		}
		return s.digits()
	}
	return true
}

// digits reads one or more digits.
func (s *bodyScanner) digits() bool {
	start := s.i
	for s.i < len(s.raw) && s.raw[s.i] >= '0' && s.raw[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// literal reads word.
func (s *bodyScanner) literal(word string) bool {
	if len(s.raw)-s.i < len(word) || string(s.raw[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
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
