// Package ixkey spells the keys of secondary indexes: the kernel keeps an
// index of a record table as a store table of its own, holding one
// empty-valued entry per value a record has in it,
//
//	<value>|<sortKey>|<id>
//
// value is escaped so that it never contains '|' (EscapeValue); sortKey is
// the record's createdAt in milliseconds as 16 hex digits that sort like
// the signed number (SortKey); id is the record's key. Within one value
// entries are therefore in creation order, ties broken by id, and a
// createdAt range is a key range. It is a leaf of pure functions: the
// kernel (internal/engine) writes and reads the entries, and code that
// scans an index directly spells its prefixes with it.
package ixkey

import (
	"slices"
	"strings"
	"time"
)

// AppendValues appends to out the non-empty vs without repeats: what a
// function listing a record's values in an index uses, since a record must
// have each entry once.
func AppendValues(out []string, vs ...string) []string {
	start := len(out)
	for _, v := range vs {
		if v != "" && !slices.Contains(out[start:], v) {
			out = append(out, v)
		}
	}
	return out
}

// SortKey is t in milliseconds as 16 hex digits ordered like the signed
// number (the zero time sorts first).
func SortKey(t time.Time) string {
	var b [16]byte
	return string(AppendSortKey(b[:0], t))
}

// AppendSortKey appends SortKey(t) to b: flipping the sign bit makes
// unsigned, fixed-width hex order agree with signed time order.
func AppendSortKey(b []byte, t time.Time) []byte {
	const digits = "0123456789abcdef"
	u := uint64(t.UnixMilli()) ^ 1<<63
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, digits[u>>uint(shift)&0xf])
	}
	return b
}

// SortSuffix is what follows the value in an index key of the record id
// created at t: "|<sortKey>|<id>".
func SortSuffix(t time.Time, id string) string {
	var k [64]byte
	return string(AppendSortSuffix(k[:0], t, id))
}

// AppendSortSuffix appends SortSuffix(t, id) to b.
func AppendSortSuffix(b []byte, t time.Time, id string) []byte {
	b = AppendSortKey(append(b, '|'), t)
	return append(append(b, '|'), id...)
}

// valueEscaper escapes '%' too, so that escaping is reversible and two
// values never escape alike.
var valueEscaper = strings.NewReplacer("%", "%25", "|", "%7C")

// EscapeValue keeps '|' out of an index value, so a value's prefix
// "<value>|" never matches another value's entries.
func EscapeValue(v string) string { return valueEscaper.Replace(v) }

// Escaped is EscapeValue(v) without the escaper's work for a value with
// neither '%' nor '|' (nearly all: ids, statuses, types).
func Escaped(v string) string {
	if !strings.ContainsAny(v, "%|") {
		return v
	}
	return EscapeValue(v)
}
