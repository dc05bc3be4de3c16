package boltstore

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/paygrid/payments"
	bolt "go.etcd.io/bbolt"
)

// reader is the committed state a transaction reads: the layers in memory,
// newest first (nil when absent), over a read-only bbolt transaction. A
// group's functions share one. frozen is the last of the layers: a key it or
// the file holds outlives a checkpoint of the layers above.
type reader struct {
	layers  []*layer
	frozen  *layer
	btx     *bolt.Tx
	codec   *codec // how the file keeps values
	buckets map[string]*handle
}

// newReader reads active over frozen (nil when none) over btx, whose
// values c decodes.
func newReader(active, frozen *layer, btx *bolt.Tx, c *codec) *reader {
	return &reader{layers: []*layer{active, frozen}, frozen: frozen, btx: btx, codec: c, buckets: map[string]*handle{}}
}

// tx is one function's transaction. pending is its group's writes (nil in
// View); log undoes this function's part of them.
type tx struct {
	r       *reader
	pending *layer
	done    bool
	log     []undo
}

// undo restores one key of the pending layer.
type undo struct {
	table, key string
	prev       entry
	existed    bool
}

// handle is a table's bucket in one bbolt transaction, with the cursor its
// point reads reuse: bbolt's Bucket.Get makes a cursor and grows its stack
// on every call.
type handle struct {
	*bolt.Bucket
	c *bolt.Cursor
}

// get is Bucket.Get through h's cursor.
func (h *handle) get(key []byte) []byte {
	k, v := h.c.Seek(key)
	if !bytes.Equal(k, key) {
		return nil
	}
	if v == nil {
		v = []byte{} // an empty value, not a missing one
	}
	return v
}

// table returns the bucket of name, or nil when the file has none.
func (r *reader) table(name string) *handle {
	if h, ok := r.buckets[name]; ok {
		return h
	}
	var h *handle
	if b := r.btx.Bucket([]byte(name)); b != nil {
		h = &handle{Bucket: b, c: b.Cursor()}
	}
	r.buckets[name] = h
	return h
}

func (t *tx) check(write bool) error {
	if t.done {
		return errors.New("boltstore: transaction used after it ended")
	}
	if write && t.pending == nil {
		return payments.ErrReadOnly
	}
	return nil
}

// lookup returns key's newest entry: from the pending writes, the layers
// or the file (a copy, decoded), and whether there is one.
func (t *tx) lookup(table, key string) (entry, bool) {
	if t.pending != nil {
		if e, ok := t.pending.get(table, key); ok {
			return e, true
		}
	}
	for _, l := range t.r.layers {
		if l == nil {
			continue
		}
		if e, ok := l.get(table, key); ok {
			return e, true
		}
	}
	if h := t.r.table(table); h != nil {
		if v := h.get([]byte(key)); v != nil {
			return entry{v: t.r.codec.decode(table, v)}, true
		}
	}
	return entry{}, false
}

func clone(b []byte) []byte { return append([]byte{}, b...) }

func (t *tx) Get(table, key string) ([]byte, error) {
	if err := t.check(false); err != nil {
		return nil, err
	}
	e, ok := t.lookup(table, key)
	if !ok || e.del {
		return nil, payments.ErrNotFound
	}
	return e.v, nil
}

func (t *tx) Put(table, key string, value []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	return t.set(table, key, entry{v: value[:len(value):len(value)]})
}

func (t *tx) Insert(table, key string, value []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	if e, ok := t.lookup(table, key); ok && !e.del {
		return payments.ErrConflict
	}
	return t.set(table, key, entry{v: value[:len(value):len(value)]})
}

func (t *tx) Delete(table, key string) error {
	if err := t.check(true); err != nil {
		return err
	}
	if e, ok := t.lookup(table, key); !ok || e.del {
		return payments.ErrNotFound
	}
	return t.set(table, key, entry{del: true, unbacked: !t.backed(table, key)})
}

// backed reports whether the frozen layer or the file holds a value for
// key: a deletion must then stay as a tombstone until the next checkpoint.
func (t *tx) backed(table, key string) bool {
	if t.r.frozen != nil {
		if e, ok := t.r.frozen.get(table, key); ok {
			return !e.del
		}
	}
	h := t.r.table(table)
	return h != nil && h.get([]byte(key)) != nil
}

// set records a write in the pending layer, refusing what the file could
// not hold (the checkpoint must not fail on it later).
func (t *tx) set(table, key string, e entry) error {
	switch {
	case table == "" || len(table) > bolt.MaxKeySize || table[0] == 0:
		return fmt.Errorf("boltstore: table name %q not allowed", table)
	case key == "" || len(key) > bolt.MaxKeySize:
		return fmt.Errorf("boltstore: key of %d bytes (1 to %d allowed)", len(key), bolt.MaxKeySize)
	case len(e.v) > bolt.MaxValueSize:
		return fmt.Errorf("boltstore: value of %d bytes (at most %d allowed)", len(e.v), bolt.MaxValueSize)
	}
	prev, existed := t.pending.set(table, key, e)
	t.log = append(t.log, undo{table: table, key: key, prev: prev, existed: existed})
	return nil
}

// rollback undoes this function's writes, newest first.
func (t *tx) rollback() {
	for i := len(t.log) - 1; i >= 0; i-- {
		u := t.log[i]
		if u.existed {
			t.pending.set(u.table, u.key, u.prev)
		} else {
			t.pending.unset(u.table, u.key)
		}
	}
	t.log = nil
}

