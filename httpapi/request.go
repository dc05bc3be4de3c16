package httpapi

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/validate"
)

// request is what a handler sees: the HTTP request, its buffered body and the
// authenticated token. eng is the engine to call: on a keyed POST it is the
// idempotent handle, so a handler never needs to know whether the call is
// a retry.
type request struct {
	*http.Request
	eng   *payments.Engine
	h     *Handler
	token *payments.Token
	agent *payments.Agent // on agent routes, the agent the credential names
	body  []byte
}

// decode reads the JSON body into v. Member names match fields exactly
// (exactNames: a name with its case changed is no field's). Unknown members
// are ignored, so clients of newer API versions keep working; malformed
// JSON and members of the wrong type are INVALID_INPUT naming every
// offending field. No decoder message reaches the client: they name Go
// types and fields, not the request's.
func (r *request) decode(v any) error {
	if len(bytes.TrimSpace(r.body)) == 0 {
		return payments.Errorf(payments.CodeInvalidInput, "a JSON request body is required")
	}
	body := exactNames(reflect.TypeOf(v), r.body)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return decodeError(body, v, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return payments.Errorf(payments.CodeInvalidInput, "the request body must hold a single JSON value")
	}
	return nil
}

// decodeOptional is decode for operations whose body is optional: an
// empty body leaves v as it is.
func (r *request) decodeOptional(v any) error {
	if len(bytes.TrimSpace(r.body)) == 0 {
		return nil
	}
	return r.decode(v)
}

// decodeError turns a decoding failure into INVALID_INPUT: malformed JSON by
// its byte offset, well-formed JSON of the wrong shape by re-checking the
// body against v's type (checkJSON), which names every bad member.
func decodeError(body []byte, v any, err error) error {
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &syntaxErr):
		return payments.Errorf(payments.CodeInvalidInput, "malformed JSON at byte %d", syntaxErr.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return payments.Errorf(payments.CodeInvalidInput, "malformed JSON: the body ends early")
	}
	var pe *payments.Error
	if errors.As(err, &pe) {
		return pe
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if want := jsonKind(t); want != "" && !jsonIs(body, want) {
		return payments.Errorf(payments.CodeInvalidInput, "the request body must be %s", want)
	}
	var fe validate.Errors
	checkJSON(&fe, t, body, "")
	if len(fe) > 0 {
		return payments.Invalid(fe)
	}
	return payments.Errorf(payments.CodeInvalidInput, "the request body does not have the shape this operation takes")
}

// The types checkJSON treats apart: those that decode themselves, raw JSON
// (any value), and time.Time (named in its error as a date-time).
var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	rawMessage      = reflect.TypeFor[json.RawMessage]()
	timeType        = reflect.TypeFor[time.Time]()
)

// checkJSON adds an error to fe for every member of the JSON value raw (at
// path) that cannot be decoded into a t: the wrong JSON type, a number out
// of t's range, or a value t's own decoder refuses. null is always accepted
// (it leaves the member unset). Paths are the request's member names,
// dot-separated, with array indexes.
func checkJSON(fe *validate.Errors, t reflect.Type, raw []byte, path string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage || t.Kind() == reflect.Interface {
		return
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			if t == timeType {
				fe.Format(path, "date-time", path+" must be an RFC 3339 date-time such as 2025-10-03T12:00:00Z")
			} else {
				fe.Add(path, nil, "%s has an invalid value", path)
			}
		}
		return
	}
	want := jsonKind(t)
	if !jsonIs(raw, want) {
		fe.Add(path, nil, "%s must be %s, not %s", path, want, jsonKindOf(raw))
		return
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			fe.Add(path, nil, "%s has an invalid value", path)
		}
		return
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if _, err := strconv.ParseInt(string(raw), 10, t.Bits()); err != nil {
			numberError(fe, path, err, "an integer")
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if _, err := strconv.ParseUint(string(raw), 10, t.Bits()); err != nil {
			numberError(fe, path, err, "a non-negative integer")
		}
	case reflect.Float32, reflect.Float64:
		if _, err := strconv.ParseFloat(string(raw), t.Bits()); err != nil {
			numberError(fe, path, err, "a number")
		}
	case reflect.Struct:
		fields := jsonFields(t)
		eachMember(raw, func(key string, val []byte) {
			if f, ok := fields[key]; ok {
				checkJSON(fe, f.Type, val, joinPath(path, key))
			}
		})
	case reflect.Map:
		eachMember(raw, func(key string, val []byte) { checkJSON(fe, t.Elem(), val, joinPath(path, key)) })
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			if err := json.Unmarshal(raw, new([]byte)); err != nil {
				fe.Add(path, nil, "%s must be base64-encoded", path)
			}
			return
		}
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) == nil {
			for i, item := range items {
				checkJSON(fe, t.Elem(), item, joinPath(path, strconv.Itoa(i)))
			}
		}
	}
}

