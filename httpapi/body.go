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
	"github.com/paygrid/payments/validate"
)

// DefaultMaxStringLength caps every JSON string of a request body (in
// characters) where Config.MaxStringLength is zero. Fields the reference
// bounds are checked to its maxLength by the engine; this cap bounds every
// other free string (names, references, notes) so that no member can carry
// a body-sized value.
const DefaultMaxStringLength = 4096

// maxJSONDepth bounds the nesting of a request body.
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
	if !json.Valid(body) {
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
// right (json.Valid has already accepted it).
func scanJSON(fe *validate.Errors, raw []byte, path string, maxString, depth int) {
	s := bodyScanner{fe: fe, raw: raw, max: maxString}
	s.value(path, depth, true)
}

// bodyScanner walks one well-formed JSON value. report is false while it
// skips a value nested deeper than maxJSONDepth (reported once, at its path).
type bodyScanner struct {
	fe  *validate.Errors
	raw []byte
	i   int
	max int
}

func (s *bodyScanner) space() {
	for s.i < len(s.raw) && (s.raw[s.i] == ' ' || s.raw[s.i] == '\t' || s.raw[s.i] == '\n' || s.raw[s.i] == '\r') {
		s.i++
	}
}

// value scans the value at s.i (after any space) found at path.
func (s *bodyScanner) value(path string, depth int, report bool) {
	s.space()
	if s.i >= len(s.raw) {
		return
	}
	if report && depth > maxJSONDepth {
		s.fe.Add(path, nil, "the request body nests deeper than %d levels", maxJSONDepth)
		report = false
	}
	switch s.raw[s.i] {
	case '{':
		s.i++
		var seen map[string]bool
		for {
			s.space()
			if s.i >= len(s.raw) || s.raw[s.i] == '}' {
				s.i++
				return
			}
			if s.raw[s.i] == ',' {
				s.i++
				s.space()
			}
			start := s.i
			key := s.str()
			field := ""
			if report {
				field = memberField(path, key)
				if !utf8.Valid(s.raw[start:s.i]) {
					s.fe.Add(field, nil, "a member name of %s is not valid UTF-8", orBody(path))
				} else if seen[key] {
					s.fe.Add(field, nil, "%s appears more than once", field)
				}
				if seen == nil {
					seen = map[string]bool{}
				}
				seen[key] = true
			}
			s.space()
			s.i++ // ':'
			s.value(field, depth+1, report)
		}
	case '[':
		s.i++
		for n := 0; ; n++ {
			s.space()
			if s.i >= len(s.raw) || s.raw[s.i] == ']' {
				s.i++
				return
			}
			if s.raw[s.i] == ',' {
				s.i++
			}
			elem := ""
			if report {
				elem = joinPath(path, strconv.Itoa(n))
			}
			s.value(elem, depth+1, report)
		}
	case '"':
		start := s.i
		v := s.str()
		if !report {
			return
		}
		if !utf8.Valid(s.raw[start:s.i]) {
			s.fe.Add(orBody(path), nil, "%s is not valid UTF-8", orBody(path))
		} else if utf8.RuneCountInString(v) > s.max {
			s.fe.Add(orBody(path), &validate.Constraint{MaxLength: &s.max}, "%s must be at most %d characters", orBody(path), s.max)
		}
	default: // number, true, false, null
		for s.i < len(s.raw) && !strings.ContainsRune(",]} \t\n\r", rune(s.raw[s.i])) {
			s.i++
		}
	}
}

// str reads the string at s.i and returns its value (escapes decoded as
// encoding/json decodes them); s.i ends past its closing quote.
func (s *bodyScanner) str() string {
	start := s.i
	s.i++
	escaped := false
	for s.i < len(s.raw) && s.raw[s.i] != '"' {
		if s.raw[s.i] == '\\' {
			escaped = true
			s.i++
		}
		s.i++
	}
	s.i++
	if !escaped {
		return string(s.raw[start+1 : s.i-1])
	}
	var v string
	_ = json.Unmarshal(s.raw[start:s.i], &v)
	return v
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

func orBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}
