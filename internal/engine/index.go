package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/ixkey"
)

// Secondary indexes: every list reads one of them (list.go), so a page costs
// O(limit + log n) whatever the size of the table. An index of a record
// table is a store table of its own, named "<table>_ix_<name>", holding one
// empty-valued entry per value the record has for it, keyed
// "<value>|<sortKey>|<id>" (package ixkey spells the keys). (Ids are UUIDv7
// and time-ordered, but they are not the creation order a list shows: a
// transaction's id is drawn when its quote is created and the transaction
// is written when the quote executes, and a test clock moves createdAt
// independently of the ids' wall-clock time.)
//
// Maintenance runs in the record's own transaction: PutJSON and InsertJSON
// call PutIndexed and InsertIndexed, and Txn.Delete removes a record's
// entries with it (a write straight to Tx would skip them, so areas write
// indexed tables only through these). To find the entries of a record's previous version the
// write reads and decodes the previous bytes (one Get of a record the
// transaction usually read anyway, and one decode) instead of keeping a
// per-record list of its index keys (one more Put on every write and a
// second copy of every key); only entries that changed are written, so a
// status change costs one Delete and one Put in the status index. An insert
// has no previous version and reads nothing.

// Index names every area may use; each table declares the indexes it has,
// and the areas name their own (a customer, an account, a holder, ...).
const (
	IxAll    = "all"    // every record, under the value ""
	IxStatus = "status" // a record's status
	IxType   = "type"   // a record's type
)

// AppendValues appends to out the non-empty vs without repeats: the helper
// an IxMany function uses (ixkey.AppendValues).
func AppendValues(out []string, vs ...string) []string { return ixkey.AppendValues(out, vs...) }

// Indexes are the indexes of one record table, made by Indexed and
// declared in TableDef.Ix.
type Indexes struct {
	table string
	names map[string]bool
	// entries returns the index entries of the record at id: from v when it
	// is the table's record type (or a pointer to it), else decoded from b.
	entries func(id string, v any, b []byte) ([]indexEntry, error)
}

// indexEntry is one entry: a key in an index table.
type indexEntry struct{ table, key string }

// indexDef names an index and the values a record has in it (Ix, IxMany,
// Every).
type indexDef[T any] struct {
	name string
	one  func(*T) string             // the record's value ("" for none), or
	many func(*T, []string) []string // appends its values, or
	// every is set for IxAll: every record, under the value "".
	every bool
}

// Ix declares the index name in which a record has the value value(record),
// or none when that is "".
func Ix[T any](name string, value func(*T) string) indexDef[T] {
	return indexDef[T]{name: name, one: value}
}

// IxMany declares the index name in which a record has the values that
// values appends to out (AppendValues).
func IxMany[T any](name string, values func(rec *T, out []string) []string) indexDef[T] {
	return indexDef[T]{name: name, many: values}
}

// Every declares the IxAll index of records of type T.
func Every[T any]() indexDef[T] { return indexDef[T]{name: IxAll, every: true} }

// Indexed declares the indexes of table, whose records are T created at
// created(record): the creation time orders every index. created must not
// change over a record's life, or its entries would move in lists.
func Indexed[T any](table string, created func(*T) time.Time, defs ...indexDef[T]) *Indexes {
	ti := &Indexes{table: table, names: map[string]bool{}}
	tables := make([]string, len(defs))
	for i, d := range defs {
		ti.names[d.name] = true
		tables[i] = IndexTable(table, d.name)
	}
	ti.entries = func(id string, v any, b []byte) ([]indexEntry, error) {
		var rec *T
		switch x := v.(type) {
		case *T:
			rec = x
		case T:
			rec = &x
		default:
			rec = new(T)
			if err := decodeRecord(b, rec); err != nil {
				return nil, err
			}
		}
		// Every key is written into one string of the exact size, and
		// sliced: a record's entries cost one allocation, not one each.
		var sfx [96]byte
		suffix := ixkey.AppendSortSuffix(sfx[:0], created(rec), id) // the IxAll key, first in keys
		// Each entry's key is keys[from:to]: the suffix for IxAll, else
		// its escaped value and the suffix, in order after it.
		type entry struct {
			table, v string // v escaped; "" for IxAll
			from, to int
		}
		var eb [8]entry
		var many []string // d.many's values (a function value: a buffer given to it escapes)
		entries, size := eb[:0], len(suffix)
		add := func(table, v string) {
			v = ixkey.Escaped(v)
			entries = append(entries, entry{table, v, size, size + len(v) + len(suffix)})
			size += len(v) + len(suffix)
		}
		for i, d := range defs {
			switch {
			case d.every:
				entries = append(entries, entry{tables[i], "", 0, len(suffix)})
			case d.one != nil:
				if v := d.one(rec); v != "" {
					add(tables[i], v)
				}
			default:
				many = d.many(rec, many[:0])
				for _, v := range many {
					add(tables[i], v)
				}
			}
		}
		var sb strings.Builder
		sb.Grow(size)
		sb.Write(suffix)
		for _, e := range entries {
			if e.v != "" {
				sb.WriteString(e.v)
				sb.Write(suffix)
			}
		}
		keys := sb.String()
		out := make([]indexEntry, len(entries))
		for i, e := range entries {
			out[i] = indexEntry{e.table, keys[e.from:e.to]}
		}
		return out, nil
	}
	return ti
}

