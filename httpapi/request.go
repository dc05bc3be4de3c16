package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/validate"
)

// request is what a handler sees: the HTTP request, its buffered body and the
// authenticated token.
type request struct {
	*http.Request
	eng   *payments.Engine
	h     *Handler
	token *payments.Token
	body  []byte
}

// decode reads the JSON body into v. Unknown members are ignored, so clients
// of newer API versions keep working; malformed JSON and members of the wrong
// type are INVALID_INPUT naming the offending field.
func (r *request) decode(v any) error {
	if len(bytes.TrimSpace(r.body)) == 0 {
		return payments.Errorf(payments.CodeInvalidInput, "a JSON request body is required")
	}
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return payments.Errorf(payments.CodeInvalidInput, "the request body must hold a single JSON value")
	}
	return nil
}

func decodeError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var fe validate.Errors
	switch {
	case errors.As(err, &typeErr):
		field := jsonPath(typeErr.Field)
		if field == "" {
			return payments.Errorf(payments.CodeInvalidInput, "the request body must be a JSON %s", typeErr.Type.Kind())
		}
		fe.Add(field, nil, "%s must be %s, not %s", field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
		return payments.Invalid(fe)
	case errors.As(err, &syntaxErr):
		return payments.Errorf(payments.CodeInvalidInput, "malformed JSON at byte %d: %v", syntaxErr.Offset, syntaxErr)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return payments.Errorf(payments.CodeInvalidInput, "malformed JSON: the body ends early")
	}
	var pe *payments.Error
	if errors.As(err, &pe) {
		return pe
	}
	if errors.As(err, &fe) {
		return payments.Invalid(fe)
	}
	return payments.Errorf(payments.CodeInvalidInput, "invalid request body: %v", err)
}

// jsonPath drops the Go names of embedded structs from a decoder field path
// ("Profile.fullName" -> "fullName"): JSON members start lower-case.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	out := parts[:0]
	for _, p := range parts {
		if p != "" && !(p[0] >= 'A' && p[0] <= 'Z') {
			out = append(out, p)
		}
	}
	return strings.Join(out, ".")
}

func jsonKind(goKind string) string {
	switch {
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"):
		return "an integer"
	case strings.HasPrefix(goKind, "float"):
		return "a number"
	case goKind == "bool":
		return "a boolean"
	case goKind == "string":
		return "a string"
	case goKind == "slice", goKind == "array":
		return "an array"
	}
	return "an object"
}

// query collects query-parameter errors so that every bad one is reported.
type query struct {
	r  *request
	fe validate.Errors
}

func (r *request) query() *query { return &query{r: r} }

func (q *query) str(name string) string { return q.r.URL.Query().Get(name) }

func (q *query) strs(name string) []string { return q.r.URL.Query()[name] }

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

// page reads limit, cursor and sortOrder (desc when descDefault and not
// overridden).
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

func fail(err error) (int, any, error) { return 0, nil, err }

// mustPath returns a path value (always present for matched patterns).
func (r *request) path(name string) string { return r.PathValue(name) }
