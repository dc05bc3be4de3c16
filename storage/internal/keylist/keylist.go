// Package keylist keeps a table's keys in byte order for the in-memory
// parts of the stores: memstore's tables and the writes boltstore holds in
// memory until they are in its file. It lives apart so both share one
// ordered structure.
package keylist

import "slices"

// chunkMax bounds the entries of one chunk of a Sorted: inserting or
// removing moves at most this many entries, plus the chunk headers.
const chunkMax = 512

// Entry is a key and its value.
type Entry[V any] struct {
	Key string
	Val V
}

// Sorted is a table's keys in byte order with a value each, kept in sorted
// chunks of at most chunkMax entries. Finding, inserting or removing a key
// costs O(log n + chunkMax) and seeking costs O(log n), so large tables
// (index tables of 100k+ entries) neither slow down every write nor every
// range scan, as one sorted slice did. A key above every key (ids made in
// time order, index entries under a creation time) is appended to the last
// chunk after one comparison.
type Sorted[V any] struct {
	chunks [][]Entry[V] // non-empty, ordered, and every key of chunk i below those of i+1
	n      int
}

// Len is the number of keys.
func (l *Sorted[V]) Len() int { return l.n }

// Above reports whether k is above every key, so not present: ids made in
// time order arrive so, and are known to be new without another lookup.
func (l *Sorted[V]) Above(k string) bool {
	n := len(l.chunks)
	if n == 0 {
		return true
	}
	last := l.chunks[n-1]
	return k > last[len(last)-1].Key
}

// seek returns the position of the first key >= k (ci == len(chunks) when
// there is none).
func (l *Sorted[V]) seek(k string) (ci, i int) {
	if l.Above(k) {
		return len(l.chunks), 0
	}
	// Binary searches written out: sort.Search's calls of a closure were
	// a third of a lookup.
	lo, hi := 0, len(l.chunks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ch := l.chunks[m]; ch[len(ch)-1].Key < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if ci = lo; ci < len(l.chunks) {
		ch := l.chunks[ci]
		lo, hi = 0, len(ch)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if ch[m].Key < k {
				lo = m + 1
			} else {
				hi = m
			}
		}
		i = lo
	}
	return ci, i
}

// find returns the entry of k, nil when k is not present.
func (l *Sorted[V]) find(k string) *Entry[V] {
	ci, i := l.seek(k)
	if ci < len(l.chunks) && l.chunks[ci][i].Key == k {
		return &l.chunks[ci][i]
	}
	return nil
}

// Get returns the value of k, and whether k is present.
func (l *Sorted[V]) Get(k string) (v V, ok bool) {
	if e := l.find(k); e != nil {
		return e.Val, true
	}
	return v, false
}

// Set sets the value of k, adding k when not present, and returns the value
// it replaced.
func (l *Sorted[V]) Set(k string, v V) (prev V, existed bool) {
	ci, i := l.seek(k)
	if ci < len(l.chunks) && l.chunks[ci][i].Key == k {
		e := &l.chunks[ci][i]
		prev, e.Val = e.Val, v
		return prev, true
	}
	l.insertAt(Entry[V]{k, v}, ci, i)
	return prev, false
}

// Add adds k with v unless k is present, and reports whether it did.
func (l *Sorted[V]) Add(k string, v V) bool {
	ci, i := l.seek(k)
	if ci < len(l.chunks) && l.chunks[ci][i].Key == k {
		return false
	}
	l.insertAt(Entry[V]{k, v}, ci, i)
	return true
}

// insertAt inserts e at the position seek returned for its key.
func (l *Sorted[V]) insertAt(e Entry[V], ci, i int) {
	l.n++
	if len(l.chunks) == 0 {
		l.chunks = [][]Entry[V]{{e}}
		return
	}
	if ci == len(l.chunks) { // above every key: append to the last chunk
		ci = len(l.chunks) - 1
		i = len(l.chunks[ci])
	}
	ch := slices.Insert(l.chunks[ci], i, e)
	if len(ch) <= chunkMax {
		l.chunks[ci] = ch
		return
	}
	// Both halves get arrays of their own, so the one ch outgrew is
	// freed: the left half exactly its size (keys arriving in order never
	// return to it), the right room to grow.
	half := len(ch) / 2
	right := append(make([]Entry[V], 0, chunkMax), ch[half:]...)
	l.chunks[ci] = slices.Clone(ch[:half])
	l.chunks = slices.Insert(l.chunks, ci+1, right)
}