// IndexTable names the store table of an index.
func IndexTable(table, name string) string { return table + "_ix_" + name }

// EscapeValue keeps '|' out of an index value (ixkey.EscapeValue).
func EscapeValue(v string) string { return ixkey.EscapeValue(v) }

// PutIndexed stores the record b (v encoded) at key of table, replacing the
// index entries of its previous version with v's.
func PutIndexed(t *Txn, table, key string, v any, b []byte) error {
	if ti := t.Handle.Registry.indexesOf(table); ti != nil {
		var old []indexEntry
		prev, err := t.Get(table, key)
		switch {
		case err == nil:
			// A record this engine wrote (a status saved several times
			// in one operation, or a payment settling after the operation
			// that made it) has its entries remembered: they are not
			// decoded again from its bytes.
			if w, ok := writtenEntries(t, table, key, prev); ok {
				old = w
			} else if old, err = ti.entries(key, nil, prev); err != nil {
				return err
			}
		case !errors.Is(err, ErrNotFound):
			return err
		}
		next, err := ti.entries(key, v, b)
		if err != nil {
			return err
		}
		if err := updateEntries(t, old, next); err != nil {
			return err
		}
		rememberEntries(t, table, key, b, next)
	}
	return t.Put(table, key, b)
}

// InsertIndexed creates the record b (v encoded) at key of table
// (ErrConflict when taken) with its index entries.
func InsertIndexed(t *Txn, table, key string, v any, b []byte) error {
	return insertIndexed(t, table, key, v, b, true)
}

// insertIndexed is InsertIndexed; remember notes the entries for a later
// write of the record (rememberEntries), which a record that is seldom
// written again (a history record) does without.
func insertIndexed(t *Txn, table, key string, v any, b []byte, remember bool) error {
	if err := t.Insert(table, key, b); err != nil {
		return err
	}
	ti := t.Handle.Registry.indexesOf(table)
	if ti == nil {
		return nil
	}
	next, err := ti.entries(key, v, b)
	if err != nil {
		return err
	}
	if err := updateEntries(t, nil, next); err != nil {
		return err
	}
	if remember {
		rememberEntries(t, table, key, b, next)
	}
	return nil
}

// written is what a transaction wrote last at one key of an indexed table:
// the record's bytes and their index entries.
type written struct {
	b       []byte
	entries []indexEntry
}

// rememberEntries notes, in an engine transaction, that b with entries was
// written at key of table. The note is kept by the engine (core.written,
// a bounded cache), so a later operation changing the record finds the
// entries of its previous version without decoding it. A note of a
// transaction that then rolled back is harmless: it matches only those
// exact bytes.
func rememberEntries(t *Txn, table, key string, b []byte, entries []indexEntry) {
	t.Handle.written.Put(table+"\x00"+key, written{b, entries})
}

