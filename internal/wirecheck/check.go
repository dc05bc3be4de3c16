package wirecheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

type ctxKey struct{}

type mode int

const (
	modeAll mode = iota
	modeResponseOnly
	modeNone
)

// Skip returns a shallow copy of req (with a derived context) whose exchange
// the checker lets through unchecked, for deliberately off-reference calls.
// It is harmless without a Checker.
func Skip(req *http.Request) *http.Request {
	return req.WithContext(context.WithValue(req.Context(), ctxKey{}, modeNone))
}

// SkipRequest returns a shallow copy of req (with a derived context) whose
// request side is not validated; the response still is.
func SkipRequest(req *http.Request) *http.Request {
	return req.WithContext(context.WithValue(req.Context(), ctxKey{}, modeResponseOnly))
}

func modeOf(ctx context.Context) mode {
	m, _ := ctx.Value(ctxKey{}).(mode)
	return m
}

// Check validates one exchange against the reference and reports every
// problem found with a single tb.Errorf. reqBody and respBody are the bodies
// as sent and received (req.Body and resp.Body are not read).
//
// It strips the base path (see [Checker.WithBasePath]) from req.URL.Path and
// finds the reference's operation. Then:
//
//   - No operation: nothing is reported when the response is 404 or 405
//     (tests of unknown routes and methods), or for HEAD and OPTIONS;
//     otherwise the missing operation is the problem.
//   - The request (path, query and header parameters, body) is validated.
//     Its problems are reported only when the server accepted the request
//     (status below 400): rejecting an off-reference request is what tests of
//     validation expect.
//   - The response status must be declared by the operation (or a default),
//     its Content-Type must be one the operation declares for it, and its
//     body must match that schema. An error body's reason must equal its
//     message.
//
// Security requirements are not checked (the server does that). Each schema
// problem is listed with the JSON Pointer of the offending value. Use [Skip]
// or [SkipRequest] on the request to opt out. On a nil Checker, Check does
// nothing.
func (c *Checker) Check(tb testing.TB, req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) {
	if c == nil || req == nil || resp == nil {
		return
	}
	tb.Helper()
	m := modeOf(req.Context())
	if m == modeNone {
		return
	}
	probs := c.problems(req, reqBody, resp, respBody, m)
	if len(probs) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "wirecheck: %s %s -> %d does not match the reference (%d problem(s)):",
		req.Method, req.URL.RequestURI(), resp.StatusCode, len(probs))
	for _, p := range probs {
		b.WriteString("\n    - ")
		b.WriteString(p)
	}
	tb.Errorf("%s", b.String())
}

// covered holds the reference operations ("METHOD /path") that checked
// exchanges reached, for Uncovered.
var covered sync.Map

// Uncovered returns the reference's operations that no exchange checked by
// this process reached, sorted.
func (c *Checker) Uncovered() []string {
	if c == nil {
		return nil
	}
	var out []string
	for path, item := range c.Document().Paths.Map() {
		for method := range item.Operations() {
			if _, ok := covered.Load(method + " " + path); !ok {
				out = append(out, method+" "+path)
			}
		}
	}
	sort.Strings(out)
	return out
}

