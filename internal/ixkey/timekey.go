package ixkey

import (
	"fmt"
	"time"
)

// TimeKey is the key of an entry ordered by a time, then an id:
// "<SortKey(t)>|<id>" (the webhook pass's entries of events waiting
// until their next attempt).
func TimeKey(t time.Time, id string) string {
	b := make([]byte, 0, 17+len(id))
	b = AppendSortKey(b, t)
	return string(append(append(b, '|'), id...))
}

// SplitTimeKey returns the sort key and the id of a TimeKey; ok is false
// for a key that is not one.
func SplitTimeKey(k string) (sortKey, id string, ok bool) {
	if len(k) < 17 || k[16] != '|' {
		return "", "", false
	}
	return k[:16], k[17:], true
}

// ParseSortKey is SortKey's inverse: the millisecond a sort key spells
// (the zero time for one that is not 16 hex digits).
func ParseSortKey(k string) time.Time {
	if len(k) != 16 {
		return time.Time{}
	}
	var u uint64
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			return time.Time{}
		}
		u = u<<4 | uint64(c)
	}
	return time.UnixMilli(int64(u ^ 1<<63)).UTC()
}

// OrderedID reports whether k is prefix followed by a version-7 UUID in
// its text form, which sorts by the millisecond it was made in.
func OrderedID(prefix, k string) bool {
	if len(k) != len(prefix)+36 || k[:len(prefix)] != prefix {
		return false
	}
	return k[len(prefix)+14] == '7'
}

// IDFloor is the key below every OrderedID of prefix made at or after t:
// a version-7 UUID's text starts with its milliseconds, in hex.
func IDFloor(prefix string, t time.Time) string {
	ms := uint64(t.UnixMilli())
	return fmt.Sprintf("%s%08x-%04x", prefix, ms>>16&0xffffffff, ms&0xffff)
}
