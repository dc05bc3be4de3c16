package requestlog

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// StatusWriter is the http.ResponseWriter a request is served through so
// that it can be logged: it remembers the status written and, of an error
// answer, the start of its body (where its code is).
type StatusWriter struct {
	http.ResponseWriter
	status int
	head   []byte // the first bytes of an error body
}

// headSize is how much of an error body StatusWriter keeps: the error body
// begins {"status":...,"code":"...".
const headSize = 256

// Status is the status written, 0 before any.
func (w *StatusWriter) Status() int { return w.status }

// WriteHeader records the first status written and passes it on.
func (w *StatusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write passes b on, keeping the head of an error body; a Write without
// WriteHeader is a 200, as net/http makes it.
func (w *StatusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status >= 400 && len(w.head) < headSize {
		w.head = append(w.head, b[:min(len(b), headSize-len(w.head))]...)
	}
	return w.ResponseWriter.Write(b)
}

// Code returns the code of the error body written, "" when none. An error
// body names its code before any longer member, so the kept head holds it.
func (w *StatusWriter) Code() string {
	if len(w.head) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(w.head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			return ""
		}
		if key == "code" {
			var code string
			_ = json.Unmarshal(v, &code)
			return code
		}
	}
	return ""
}

// Unwrap lets http.ResponseController reach the connection.
func (w *StatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
