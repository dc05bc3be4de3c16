package jsonx

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// Canon reads back what the appenders of encode.go (and the kernel's, over
// them) write: compact JSON,
// members in the appenders' order, optional ones left out when empty, and
// strings with nothing escaped. At anything else (an escape, white space,
// another order, an unknown member, invalid UTF-8) it stops with ok false
// and its caller decodes with encoding/json instead, so a record the engine
// wrote is read without reflection and any other bytes exactly as before.
// Everything Canon accepts is valid JSON that encoding/json decodes to the
// same value (the quotes area's FuzzDecodeTransaction). Errors are sticky:
// after the first mismatch every read returns a zero value and Done
// reports false, so a decoder reads straight through and checks once.
type Canon struct {
	b  []byte
	i  int // the next byte to read; b[i-1] is the last read
	ok bool
}

// ReadCanon starts reading the object b.
func ReadCanon(b []byte) *Canon {
	return &Canon{b: b, ok: len(b) > 0 && b[0] == '{', i: 1}
}

// member reads the separator and the name of the next member when it is
// name, and reports whether it was.
func (c *Canon) member(name string) bool {
	if !c.ok {
		return false
	}
	j := c.i
	if c.b[j-1] != '{' {
		if j >= len(c.b) || c.b[j] != ',' {
			return false
		}
		j++
	}
	end := j + len(name) + 3
	if end > len(c.b) || c.b[j] != '"' || string(c.b[j+1:j+1+len(name)]) != name || c.b[end-2] != '"' || c.b[end-1] != ':' {
		return false
	}
	c.i = end
	return true
}

// Need reads the member name, which must come next.
func (c *Canon) Need(name string) {
	if !c.member(name) {
		c.ok = false
	}
}

// Close reads the end of an object.
func (c *Canon) Close() {
	if !c.ok || c.i >= len(c.b) || c.b[c.i] != '}' {
		c.ok = false
		return
	}
	c.i++
}

// Done reports whether the whole input was read.
func (c *Canon) Done() bool { return c.ok && c.i == len(c.b) }

// quoted returns the contents of the string at i, which hold no escape,
// control character or invalid UTF-8.
func (c *Canon) quoted() []byte {
	if !c.ok || c.i >= len(c.b) || c.b[c.i] != '"' {
		c.ok = false
		return nil
	}
	start := c.i + 1
	for j := start; j < len(c.b); j++ {
		switch ch := c.b[j]; {
		case ch == '"':
			s := c.b[start:j]
			if !utf8.Valid(s) {
				c.ok = false
				return nil
			}
			c.i = j + 1
			return s
		case ch == '\\' || ch < 0x20:
			c.ok = false
			return nil
		}
	}
	c.ok = false
	return nil
}

// str returns the string at i (quoted).
func (c *Canon) str() string { return string(c.quoted()) }

// StrMember reads the member name with a string value, which must come
// next.
func (c *Canon) StrMember(name string) string {
	c.Need(name)
	return c.str()
}

// OptStr reads the member name with a string value when it comes next
// (appenders leave it out when empty).
func (c *Canon) OptStr(name string) string {
	if c.member(name) {
		return c.str()
	}
	return ""
}

// number returns the JSON number at i.
func (c *Canon) number() string {
	if !c.ok {
		return ""
	}
	b, j := c.b, c.i
	digits := func() bool {
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case !digits():
		c.ok = false
		return ""
	}
	if j < len(b) && b[j] == '.' {
		j++
		if !digits() {
			c.ok = false
			return ""
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if !digits() {
			c.ok = false
			return ""
		}
	}
	s := string(b[c.i:j])
	c.i = j
	return s
}

// Int reads a JSON number that is an int64 (no fraction or exponent).
func (c *Canon) Int() int64 {
	n, err := strconv.ParseInt(c.number(), 10, 64)
	if err != nil {
		c.ok = false
	}
	return n
}

// Float reads a JSON number as a float64.
func (c *Canon) Float() float64 {
	f, err := strconv.ParseFloat(c.number(), 64)
	if err != nil {
		c.ok = false
	}
	return f
}

// Time reads a time as encoding/json does (time.Time.UnmarshalJSON).
func (c *Canon) Time() time.Time {
	start := c.i
	c.quoted()
	var t time.Time
	if c.ok && t.UnmarshalJSON(c.b[start:c.i]) != nil {
		c.ok = false
	}
	return t
}

// Optional reads the member name with read when it comes next, and returns
// its value (nil when absent).
func Optional[T any](c *Canon, name string, read func() T) *T {
	if !c.member(name) {
		return nil
	}
	v := read()
	return &v
}

// Object reads the opening brace of a nested object and returns c, to read
// its members (and Close) in turn.
func (c *Canon) Object() *Canon {
	if !c.ok || c.i >= len(c.b) || c.b[c.i] != '{' {
		c.ok = false
	} else {
		c.i++
	}
	return c
}