// problems returns the human-readable problems of one exchange.
func (c *Checker) problems(req *http.Request, reqBody []byte, resp *http.Response, respBody []byte, m mode) []string {
	ctx := context.Background()
	rr := req.Clone(ctx)
	u := *req.URL
	u.Path = c.stripBase(u.Path)
	u.RawPath = ""
	rr.URL = &u
	setBody(rr, reqBody)

	route, pathParams, err := c.router.FindRoute(rr)
	if err != nil {
		var re *routers.RouteError
		if errors.As(err, &re) {
			switch {
			case resp.StatusCode == http.StatusNotFound, resp.StatusCode == http.StatusMethodNotAllowed:
				return nil
			case req.Method == http.MethodHead, req.Method == http.MethodOptions:
				return nil
			}
			return []string{fmt.Sprintf("no operation %s %s in the reference (%s)", req.Method, u.Path, re.Reason)}
		}
		return []string{fmt.Sprintf("routing %s %s: %v", req.Method, u.Path, err)}
	}

	covered.Store(route.Method+" "+route.Path, true)
	opts := &openapi3filter.Options{
		MultiError:            true,
		IncludeResponseStatus: true,
		SkipSettingDefaults:   true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    rr,
		PathParams: pathParams,
		Route:      route,
		Options:    opts,
	}
	var out []string
	// kin-openapi cannot decode the reference's multipart schemas (allOf with
	// a binary part), so uploads have their responses checked only.
	multipartReq := strings.HasPrefix(req.Header.Get("Content-Type"), "multipart/")
	if m == modeAll && resp.StatusCode < 400 && !multipartReq {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			out = collect(out, err, "request")
		}
	}
	// The request body may have been consumed above.
	setBody(rr, reqBody)

	if genericStatus[resp.StatusCode] && route.Operation.Responses.Status(resp.StatusCode) == nil && route.Operation.Responses.Default() == nil {
		// The reference lists only some error statuses per operation; a
		// generic one (401, 403, 409, 413, ...) must still be a valid error
		// body of its status.
		return append(out, c.genericError(resp.StatusCode, respBody)...)
	}
	rin := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                opts,
	}
	rin.SetBodyBytes(respBody)
	if err := openapi3filter.ValidateResponse(ctx, rin); err != nil {
		out = collect(out, err, "response")
	}
	if resp.StatusCode >= 400 {
		out = append(out, reasonMismatch(respBody)...)
	}
	return out
}

// stripBase removes the base path from p when p starts with it.
func (c *Checker) stripBase(p string) string {
	if c.basePath == "" {
		return p
	}
	if p == c.basePath {
		return "/"
	}
	if rest, ok := strings.CutPrefix(p, c.basePath); ok && strings.HasPrefix(rest, "/") {
		return rest
	}
	return p
}