// Scan merges the table's keys from the pending writes, the layers and the
// file. Each layer is read in batches and sought again after each (fn may
// write to the table it scans: a batch is a snapshot, later keys are read
// as they are then); the file is read through one cursor of the read-only
// transaction. A key's value is looked up in the pending writes again as
// it is passed to fn, so a key fn deleted or changed is seen as it is now.
func (t *tx) Scan(table string, opts payments.ScanOptions, fn func(key string, value []byte) (bool, error)) error {
	if err := t.check(false); err != nil {
		return err
	}
	var its []*iter
	for _, l := range append([]*layer{t.pending}, t.r.layers...) {
		if l == nil {
			continue
		}
		if rs := l.tables[table]; rs != nil {
			its = append(its, newIter(&layerSource{rows: rs}, opts))
		}
	}
	if h := t.r.table(table); h != nil {
		its = append(its, newIter(&boltSource{c: h.Cursor()}, opts))
	}
	before := func(a, b string) bool { return a < b }
	if opts.Reverse {
		before = func(a, b string) bool { return a > b }
	}
	for {
		var best *iter
		for _, it := range its {
			if it.ok && (best == nil || before(it.key, best.key)) {
				best = it // on equal keys the newer (earlier) source stays
			}
		}
		if best == nil {
			return nil
		}
		k, e, fromFile := best.key, best.e, best.fromFile()
		for _, it := range its {
			if it.ok && it.key == k {
				it.next()
			}
		}
		if t.pending != nil {
			if pe, ok := t.pending.get(table, k); ok {
				e, fromFile = pe, false
			}
		}
		if e.del {
			continue
		}
		if fromFile {
			e.v = t.r.codec.decode(table, e.v)
		}
		more, err := fn(k, e.v)
		if err != nil || !more {
			return err
		}
	}
}

// source is one ordered source of a scan: seek positions it on the first
// key at or after from in ascending order (after it when exclusive), or
// below before in descending order ("" from the last key); step moves on.
type source interface {
	seek(from string, exclusive bool, before string, reverse bool) (string, entry, bool)
	step() (string, entry, bool)
}

// iter walks one source over a scan's range: it starts where the options
// say and stops at the end of the prefix.
type iter struct {
	src     source
	prefix  string
	reverse bool
	key     string
	e       entry
	ok      bool
}

func newIter(src source, opts payments.ScanOptions) *iter {
	it := &iter{src: src, prefix: opts.Prefix, reverse: opts.Reverse}
	from, exclusive := max(opts.Prefix, opts.After), opts.After != "" && opts.After >= opts.Prefix
	before := opts.After
	if opts.Reverse && before == "" && opts.Prefix != "" {
		before = payments.PrefixEnd(opts.Prefix)
	}
	it.key, it.e, it.ok = src.seek(from, exclusive, before, opts.Reverse)
	it.settle()
	return it
}

func (it *iter) next() {
	it.key, it.e, it.ok = it.src.step()
	it.settle()
}

// settle skips keys above the prefix (descending from a bound above it) and
// ends the walk at the first key past it.
func (it *iter) settle() {
	for it.ok && !strings.HasPrefix(it.key, it.prefix) {
		if !it.reverse || it.key < it.prefix {
			it.ok = false
			return
		}
		it.key, it.e, it.ok = it.src.step()
	}
}

func (it *iter) fromFile() bool {
	_, ok := it.src.(*boltSource)
	return ok
}

// layerSource reads a layer's keys in batches of scanBatch.
type layerSource struct {
	rows    *rows
	reverse bool
	batch   []string
	i       int
	last    bool // the batch is the range's last
}

// scanBatch is how many keys of a layer a scan reads before seeking again.
const scanBatch = 64

func (s *layerSource) seek(from string, exclusive bool, before string, reverse bool) (string, entry, bool) {
	s.reverse = reverse
	s.fill(from, exclusive, before)
	return s.step()
}

func (s *layerSource) fill(from string, exclusive bool, before string) {
	if s.reverse {
		s.batch = s.rows.keys.Descend(s.batch[:0], before, scanBatch)
	} else {
		s.batch = s.rows.keys.Ascend(s.batch[:0], from, exclusive, scanBatch)
	}
	s.i = 0
	s.last = len(s.batch) < scanBatch
}

func (s *layerSource) step() (string, entry, bool) {
	if s.i == len(s.batch) {
		if s.last || len(s.batch) == 0 {
			return "", entry{}, false
		}
		at := s.batch[len(s.batch)-1]
		s.fill(at, true, at)
		if len(s.batch) == 0 {
			return "", entry{}, false
		}
	}
	k := s.batch[s.i]
	s.i++
	e, ok := s.rows.m[k]
	if !ok { // undone since the batch was read: nothing to show
		e = entry{del: true}
	}
	return k, e, true
}

// boltSource reads a bucket through a cursor of a read-only transaction
// (nothing changes under it).
type boltSource struct {
	c       *bolt.Cursor
	reverse bool
}

func (s *boltSource) seek(from string, exclusive bool, before string, reverse bool) (string, entry, bool) {
	s.reverse = reverse
	var k, v []byte
	switch {
	case reverse && before == "":
		k, v = s.c.Last()
	case reverse:
		if k, _ = s.c.Seek([]byte(before)); k == nil {
			k, v = s.c.Last()
		} else {
			k, v = s.c.Prev()
		}
	default:
		k, v = s.c.Seek([]byte(from))
		if exclusive && k != nil && string(k) == from {
			k, v = s.c.Next()
		}
	}
	return result(k, v)
}

func (s *boltSource) step() (string, entry, bool) {
	if s.reverse {
		return result(s.c.Prev())
	}
	return result(s.c.Next())
}

func result(k, v []byte) (string, entry, bool) {
	if k == nil {
		return "", entry{}, false
	}
	return string(k), entry{v: v}, true
}