// numberError records a number that does not parse as want: out of range
// for the field's type, or not that kind of number at all.
func numberError(fe *validate.Errors, path string, err error, want string) {
	if errors.Is(err, strconv.ErrRange) {
		fe.Add(path, nil, "%s is out of range", path)
		return
	}
	fe.Add(path, nil, "%s must be %s", path, want)
}

// joinPath names member of the value at path as field errors spell it:
// dot-separated member names and array indexes ("destination.accountId",
// "owners.0.name").
func joinPath(path, member string) string {
	if path == "" {
		return member
	}
	return path + "." + member
}

// jsonFields maps the JSON member names of struct t to its fields, with the
// members of embedded structs promoted as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			continue // its fields are visible on their own
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := out[name]; !taken || len(f.Index) == 1 {
			out[name] = f
		}
	}
	return out
}

// eachMember calls fn with every member of the JSON object raw, in order
// and duplicates included.
func eachMember(raw []byte, fn func(key string, val []byte)) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return
		}
		fn(key, val)
	}
}

// jsonKind names the JSON type a Go type decodes from ("" for any).
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string"
		}
		return "an array"
	case reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return ""
}

// jsonIs reports whether the JSON value raw is of the kind jsonKind names.
func jsonIs(raw []byte, kind string) bool {
	raw = bytes.TrimSpace(raw)
	got := jsonKindOf(raw)
	switch {
	case kind == "", got == "null":
		return true
	case kind == "an integer":
		return got == "a number"
	}
	return got == kind
}

// jsonKindOf names the JSON type of raw from its first byte.
func jsonKindOf(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// query reads a request's query parameters and collects their errors, so
// that every bad one is reported at once (INVALID_INPUT naming each) rather
// than the first. A handler reads every parameter, then calls err once.
// Filters with enumerated values are checked here (q.fe.Enum) only where
// the engine takes them as given; the engine validates the rest.
type query struct {
	r  *request
	fe validate.Errors
}

// query starts reading r's query parameters.
func (r *request) query() *query { return &query{r: r} }

// str is the parameter name as sent ("" when absent): a filter the engine
// checks itself.
func (q *query) str(name string) string { return q.r.URL.Query().Get(name) }

// strs is every value of a repeated parameter
// (destinationCurrency=EUR&destinationCurrency=GBP).
func (q *query) strs(name string) []string { return q.r.URL.Query()[name] }

// time is an RFC 3339 date-time parameter (createdAfter, startDate, ...);
// zero when absent, a date-time field error when it does not parse.
func (q *query) time(name string) time.Time {
	v := q.str(name)
	if v == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		q.fe.Format(name, "date-time", name+" must be an RFC 3339 date-time such as 2025-10-03T12:00:00Z")
	}
	return t
}

// boolean is a true/false parameter; nil when absent, so that a filter
// such as isPaused can ask for either value or for both.
func (q *query) boolean(name string) *bool {
	v := q.str(name)
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		q.fe.Add(name, nil, "%s must be true or false", name)
		return nil
	}
	return &b
}

// int64 is an integer parameter and whether it was given and valid.
func (q *query) int64(name string) (int64, bool) {
	v := q.str(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		q.fe.Add(name, nil, "%s must be an integer", name)
		return 0, false
	}
	return n, true
}

// page reads the pagination parameters every list takes: limit (1 to
// payments.MaxLimit, 20 when absent), cursor (the nextCursor of the
// previous page, opaque to clients) and sortOrder (asc or desc; desc when
// descDefault, as the reference orders transactions, approvals and
// operations newest first). A cursor of another list, filter or direction
// is INVALID_INPUT on cursor (the engine checks it).
func (q *query) page(descDefault bool) payments.ListParams {
	p := payments.ListParams{Cursor: q.str("cursor"), Desc: descDefault}
	if n, ok := q.int64("limit"); ok {
		if n < 1 || n > payments.MaxLimit {
			q.fe.Add("limit", nil, "limit must be between 1 and %d", payments.MaxLimit)
		} else {
			p.Limit = int(n)
		}
	}
	switch q.str("sortOrder") {
	case "":
	case "asc":
		p.Desc = false
	case "desc":
		p.Desc = true
	default:
		q.fe.Enum("sortOrder", q.str("sortOrder"), "asc", "desc")
	}
	return p
}

// err returns the collected query errors as INVALID_INPUT.
func (q *query) err() error { return payments.Invalid(q.fe.Err()) }

// ok is a success result with a body.
func ok(status int, v any) (int, any, error) { return status, v, nil }

// noContent is a 204.
func noContent() (int, any, error) { return http.StatusNoContent, nil, nil }

// fail is an error result, for the one error writer.
func fail(err error) (int, any, error) { return 0, nil, err }

// path returns a path value (always present for matched patterns).
func (r *request) path(name string) string { return r.PathValue(name) }
