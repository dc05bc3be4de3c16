package jsonx

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// The appenders below write JSON by hand for the records written on every
// payment (a transaction is encoded three or four times per execution, and
// every event has an outbox envelope). Each appends exactly what
// json.Marshal writes for the same value, byte for byte (this package's
// fuzz targets compare the pieces; the kernel's FuzzAppendOutbox and the
// quotes area's FuzzAppendTransaction compare whole records), so stored
// records, replayed answers and webhook bodies do not depend on which
// encoder made them. They are about five times faster than encoding/json's
// reflection. The kernel and the areas build their records' appenders
// from the Member helpers; a record's layout stays with its record.

// AppendString appends s as json.Marshal encodes a string. Plain text is
// copied; a string needing escapes (quotes, control characters, <, > and &,
// invalid UTF-8, U+2028 and U+2029) is left to encoding/json.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if plainASCII[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return appendMarshaled(b, s)
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029' {
			return appendMarshaled(b, s)
		}
		i += n
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plainASCII holds the bytes json.Marshal copies into a string as they
// are: ASCII but control characters, '"', backslash, '<', '>' and '&'. Bytes
// of multi-byte UTF-8 are not in it (AppendString decodes them).
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// appendMarshaled appends s as encoding/json writes it: the slow path of
// AppendString.
func appendMarshaled(b []byte, s string) []byte {
	raw, _ := json.Marshal(s) // a string always encodes
	return append(b, raw...)
}

// AppendTime appends t as time.Time.MarshalJSON does.
func AppendTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		_, err := t.MarshalJSON() // its error
		return b, err
	}
	_, off := t.Zone()
	if off <= -24*3600 || off >= 24*3600 {
		_, err := t.MarshalJSON()
		return b, err
	}
	if off == 0 {
		return appendUTC(b, t), nil
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// appendUTC appends, quoted, t.AppendFormat(time.RFC3339Nano) for a time
// whose offset is zero and whose year has four digits: what every record's
// times are, written a digit at a time instead of through the layout
// (FuzzAppendTime checks it against AppendFormat).
func appendUTC(b []byte, t time.Time) []byte {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	b = append(b, '"')
	b = appendDigits(b, y, 4)
	b = appendDigits(append(b, '-'), int(mo), 2)
	b = appendDigits(append(b, '-'), d, 2)
	b = appendDigits(append(b, 'T'), h, 2)
	b = appendDigits(append(b, ':'), mi, 2)
	b = appendDigits(append(b, ':'), s, 2)
	if ns := t.Nanosecond(); ns != 0 {
		width := 9
		for ns%10 == 0 {
			ns /= 10
			width--
		}
		b = appendDigits(append(b, '.'), ns, width)
	}
	return append(b, 'Z', '"')
}

// appendDigits appends the width lowest decimal digits of v >= 0.
func appendDigits(b []byte, v, width int) []byte {
	n := len(b) + width
	b = append(b, "000000000"[:width]...)
	for i := n - 1; i >= n-width; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return b
}

// AppendFloat appends f as json.Marshal encodes a float64.
func AppendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		_, err := json.Marshal(f) // its error
		return b, err
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 is written e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// Member appends the separator before a member (none after the object's
// opening brace) and its name, which is plain text.
func Member(b []byte, name string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// StringMember appends the member name with the string value s, or nothing
// when omitEmpty and s is empty.
func StringMember(b []byte, name, s string, omitEmpty bool) []byte {
	if omitEmpty && s == "" {
		return b
	}
	return AppendString(Member(b, name), s)
}

// BoolMember appends the member name with true, or nothing for false.
func BoolMember(b []byte, name string, v bool) []byte {
	if !v { // every bool member is omitempty
		return b
	}
	return append(Member(b, name), "true"...)
}

// FloatMember appends the member name with f (AppendFloat).
func FloatMember(b []byte, name string, f float64) ([]byte, error) {
	return AppendFloat(Member(b, name), f)
}

// marshalsAsIs reports whether json.Marshal leaves the valid JSON raw as
// it is: no white space between tokens (white space in strings stays), and
// nothing its HTML escaping rewrites (<, > and & anywhere, U+2028 and
// U+2029).
func marshalsAsIs(raw []byte) bool {
	in := false // inside a string
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '"':
			in = !in
		case '\\':
			i++ // an escaped character: a quote here does not end the string
		case ' ', '\t', '\r', '\n':
			if !in {
				return false
			}
		case '<', '>', '&':
			return false
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
			if i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9) {
				return false
			}
		}
	}
	return true
}

// MarshaledMember appends the member name with json.Marshal(v).
func MarshaledMember(b []byte, name string, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(Member(b, name), raw...), nil
}

// IntMember appends the member name with n.
func IntMember(b []byte, name string, n int64) []byte {
	return strconv.AppendInt(Member(b, name), n, 10)
}

// TimeMember appends the member name with t as time.Time.MarshalJSON
// writes it (an error for a year outside 0..9999).
func TimeMember(b []byte, name string, t time.Time) ([]byte, error) {
	return AppendTime(Member(b, name), t)
}

// AppendRaw appends raw as json.Marshal encodes a json.RawMessage: null
// when nil, raw itself when it is valid and compact with nothing to escape
// (the stored accountInfo of an external account), else what encoding/json
// makes of it.
func AppendRaw(b []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	if json.Valid(raw) && marshalsAsIs(raw) {
		return append(b, raw...), nil
	}
	m, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	return append(b, m...), nil
}
