package httpapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"regexp"
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
// in the well-formed JSON value raw at path.
func scanJSON(fe *validate.Errors, raw []byte, path string, maxString, depth int) {
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
			field := memberField(path, key)
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
			scanJSON(fe, val, field, maxString, depth+1)
		}
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return
		}
		for i, item := range items {
			scanJSON(fe, item, joinPath(path, strconv.Itoa(i)), maxString, depth+1)
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

// memberField names member key of the object at path in a field error: its
// path when key reads as a member name, else the object itself (a field
// error never echoes a name that no request could define).
func memberField(path, key string) string {
	re := reMember
	if path == "" {
		re = reTopMember
	}
	if !utf8.ValidString(key) || !re.MatchString(key) {
		return orBody(path)
	}
	return joinPath(path, key)
}

var (
	reMember    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	reTopMember = regexp.MustCompile(`^[a-z][A-Za-z0-9]{0,63}$`)
)

func orBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}