func setBody(r *http.Request, body []byte) {
	if len(body) == 0 {
		r.Body = http.NoBody
		r.ContentLength = 0
		r.GetBody = func() (io.ReadCloser, error) { return http.NoBody, nil }
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
}

// reasonMismatch checks the deviation error-reason: reason equals message.
func reasonMismatch(body []byte) []string {
	var e struct {
		Message *string `json:"message"`
		Reason  *string `json:"reason"`
	}
	if json.Unmarshal(body, &e) != nil || e.Message == nil || e.Reason == nil {
		return nil
	}
	if *e.Message != *e.Reason {
		return []string{fmt.Sprintf("response body: reason %q differs from message %q (deviation error-reason)", *e.Reason, *e.Message)}
	}
	return nil
}

// collect appends to out one line per problem within err, which comes from
// ValidateRequest or ValidateResponse; where names the part it is about.
func collect(out []string, err error, where string) []string {
	switch e := err.(type) {
	case nil:
		return out
	case openapi3.MultiError:
		for _, sub := range e {
			out = collect(out, sub, where)
		}
		return out
	case *openapi3filter.RequestError:
		w := "request"
		switch {
		case e.Parameter != nil:
			w = fmt.Sprintf("request %s parameter %q", e.Parameter.In, e.Parameter.Name)
		case e.RequestBody != nil:
			w = "request body"
		}
		if e.Err != nil && hasSchemaError(e.Err) {
			return collect(out, e.Err, w)
		}
		return append(out, w+": "+joinReason(e.Reason, e.Err))
	case *openapi3filter.ResponseError:
		w := "response"
		if id, ok := strings.CutPrefix(e.Reason, "response body doesn't match schema"); ok {
			w = "response body"
			if id = strings.TrimPrefix(strings.TrimSpace(id), "#/components/schemas/"); id != "" {
				w += " (" + id + ")"
			}
		}
		if e.Err != nil && hasSchemaError(e.Err) {
			return collect(out, e.Err, w)
		}
		if e.Reason == "status is not supported" && e.Input != nil {
			return append(out, fmt.Sprintf("response: status %d is not declared for this operation", e.Input.Status))
		}
		return append(out, w+": "+joinReason(e.Reason, e.Err))
	case *openapi3filter.SecurityRequirementsError:
		return out // security is the server's business
	case *openapi3.SchemaError:
		if subs := subErrors(e); len(subs) > 0 {
			if alt := e.SchemaField; alt == "oneOf" || alt == "anyOf" {
				out = append(out, fmt.Sprintf("%s at %s: %s", where, pointer(e.JSONPointer()), schemaReason(e)))
				for _, sub := range subs {
					out = collect(out, sub, where+" ("+alt+" alternative)")
				}
				return out
			}
			for _, sub := range subs {
				out = collect(out, sub, where)
			}
			return out
		}
		return append(out, fmt.Sprintf("%s at %s: %s", where, pointer(e.JSONPointer()), schemaReason(e)))
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return collect(out, se, where)
	}
	return append(out, where+": "+err.Error())
}

// joinReason renders a reason and the error behind it, once each.
func joinReason(reason string, err error) string {
	switch {
	case err == nil:
		return reason
	case reason == "" || reason == err.Error():
		return err.Error()
	}
	return reason + ": " + err.Error()
}

// subErrors returns the errors a SchemaError groups (its Origin's MultiError).
func subErrors(e *openapi3.SchemaError) []error {
	for u := e.Origin; u != nil; {
		if me, ok := u.(openapi3.MultiError); ok {
			return me
		}
		w, ok := u.(interface{ Unwrap() error })
		if !ok {
			return nil
		}
		u = w.Unwrap()
	}
	return nil
}

func hasSchemaError(err error) bool {
	var se *openapi3.SchemaError
	return errors.As(err, &se)
}

// schemaReason is a one-line reason of e, without the schema and value dumps
// of SchemaError.Error and without the path the JSON Schema 2020-12
// validator repeats in its reasons.
func schemaReason(e *openapi3.SchemaError) string {
	r := e.Reason
	if r == "" {
		return fmt.Sprintf("doesn't match schema keyword %q", e.SchemaField)
	}
	// The JSON Schema 2020-12 validator names the location in its reasons
	// (`error at "/a": at '/a': ...`); the pointer already says it.
	for {
		if rest, ok := strings.CutPrefix(r, `error at "`); ok {
			if _, after, found := strings.Cut(rest, `": `); found {
				r = after
				continue
			}
		}
		if rest, ok := strings.CutPrefix(r, "at '"); ok {
			if _, after, found := strings.Cut(rest, "': "); found {
				r = after
				continue
			}
		}
		break
	}
	if r == "false schema" {
		r = "not allowed here (false schema, e.g. unevaluatedProperties: false)"
	}
	return strings.ReplaceAll(r, "\n", " ")
}

// pointer renders a JSON Pointer from its unescaped tokens.
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return "(root)"
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// genericStatus are the error statuses any operation may answer (auth,
// permissions, state conflicts, limits, faults) even where the reference does
// not list them for it.
var genericStatus = map[int]bool{400: true, 401: true, 403: true, 404: true, 405: true, 409: true, 410: true,
	413: true, 415: true, 423: true, 429: true, 500: true, 501: true, 503: true}

// genericError validates an error body whose status the operation does not
// declare: against the reference's Error<status> schema when it has one,
// else for the {status, code, message} members every error body carries.
func (c *Checker) genericError(status int, body []byte) []string {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{fmt.Sprintf("response body: status %d error body is not JSON: %v", status, err)}
	}
	out := reasonMismatch(body)
	if ref := c.doc.Components.Schemas[fmt.Sprintf("Error%d", status)]; ref != nil && ref.Value != nil {
		if err := ref.Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
			return collect(out, err, fmt.Sprintf("response body (Error%d)", status))
		}
		return out
	}
	m, _ := v.(map[string]any)
	for _, k := range []string{"status", "code", "message"} {
		if _, ok := m[k]; !ok {
			out = append(out, fmt.Sprintf("response body: status %d error body lacks %q", status, k))
		}
	}
	return out
}