// Remove deletes k when present, and returns its value and whether it was.
func (l *Sorted[V]) Remove(k string) (prev V, existed bool) {
	ci, i := l.seek(k)
	if ci == len(l.chunks) || l.chunks[ci][i].Key != k {
		return prev, false
	}
	prev = l.chunks[ci][i].Val
	l.n--
	ch := slices.Delete(l.chunks[ci], i, i+1)
	if len(ch) == 0 {
		l.chunks = slices.Delete(l.chunks, ci, ci+1)
		return prev, true
	}
	l.chunks[ci] = ch
	return prev, true
}

// Ascend appends to buf up to limit entries with keys >= from (> from when
// exclusive), in order, and returns it.
func (l *Sorted[V]) Ascend(buf []Entry[V], from string, exclusive bool, limit int) []Entry[V] {
	l.ascend(from, exclusive, limit, func(e *Entry[V]) { buf = append(buf, *e) })
	return buf
}

// Descend appends to buf up to limit entries with keys < before (every
// key when before is ""), in descending order, and returns it.
func (l *Sorted[V]) Descend(buf []Entry[V], before string, limit int) []Entry[V] {
	l.descend(before, limit, func(e *Entry[V]) { buf = append(buf, *e) })
	return buf
}

// ascend passes up to limit entries with keys >= from (> from when
// exclusive) to yield, in order.
func (l *Sorted[V]) ascend(from string, exclusive bool, limit int, yield func(*Entry[V])) {
	n := 0
	ci, i := l.seek(from)
	for ; ci < len(l.chunks) && n < limit; ci, i = ci+1, 0 {
		ch := l.chunks[ci]
		for j := i; j < len(ch) && n < limit; j++ {
			if exclusive && ch[j].Key == from {
				continue
			}
			yield(&ch[j])
			n++
		}
	}
}

// descend passes up to limit entries with keys < before (every key when
// before is "") to yield, in descending order.
func (l *Sorted[V]) descend(before string, limit int, yield func(*Entry[V])) {
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
	n := 0
	for ; ci >= 0 && n < limit; ci-- {
		if i < 0 {
			i = len(l.chunks[ci])
		}
		for j := i - 1; j >= 0 && n < limit; j-- {
			yield(&l.chunks[ci][j])
			n++
		}
		i = -1
	}
}

// List is a table's keys alone, in byte order (a Sorted without values).
type List struct{ s Sorted[struct{}] }

// Len is the number of keys.
func (l *List) Len() int { return l.s.n }

// Above reports whether k is above every key (Sorted.Above).
func (l *List) Above(k string) bool { return l.s.Above(k) }

// Has reports whether k is present.
func (l *List) Has(k string) bool { return l.s.find(k) != nil }

// Insert adds k, which must not be present.
func (l *List) Insert(k string) {
	ci, i := l.s.seek(k)
	l.s.insertAt(Entry[struct{}]{Key: k}, ci, i)
}

// Add adds k unless present, and reports whether it did.
func (l *List) Add(k string) bool { return l.s.Add(k, struct{}{}) }

// Remove deletes k when present, and reports whether it was.
func (l *List) Remove(k string) bool {
	_, ok := l.s.Remove(k)
	return ok
}

// Ascend appends to buf up to limit keys >= from (> from when exclusive), in
// order, and returns it.
func (l *List) Ascend(buf []string, from string, exclusive bool, limit int) []string {
	l.s.ascend(from, exclusive, limit, func(e *Entry[struct{}]) { buf = append(buf, e.Key) })
	return buf
}

// Descend appends to buf up to limit keys < before (every key when before is
// ""), in descending order, and returns it.
func (l *List) Descend(buf []string, before string, limit int) []string {
	l.s.descend(before, limit, func(e *Entry[struct{}]) { buf = append(buf, e.Key) })
	return buf
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
