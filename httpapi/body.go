package httpapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"

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
	fe, ok := bodyFindings(body, maxString)
	if !ok {
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

// bodyFindings scans body (jsonx.Scan: one pass, the syntax checked as it
// goes) and reports whether it is well-formed, with what it finds wrong in
// it as field errors, each naming the request's field (fieldOf).
func bodyFindings(body []byte, maxString int) (validate.Errors, bool) {
	found, ok := jsonx.Scan(body, jsonx.Limits{MaxString: maxString, MaxDepth: maxJSONDepth}, nil)
	if !ok || len(found) == 0 {
		return nil, ok
	}
	var fe validate.Errors
	for _, f := range found {
		field := fieldOf(f.Path)
		switch f.Problem {
		case jsonx.Duplicate:
			fe.Add(field, nil, "%s appears more than once", field)
		case jsonx.BadName:
			fe.Add(field, nil, "a member name of %s is not valid UTF-8", orBody(fieldOf(f.Path[:len(f.Path)-1])))
		case jsonx.BadUTF8:
			fe.Add(orBody(field), nil, "%s is not valid UTF-8", orBody(field))
		case jsonx.TooLong:
			limit := maxString // its own variable: only a finding allocates it
			fe.Add(orBody(field), &validate.Constraint{MaxLength: &limit}, "%s must be at most %d characters", orBody(field), maxString)
		case jsonx.TooDeep:
			fe.Add(field, nil, "the request body nests deeper than %d levels", maxJSONDepth)
		}
	}
	return fe, true
}

// fieldOf names the value at path as a field error does: member names
// (memberField) and element indexes, dot-separated; "" for the body.
func fieldOf(path []jsonx.Step) string {
	field := ""
	for _, st := range path {
		if st.Name == nil {
			field = joinPath(field, strconv.Itoa(st.Index))
		} else {
			field = memberField(field, st.Key())
		}
	}
	return field
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
