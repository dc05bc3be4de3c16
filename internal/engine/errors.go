package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/paygrid/payments/validate"
)

// Store sentinels. Every Store returns these (wrapped or bare); the storetest
// suite checks them with errors.Is. The root re-exports them
// (payments.ErrNotFound, ...), and their text keeps the "payments:" prefix
// users have always seen.
var (
	// ErrNotFound reports that the record does not exist.
	ErrNotFound = errors.New("payments: not found")
	// ErrConflict reports that a record with that key already exists, or
	// that a concurrent change won.
	ErrConflict = errors.New("payments: conflict")
	// ErrReadOnly reports a write attempted inside View.
	ErrReadOnly = errors.New("payments: write in a read-only transaction")
	// ErrClosed reports a store or engine used after Close.
	ErrClosed = errors.New("payments: closed")
	// ErrUnavailable reports a store that cannot serve the call for now
	// (its disk is full, its database unreachable) and expects to recover:
	// the API answers 503 SERVICE_UNAVAILABLE with Retry-After.
	ErrUnavailable = errors.New("payments: store unavailable")
)

// FieldError is one invalid request field (the spec's details.errors
// entry); validate.Errors collects them.
type FieldError = validate.FieldError

// Error is the one error type the engine returns to callers. Code is one of the
// spec's codes; Message is safe to show to API clients; Fields lists every
// invalid field of a rejected request; Details carries code-specific extras
// (such as the locked-until time of a 423); Err is the cause, for logs only.
// An *Error returned by an operation through Once is recorded as its
// answer and replayed; any other error is a fault and is not.
type Error struct {
	Code    Code
	Message string
	Fields  []FieldError
	Details map[string]any
	Err     error
}

// Error implements error.
func (e *Error) Error() string {
	msg := string(e.Code) + ": " + e.Message
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid wraps field errors from a validator into an INVALID_INPUT error.
// A nil err yields nil.
func Invalid(err error) error {
	return InvalidAs(CodeInvalidInput, err)
}

// InvalidAs is Invalid with another 400 code (such as INVALID_BANK_ACCOUNT).
func InvalidAs(code Code, err error) error {
	if err == nil {
		return nil
	}
	var fe validate.Errors
	if !errors.As(err, &fe) {
		return &Error{Code: code, Message: err.Error(), Err: err}
	}
	msg := "the request has invalid fields"
	if len(fe) == 1 {
		msg = fe[0].Message
	}
	return &Error{Code: code, Message: msg, Fields: fe}
}

// CodeOf returns the code of err: the Code of an *Error in its chain,
// NOT_FOUND for ErrNotFound, CONFLICT for ErrConflict, SERVICE_UNAVAILABLE
// for ErrUnavailable, INTERNAL_ERROR for anything else, and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, ErrNotFound):
		return CodeNotFound
	case errors.Is(err, ErrConflict):
		return CodeConflict
	case errors.Is(err, ErrUnavailable):
		return CodeServiceUnavailable
	}
	return CodeInternalError
}

// MessageOf returns the client-safe message of err. Errors that are not
// *Error get a generic message so that internals never leak.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	switch CodeOf(err) {
	case CodeNotFound:
		return "the requested resource was not found"
	case CodeConflict:
		return "the request conflicts with the current state"
	case CodeServiceUnavailable:
		return "the service cannot store changes right now; retry later"
	}
	return "an internal error occurred"
}

// NotFound maps a store's ErrNotFound to a coded 404 naming what was missing.
func NotFound(err error, code Code, what, id string) error {
	if errors.Is(err, ErrNotFound) {
		return &Error{Code: code, Message: fmt.Sprintf("%s %s not found", what, id), Err: err}
	}
	return err
}

// RenameFields returns err with its field errors renamed by names (an
// operation built on another reports the request's own field names).
func RenameFields(err error, names map[string]string) error {
	var e *Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return err
	}
	out := *e
	out.Fields = make([]FieldError, len(e.Fields))
	for i, f := range e.Fields {
		if n, ok := names[f.Field]; ok {
			f.Message = strings.ReplaceAll(f.Message, f.Field, n)
			f.Field = n
		}
		out.Fields[i] = f
	}
	if len(out.Fields) == 1 {
		out.Message = out.Fields[0].Message
	}
	return &out
}
