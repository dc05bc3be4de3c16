package boltstore

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
	bolt "go.etcd.io/bbolt"
)

// How values are kept in the file. The engine's records are JSON in which
// each record of a table repeats its neighbours' member names, ids and
// timestamps, so most of a value can be said by pointing into the values
// before it. A file made by this version (formatKey in the meta bucket)
// keeps each non-empty value behind one codec byte:
//
//	codecRaw   the value as it is
//	codecDict  the value compressed with s2 against its table's dictionary
//
// A table's dictionary is the newest dictSize bytes of its values in the
// first checkpoint whose values of that table reach dictMin bytes; it is
// stored beside the data (dictPrefix+table in the meta bucket) in that
// checkpoint's commit and never changes, so every value compressed with it
// stays readable. Values written before it exists, and those it does not
// shorten, are kept raw. Empty values (index entries) are kept empty.
//
// Measured on 100,000 quote create+executes (internal/cmd/datascale): a
// quote of about 1,020 bytes is kept in about 120, a transaction of 915 in
// about 260, a ledger entry of 350 in about 105. The layers in memory and
// the log hold values as they are: only the checkpoint compresses (in the
// background), and a read from the file decompresses into the copy it
// made anyway.
//
// A file made by an earlier version (data and no formatKey) keeps its
// values raw, without codec bytes, and is read and written as before; an
// earlier version does not read a file made by this one.
const (
	codecRaw  byte = 0
	codecDict byte = 1
)

var (
	// formatKey marks, in the meta bucket, a file whose values carry a
	// codec byte.
	formatKey = []byte("format")
	// formatCodec is formatKey's value.
	formatCodec = []byte("codec1")
	// dictPrefix+table names a table's dictionary in the meta bucket.
	dictPrefix = "dict/"
)

const (
	// dictMin is how many bytes of a table's values one checkpoint must
	// hold before they make its dictionary: fewer would make a poor one
	// forever.
	dictMin = 4 << 10
	// dictSize bounds a dictionary (s2 allows 64 KiB).
	dictSize = 32 << 10
	// compressMin is the shortest value worth compressing.
	compressMin = 32
)

// codec encodes and decodes a file's values. Its dictionaries only grow;
// a reader may look one up while a checkpoint adds another.
type codec struct {
	on    bool // the file keeps codec bytes
	mu    sync.RWMutex
	dicts map[string]*s2.Dict
}

// openCodec reads the file's format and dictionaries; an empty file is
// given the format of this version.
func openCodec(db *bolt.DB) (*codec, error) {
	c := &codec{dicts: map[string]*s2.Dict{}}
	err := db.Update(func(btx *bolt.Tx) error {
		meta := btx.Bucket(metaBucket)
		if meta == nil {
			empty := true
			_ = btx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return nil // made by an earlier version: values raw
			}
			var err error
			if meta, err = btx.CreateBucket(metaBucket); err != nil {
				return err
			}
			if err := meta.Put(formatKey, formatCodec); err != nil {
				return err
			}
		}
		switch f := meta.Get(formatKey); {
		case f == nil:
			return nil
		case string(f) != string(formatCodec):
			return fmt.Errorf("boltstore: the file's format %q is not one this version reads", f)
		}
		c.on = true
		cur := meta.Cursor()
		for k, v := cur.Seek([]byte(dictPrefix)); k != nil && string(k[:min(len(k), len(dictPrefix))]) == dictPrefix; k, v = cur.Next() {
			d := s2.NewDict(v)
			if d == nil {
				return fmt.Errorf("boltstore: the dictionary of table %q is damaged", k[len(dictPrefix):])
			}
			c.dicts[string(k[len(dictPrefix):])] = d
		}
		return nil
	})
	return c, err
}

// dict returns table's dictionary, or nil.
func (c *codec) dict(table string) *s2.Dict {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.dicts[table]
}

// decode returns a fresh copy of the value v read from table in the file.
// A value the file cannot have written (damage) panics: the transaction
// that reads it fails with the panic's error.
func (c *codec) decode(table string, v []byte) []byte {
	if !c.on || len(v) == 0 {
		return clone(v)
	}
	switch v[0] {
	case codecRaw:
		return clone(v[1:])
	case codecDict:
		if d := c.dict(table); d != nil {
			if out, err := d.Decode(nil, v[1:]); err == nil {
				return out
			}
		}
	}
	panic(fmt.Sprintf("boltstore: a value of table %q in the file is damaged", table))
}

// encoder encodes the values of one table in one checkpoint.
type encoder struct {
	c *codec
	d *s2.Dict
}

// encoder returns the encoder of table's values in a checkpoint that
// writes r, whose keys in order are keys; when the table has no dictionary
// yet and r's values are enough, it makes one and stores it in meta.
func (c *codec) encoder(meta *bolt.Bucket, table string, r *rows, keys []string) (encoder, error) {
	if !c.on {
		return encoder{}, nil
	}
	if d := c.dict(table); d != nil {
		// Stored by an earlier checkpoint, or by one whose commit failed:
		// then it is stored again with this one.
		if meta.Get([]byte(dictPrefix+table)) == nil {
			if err := meta.Put([]byte(dictPrefix+table), d.Bytes()); err != nil {
				return encoder{}, err
			}
		}
		return encoder{c, d}, nil
	}
	var newest [][]byte // the values, newest (highest key) first, up to dictSize
	n, all := 0, 0
	for i := len(keys) - 1; i >= 0; i-- {
		if e := r.m[keys[i]]; !e.del && len(e.v) >= compressMin {
			all += len(e.v)
			if n < dictSize {
				newest = append(newest, e.v)
				n += len(e.v)
			}
		}
	}
	if all < dictMin {
		return encoder{c: c}, nil
	}
	data := make([]byte, 0, n)
	for i := len(newest) - 1; i >= 0; i-- {
		data = append(data, newest[i]...)
	}
	d := s2.MakeDict(data, newest[0][:min(len(newest[0]), 16)])
	if d == nil {
		return encoder{c: c}, nil
	}
	if err := meta.Put([]byte(dictPrefix+table), d.Bytes()); err != nil {
		return encoder{}, err
	}
	c.mu.Lock()
	c.dicts[table] = d
	c.mu.Unlock()
	return encoder{c, d}, nil
}

// encode returns v as the file keeps it.
func (e encoder) encode(v []byte) []byte {
	if e.c == nil || !e.c.on || len(v) == 0 {
		return v
	}
	if e.d != nil && len(v) >= compressMin {
		buf := make([]byte, 1+s2.MaxEncodedLen(len(v)))
		// buf[1:] is long enough: the encoding is written at its start.
		if n := len(e.d.Encode(buf[1:], v)); n < len(v) {
			buf[0] = codecDict
			return buf[: 1+n : 1+n]
		}
	}
	return append([]byte{codecRaw}, v...)
}
