// Package keylist keeps a table's keys in byte order for the in-memory
// parts of the stores: memstore's tables and the writes boltstore holds in
// memory until they are in its file. It lives apart so both share one
// ordered structure.
package keylist

import (
	"slices"
	"sort"
)

// chunkMax bounds the keys of one chunk of a List: inserting or removing
// moves at most this many keys, plus the chunk headers.
const chunkMax = 512

// List is a table's keys in byte order, kept in sorted chunks of at most
// chunkMax keys. Inserting or removing a key costs O(log n + chunkMax) and
// seeking costs O(log n), so large tables (index tables of 100k+ entries)
// neither slow down every write nor every range scan, as one sorted slice
// did.
type List struct {
	chunks [][]string // non-empty, ordered, and every key of chunk i below those of i+1
	n      int
}

// Len is the number of keys.
func (l *List) Len() int { return l.n }

// seek returns the position of the first key >= k (ci == len(chunks) when
// there is none).
func (l *List) seek(k string) (ci, i int) {
	// Above every key: most keys arrive in order (time-ordered ids,
	// index entries under a creation time), and find their place in one
	// comparison.
	if l.Above(k) {
		return len(l.chunks), 0
	}
	ci = sort.Search(len(l.chunks), func(c int) bool {
		ch := l.chunks[c]
		return ch[len(ch)-1] >= k
	})
	if ci < len(l.chunks) {
		i = sort.SearchStrings(l.chunks[ci], k)
	}
	return ci, i
}

// Above reports whether k is above every key, so not present: ids made in
// time order arrive so, and are known to be new without another lookup.
func (l *List) Above(k string) bool {
	n := len(l.chunks)
	if n == 0 {
		return true
	}
	last := l.chunks[n-1]
	return k > last[len(last)-1]
}

// Has reports whether k is present.
func (l *List) Has(k string) bool {
	ci, i := l.seek(k)
	return ci < len(l.chunks) && l.chunks[ci][i] == k
}

// Insert adds k, which must not be present.
func (l *List) Insert(k string) {
	l.insertAt(k, -1, 0)
}

// Add adds k unless present, and reports whether it did.
func (l *List) Add(k string) bool {
	ci, i := l.seek(k)
	if ci < len(l.chunks) && l.chunks[ci][i] == k {
		return false
	}
	l.insertAt(k, ci, i)
	return true
}

// insertAt inserts k at the position seek returned for it (ci < 0: not
// sought yet).
func (l *List) insertAt(k string, ci, i int) {
	l.n++
	if len(l.chunks) == 0 {
		l.chunks = [][]string{{k}}
		return
	}
	if ci < 0 {
		ci, i = l.seek(k)
	}
	if ci == len(l.chunks) { // above every key: append to the last chunk
		ci = len(l.chunks) - 1
		i = len(l.chunks[ci])
	}
	ch := slices.Insert(l.chunks[ci], i, k)
	if len(ch) <= chunkMax {
		l.chunks[ci] = ch
		return
	}
	half := len(ch) / 2
	right := append(make([]string, 0, chunkMax), ch[half:]...)
	l.chunks[ci] = slices.Clip(ch[:half])
	l.chunks = slices.Insert(l.chunks, ci+1, right)
}

// Put sets m[k] to v, adding k to l when m did not hold it (l holds m's
// keys), and returns the value it replaced.
func Put[V any](l *List, m map[string]V, k string, v V) (prev V, existed bool) {
	prev, existed = m[k]
	if !existed {
		l.Insert(k)
	}
	m[k] = v
	return prev, existed
}

// Remove deletes k when present, and reports whether it was.
func (l *List) Remove(k string) bool {
	ci, i := l.seek(k)
	if ci == len(l.chunks) || l.chunks[ci][i] != k {
		return false
	}
	l.n--
	ch := slices.Delete(l.chunks[ci], i, i+1)
	if len(ch) == 0 {
		l.chunks = slices.Delete(l.chunks, ci, ci+1)
		return true
	}
	l.chunks[ci] = ch
	return true
}

// Ascend appends to buf up to limit keys >= from (> from when exclusive), in
// order, and returns it.
func (l *List) Ascend(buf []string, from string, exclusive bool, limit int) []string {
	ci, i := l.seek(from)
	for ; ci < len(l.chunks) && len(buf) < limit; ci, i = ci+1, 0 {
		for _, k := range l.chunks[ci][i:] {
			if exclusive && k == from {
				continue
			}
			if len(buf) == limit {
				break
			}
			buf = append(buf, k)
		}
	}
	return buf
}

// Descend appends to buf up to limit keys < before (every key when before is
// ""), in descending order, and returns it.
func (l *List) Descend(buf []string, before string, limit int) []string {
	ci, i := len(l.chunks)-1, 0
	if ci >= 0 {
		i = len(l.chunks[ci])
	}
	if before != "" {
		ci, i = l.seek(before)
		if ci == len(l.chunks) {
			ci--
			if ci >= 0 {
				i = len(l.chunks[ci])
			}
		}
	}
	for ; ci >= 0 && len(buf) < limit; ci-- {
		if i < 0 {
			i = len(l.chunks[ci])
		}
		for j := i - 1; j >= 0 && len(buf) < limit; j-- {
			buf = append(buf, l.chunks[ci][j])
		}
		i = -1
	}
	return buf
}
