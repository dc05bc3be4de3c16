package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/paygrid/payments"
)

// errorBody is the API's error body: the reference's {status, code, message,
// details} plus reason (equal to message). Status and code come
// first on the wire: the request log reads the code from the head of the
// body (requestlog.StatusWriter.Code).
type errorBody struct {
	// Status repeats the HTTP status, for clients that log bodies alone.
	Status int           `json:"status"`
	Code   payments.Code `json:"code"`
	// Message is safe to show: an uncoded error's cause never reaches it
	// (payments.MessageOf).
	Message string `json:"message"`
	Reason  string `json:"reason"`
	// Details holds the error's details (retryAfterSeconds, ...) and, under
	// "errors", every invalid field with its message and constraint.
	Details map[string]any `json:"details,omitempty"`
}

// encodeError renders err as the error body and its status from the one
// code-to-status table (payments.Code.Status): an unavailable store
// (payments.ErrStoreUnavailable) is 503 SERVICE_UNAVAILABLE with
// details.retryAfterSeconds and Retry-After. Every error the package
// writes comes through here, so no handler decides a status for an error;
// an error that carries no code is 500 INTERNAL_ERROR.
func encodeError(err error) (int, []byte) {
	code := payments.CodeOf(err)
	msg := payments.MessageOf(err)
	body := errorBody{Status: code.Status(), Code: code, Message: msg, Reason: msg}
	var e *payments.Error
	if errors.As(err, &e) {
		// Copied, not shared: the field errors are added under "errors",
		// and the engine's error may be returned to other callers.
		if len(e.Details) > 0 {
			body.Details = map[string]any{}
			for k, v := range e.Details {
				body.Details[k] = v
			}
		}
		if len(e.Fields) > 0 {
			if body.Details == nil {
				body.Details = map[string]any{}
			}
			body.Details["errors"] = e.Fields
		}
	}
	// An unavailable store is a passing state: the client is told when
	// to try again (Retry-After, from this detail).
	if errors.Is(err, payments.ErrStoreUnavailable) {
		if body.Details == nil {
			body.Details = map[string]any{}
		}
		if _, ok := body.Details["retryAfterSeconds"]; !ok {
			body.Details["retryAfterSeconds"] = int(payments.RetryAfterUnavailable / time.Second)
		}
	}
	b, _ := encodeJSON(body)
	return body.Status, b
}

// writeError writes err's error body in the default brand, for the
// answers that no Handler serves (the probes). Handlers use
// Handler.writeError, which speaks their brand.
func writeError(w http.ResponseWriter, err error) {
	status, b := encodeError(err)
	writeRaw(w, status, b)
}

// bufferedBody is how much of a response net/http buffers before it sends
// the header (its bufferBeforeChunkingSize): a body no longer is sent with
// its Content-Length.
const bufferedBody = 2048

// writeRaw writes an encoded JSON body (none for a nil body, as a 204
// has), turning a 429's or 503's retryAfterSeconds into Retry-After on the
// way.
func writeRaw(w http.ResponseWriter, status int, body []byte) {
	if body != nil {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		// net/http gives a body it buffers whole (2 KiB) its length itself;
		// a larger one would otherwise go out chunked, in more writes to
		// the connection.
		if len(body) > bufferedBody {
			h.Set("Content-Length", strconv.Itoa(len(body)))
		}
	}
	setRetryAfter(w.Header(), status, body)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// encodeJSON marshals v without HTML escaping, newline-terminated. A value
// that encodes itself (the engine's records, encoded by hand as compact
// JSON) is used as it encodes: the encoder would only validate and copy it.
func encodeJSON(v any) ([]byte, error) { return appendJSON(nil, v) }

// jsonAppender is a value that appends its own encoding, as MarshalJSON
// would make it, to a buffer.
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// appendJSON is encodeJSON into buf (a response buffer to reuse) where v
// appends its own encoding; elsewhere buf is not used.
func appendJSON(buf []byte, v any) ([]byte, error) {
	if a, ok := v.(jsonAppender); ok && !isNilPointer(v) {
		b, err := a.AppendJSON(buf[:0])
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	if m, ok := v.(json.Marshaler); ok && !isNilPointer(v) {
		b, err := m.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// isNilPointer reports whether v is a nil pointer, which encoding/json
// encodes as null and whose value-receiver MarshalJSON would panic.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
