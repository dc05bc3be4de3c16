package jsonx

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Reader reads JSON text left to right, one token at a time, checking its
// syntax as it goes: the one tokenizer of the module's hand-written
// decoding. Scan reads a request body with it, and a decoder that reads a
// known request without reflection (the HTTP adapter's quote request) reads
// its members with Object, String, Int64 and Bool. Each read reports false
// at anything it does not read, leaving the reader where it stopped.
type Reader struct {
	b []byte
	i int
}

// NewReader returns a Reader at the start of b.
func NewReader(b []byte) Reader { return Reader{b: b} }

// Offset is how many bytes of the text the reader has read.
func (r *Reader) Offset() int { return r.i }

// AtEnd reports whether nothing but white space is left.
func (r *Reader) AtEnd() bool { return r.next() == 0 && r.i == len(r.b) }

// Object reads an object, handing the name of each member (what its quotes
// enclose, as written: a plain string, String's) to member, which reads its
// value; it reports false at a name with an escape, or as soon as member
// does.
func (r *Reader) Object(member func(name []byte) bool) bool {
	if r.next() != '{' {
		return false
	}
	r.i++
	if r.next() == '}' {
		r.i++
		return true
	}
	for {
		name, ok := r.String()
		if !ok || r.next() != ':' {
			return false
		}
		r.i++
		if !member(name) {
			return false
		}
		if end, ok := r.sep('}'); end || !ok {
			return ok
		}
	}
}

// String reads a plain string, one without escapes in valid UTF-8, and
// returns what its quotes enclose (part of the text: a caller that keeps
// it copies it). A string with an escape is false: its value differs
// from its text.
func (r *Reader) String() ([]byte, bool) {
	if r.next() != '"' {
		return nil, false
	}
	start, ascii := r.i+1, true
	for r.i = start; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			v := r.b[start:r.i]
			r.i++
			return v, ascii || utf8.Valid(v)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// Quoted reads a string, escapes allowed, and returns what its quotes
// enclose as written (escapes not decoded).
func (r *Reader) Quoted() ([]byte, bool) {
	if r.next() != '"' {
		return nil, false
	}
	start := r.i
	if !r.str() {
		return nil, false
	}
	return r.b[start+1 : r.i-1], true
}

// Value reads one value of any kind, whatever it holds.
func (r *Reader) Value() bool {
	s := scanner{Reader: *r}
	ok := s.value(nil, 0, false)
	*r = s.Reader
	return ok
}

// Peek returns the next byte after white space without reading it, 0 at
// the end.
func (r *Reader) Peek() byte { return r.next() }

// Take reads c, after white space, and reports whether it was there.
func (r *Reader) Take(c byte) bool {
	if r.next() != c || r.i == len(r.b) {
		return false
	}
	r.i++
	return true
}

// Int64 reads an integer of at most 18 digits, which no int64 overflows;
// a fraction, an exponent or a longer number is false.
func (r *Reader) Int64() (int64, bool) {
	if c := r.next(); c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	start := r.i
	if !r.number() {
		return 0, false
	}
	text := r.b[start:r.i]
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	if len(text) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range text {
		if c < '0' || c > '9' { // a fraction or an exponent
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Bool reads true or false.
func (r *Reader) Bool() (v, ok bool) {
	switch r.next() {
	case 't':
		return true, r.literal("true")
	case 'f':
		return false, r.literal("false")
	}
	return false, false
}

// next returns the byte at r.i after white space, 0 at the end.
func (r *Reader) next() byte {
	r.i = SkipSpace(r.b, r.i)
	if r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// sep reads what follows a member or an element: a comma (atEnd false,
// r.i past it) or end (atEnd true, r.i past it); ok is false at anything
// else.
func (r *Reader) sep(end byte) (atEnd, ok bool) {
	switch r.next() {
	case ',':
		r.i++
		return false, true
	case end:
		r.i++
		return true, true
	}
	return false, false
}

// str reads the string at r.i (its opening quote) and leaves r.i past its
// closing quote: no control characters, and only JSON's escapes.
func (r *Reader) str() bool {
	b := r.b
	for r.i++; r.i < len(b); r.i++ {
		switch c := b[r.i]; {
		case c == '"':
			r.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			r.i++
			if r.i == len(b) {
				return false
			}
			switch b[r.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if r.i+4 >= len(b) {
					return false
				}
				for _, h := range b[r.i+1 : r.i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				r.i += 4
			default:
				return false
			}
		}
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (r *Reader) number() bool {
	b := r.b
	if b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(b) && b[r.i] == '0':
		r.i++
	case !r.digits():
		return false
	}
	if r.i < len(b) && b[r.i] == '.' {
		r.i++
		if !r.digits() {
			return false
		}
	}
	if r.i < len(b) && (b[r.i] == 'e' || b[r.i] == 'E') {
		r.i++
		if r.i < len(b) && (b[r.i] == '+' || b[r.i] == '-') {
			r.i++
		}
		return r.digits()
	}
	return true
}

// digits reads one or more digits.
func (r *Reader) digits() bool {
	start := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	return r.i > start
}

// literal reads word.
func (r *Reader) literal(word string) bool {
	if len(r.b)-r.i < len(word) || string(r.b[r.i:r.i+len(word)]) != word {
		return false
	}
	r.i += len(word)
	return true
}

// jsonString is a JSON string as written, quotes included.
type jsonString []byte

// escaped reports whether the string holds an escape.
func (j jsonString) escaped() bool { return bytes.IndexByte(j, '\\') >= 0 }

// String is the string's value (escapes decoded as encoding/json decodes
// them; other bytes as they are).
func (j jsonString) String() string {
	if !j.escaped() {
		return string(j[1 : len(j)-1])
	}
	var v string
	_ = json.Unmarshal(j, &v)
	return v
}

// equal reports whether j and k have the same value.
func (j jsonString) equal(k jsonString) bool {
	if !j.escaped() && !k.escaped() {
		return bytes.Equal(j, k)
	}
	return j.String() == k.String()
}