// writtenEntries returns the index entries of the record prev at key of
// table when the engine noted them for exactly these bytes: the entries
// are a function of the bytes, so a record changed since by other means (or
// by another process) is decoded as usual.
func writtenEntries(t *Txn, table, key string, prev []byte) ([]indexEntry, bool) {
	w, ok := t.Handle.written.Get(table + "\x00" + key)
	if !ok || !bytes.Equal(w.b, prev) {
		return nil, false
	}
	return w.entries, true
}

// Delete removes the record at key and, in an indexed table, its index
// entries: every engine delete goes through it.
func (t *Txn) Delete(table, key string) error {
	if ti := t.Handle.Registry.indexesOf(table); ti != nil {
		b, err := t.Tx.Get(table, key)
		if err != nil {
			return err
		}
		old, err := ti.entries(key, nil, b)
		if err != nil {
			return err
		}
		if err := updateEntries(t.Tx, old, nil); err != nil {
			return err
		}
	}
	return t.Tx.Delete(table, key)
}

// updateEntries deletes the entries of old that next lacks and puts those of
// next that old lacks.
func updateEntries(tx Tx, old, next []indexEntry) error {
	for _, e := range old {
		if !containsEntry(next, e) {
			if err := tx.Delete(e.table, e.key); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
	}
	for _, e := range next {
		if !containsEntry(old, e) {
			if err := tx.Put(e.table, e.key, []byte{}); err != nil {
				return err
			}
		}
	}
	return nil
}

func containsEntry(es []indexEntry, e indexEntry) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// Index builds. A store written before the indexes existed (or under other
// definitions) has records without entries: Register builds them before
// the engine serves.

const (
	// tableIndexMeta holds indexVersionKey: the indexVersion the entries
	// were built for.
	tableIndexMeta  = "index_meta"
	indexVersionKey = "version"
	// indexVersion names the definitions in indexes; change it whenever
	// they change so the next start rebuilds.
	indexVersion = "6"
	// indexBuildBatch is how many records (or stale entries) one build
	// transaction handles.
	indexBuildBatch = 1000
)

// buildIndexes rebuilds every index when the store's index version is not
// indexVersion, then records it: per table it clears the index tables and
// writes the entries of every record, indexBuildBatch records per
// transaction. A build interrupted by a crash starts again on the next
// Register (clearing, then writing, is idempotent); on an empty store it
// costs one read per table. It runs before this process's workers start.
func (e *Handle) buildIndexes(ctx context.Context) error {
	var version string
	err := e.Store.View(ctx, func(tx Tx) error {
		b, err := tx.Get(tableIndexMeta, indexVersionKey)
		version = string(b)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil || version == indexVersion {
		return err
	}
	tables := 0
	for _, table := range e.Registry.names {
		ti := e.Registry.indexesOf(table)
		if ti == nil {
			continue
		}
		tables++
		for _, name := range slices.Sorted(maps.Keys(ti.names)) {
			if err := batches(e, ctx, IndexTable(table, name), func(tx Tx, key string, _ []byte) error {
				return tx.Delete(IndexTable(table, name), key)
			}); err != nil {
				return err
			}
		}
		if err := batches(e, ctx, table, func(tx Tx, key string, b []byte) error {
			es, err := ti.entries(key, nil, b)
			if err != nil {
				return err
			}
			return updateEntries(tx, nil, es)
		}); err != nil {
			return fmt.Errorf("payments: building the indexes of %s: %w", table, err)
		}
	}
	e.Log.Info("payments: indexes built", "version", indexVersion, "tables", tables)
	return e.Store.Update(ctx, func(tx Tx) error {
		return tx.Put(tableIndexMeta, indexVersionKey, []byte(indexVersion))
	})
}

// batches calls fn for every record of table, in key order, indexBuildBatch
// records per transaction. fn may delete the record it is given.
func batches(e *Handle, ctx context.Context, table string, fn func(tx Tx, key string, b []byte) error) error {
	after := ""
	for {
		var n int
		var last string
		err := e.Store.Update(ctx, func(tx Tx) error {
			n, last = 0, after
			return tx.Scan(table, ScanOptions{After: after}, func(k string, v []byte) (bool, error) {
				n, last = n+1, k
				return n < indexBuildBatch, fn(tx, k, v)
			})
		})
		if err != nil || n < indexBuildBatch {
			return err
		}
		after = last
	}
}
