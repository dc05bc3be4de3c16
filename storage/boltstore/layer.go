package boltstore

import "github.com/paygrid/payments/storage/internal/keylist"

// layer holds writes that are not in the bbolt file yet: per table, each
// key's newest value or its deletion, with the keys in order for scans.
// Three kinds exist: a group's pending writes (before their log record is
// synced), the active layer (synced, what reads see over the file) and the
// frozen layer (being checkpointed into the file; never changed again).
type layer struct {
	tables map[string]*rows
	// size is the bytes of log records merged into the layer and last the
	// sequence number of the newest; a checkpoint stores last with the data.
	size int
	last uint64
}

type rows struct {
	m    map[string]entry
	keys keylist.List
}

// entry is a key's value, or its deletion (a tombstone hides the key in the
// layers below and in the file). A deletion is unbacked when neither the
// frozen layer nor the file holds the key: merged into the active layer it
// forgets the key instead of keeping a tombstone, so that queues written and
// emptied between checkpoints (the outbox, due work) leave nothing for their
// scans to step over.
type entry struct {
	v        []byte
	del      bool
	unbacked bool
}

func newLayer() *layer { return &layer{tables: map[string]*rows{}} }

func (l *layer) empty() bool { return len(l.tables) == 0 }

// get returns the entry of key, and whether the layer has one.
func (l *layer) get(table, key string) (entry, bool) {
	r := l.tables[table]
	if r == nil {
		return entry{}, false
	}
	e, ok := r.m[key]
	return e, ok
}

// set records e for key and returns what the layer held before.
func (l *layer) set(table, key string, e entry) (prev entry, existed bool) {
	r := l.tables[table]
	if r == nil {
		r = &rows{m: map[string]entry{}}
		l.tables[table] = r
	}
	return keylist.Put(&r.keys, r.m, key, e)
}

// unset forgets key, as if the layer had never held it.
func (l *layer) unset(table, key string) {
	r := l.tables[table]
	if r == nil {
		return
	}
	delete(r.m, key)
	r.keys.Remove(key)
	if len(r.m) == 0 {
		delete(l.tables, table)
	}
}

// merge copies every entry of from into l: from's writes are newer.
func (l *layer) merge(from *layer) {
	for table, r := range from.tables {
		for k, e := range r.m {
			if e.unbacked {
				l.unset(table, k)
			} else {
				l.set(table, k, e)
			}
		}
	}
}

// sortedKeys returns the keys of table's rows in order.
func (r *rows) sortedKeys() []string {
	return r.keys.Ascend(make([]string, 0, r.keys.Len()), "", false, r.keys.Len())
}
