package engine

import (
	"encoding/json"
	"time"

	"github.com/paygrid/payments/internal/jsonx"
)

// The generic JSON appenders are package jsonx's; the kernel's exported
// names below forward to them, so an area's record appenders read the same
// whichever package they name. Each record's own layout (eventrec.Append,
// appendLedgerEntry, ...) stays with its record.

// AppendFloat appends f as json.Marshal encodes a float64 (jsonx.AppendFloat).
func AppendFloat(b []byte, f float64) ([]byte, error) { return jsonx.AppendFloat(b, f) }

// Member appends the separator before a member (none after the object's
// opening brace) and its name, which is plain text (jsonx.Member).
func Member(b []byte, name string) []byte { return jsonx.Member(b, name) }

// StringMember appends the member name with the string value s, or nothing
// when omitEmpty and s is empty (jsonx.StringMember).
func StringMember(b []byte, name, s string, omitEmpty bool) []byte {
	return jsonx.StringMember(b, name, s, omitEmpty)
}

// BoolMember appends the member name with true, or nothing for false
// (jsonx.BoolMember).
func BoolMember(b []byte, name string, v bool) []byte { return jsonx.BoolMember(b, name, v) }

// FloatMember appends the member name with f (jsonx.FloatMember).
func FloatMember(b []byte, name string, f float64) ([]byte, error) {
	return jsonx.FloatMember(b, name, f)
}

// MarshaledMember appends the member name with json.Marshal(v)
// (jsonx.MarshaledMember).
func MarshaledMember(b []byte, name string, v any) ([]byte, error) {
	return jsonx.MarshaledMember(b, name, v)
}

// IntMember appends the member name with n (jsonx.IntMember).
func IntMember(b []byte, name string, n int64) []byte { return jsonx.IntMember(b, name, n) }

// TimeMember appends the member name with t as time.Time.MarshalJSON
// writes it, an error for a year outside 0..9999 (jsonx.TimeMember).
func TimeMember(b []byte, name string, t time.Time) ([]byte, error) {
	return jsonx.TimeMember(b, name, t)
}

// AppendRaw appends raw as json.Marshal encodes a json.RawMessage
// (jsonx.AppendRaw).
func AppendRaw(b []byte, raw json.RawMessage) ([]byte, error) { return jsonx.AppendRaw(b, raw) }

// Canon reads back what the appenders write, without reflection (package
// jsonx); a record in any other form is decoded by encoding/json.
type Canon = jsonx.Canon

// ReadCanon starts reading the object b (jsonx.ReadCanon).
func ReadCanon(b []byte) *Canon { return jsonx.ReadCanon(b) }

// Optional reads the member name with read when it comes next, returning
// nil when it is absent (jsonx.Optional).
func Optional[T any](c *Canon, name string, read func() T) *T { return jsonx.Optional(c, name, read) }
