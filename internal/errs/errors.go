// Package errs is the API's errors: Code, the error codes several areas
// return (an area's own are declared in its package and registered with
// Register) with their HTTP statuses, Error, the one error type the
// engine returns, and the store sentinels (ErrNotFound, ErrConflict, ...).
// It imports nothing of the module but validate, so the kernel, the
// stores and the HTTP layer share it; the kernel (internal/engine) and the
// root re-export every name.
package errs

import (
	"errors"
	"fmt"
	"strings"
	"time"

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
	// ErrUnavailable reports that the store cannot be reached or cannot
	// take writes just now (its database is restarting or unreachable, its
	// connection was cut, its disk is full): the operation did not run,
	// or, wrapped by ErrCommitUnknown, may have. The API answers it 503
	// SERVICE_UNAVAILABLE with Retry-After; trying again later is the cure.
	ErrUnavailable = errors.New("payments: store unavailable")
	// ErrCommitUnknown reports a commit sent to the store whose outcome is
	// unknown: the connection was lost before the store answered, so the
	// operation may or may not have taken effect. It wraps ErrUnavailable.
	// A retry under the same Idempotency-Key is safe: the key's answer is
	// committed with the operation, so a retry replays it if it took
	// effect and runs it if not.
	ErrCommitUnknown = fmt.Errorf("%w: the outcome of a commit is unknown", ErrUnavailable)
)

// RetryAfterUnavailable is how long a client is told to wait (Retry-After,
// details.retryAfterSeconds) before it tries again a request refused
// because the store was unavailable (ErrUnavailable).
const RetryAfterUnavailable = time.Second

// FieldError is one invalid request field (the error body's details.errors
// entry); validate.Errors collects them.
type FieldError = validate.FieldError

// Error is the one error type the engine returns to callers. Code is one of the
// API's codes; Message is safe to show to API clients; Fields lists every
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
		if errors.Is(err, ErrCommitUnknown) {
			return "the database connection was lost while the request was being committed; it may or may not have taken effect: retry with the same Idempotency-Key"
		}
		return "the store cannot take changes right now (its database is unreachable or its disk is full); retry shortly"
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
