package payments

import (
	"context"
	"maps"
	"slices"
)

// The registries: every area declares to the kernel what it keeps and what
// it runs (its tables with their indexes, its due work, its background
// passes), and New registers the declarations, so the kernel iterates what
// was registered instead of naming every area.

// tableDef declares one table of the engine's state.
type tableDef struct {
	name string
	// record returns a new record of the table's JSON type: a sandbox
	// import decodes every record of the table into it, so a fixture
	// cannot plant a record the engine would fail to read later. Nil: the
	// table's values are not JSON records.
	record func() any
	// ix are the table's secondary indexes (index.go); nil: none.
	ix *tableIndexes
	// credentials marks the tables of API credentials: state export and
	// import leave them alone, and a reset clears them only when it
	// rotates the token.
	credentials bool
}

// areaDef is what one area registers with the kernel.
type areaDef struct {
	tables []tableDef
	// due are its tables of work due on the engine clock, in the order a
	// pass runs them.
	due []dueWork
	// intents are the kinds of intent it writes.
	intents []intentKind
	// hooks are the delivery hooks it serves (each set at most once over
	// all areas; the lists add up).
	hooks deliveryHooks
	// state is the area's state, kept on the core (slot).
	state []slotEntry
	// passes run after the due tables on every pass of the due-work
	// worker (and ProcessDue); each returns how many items moved.
	passes []func(ctx context.Context) (int, error)
}

// registry holds what the areas registered.
type registry struct {
	tables  map[string]*tableDef
	names   []string // every table, sorted
	due     []dueWork
	intents map[string]*intentKind
	passes  []func(ctx context.Context) (int, error)
	hooks   deliveryHooks
	slots   []slotEntry // the areas' state (slot)
}

// register adds the declarations of areas, in order (due work runs in the
// order it was registered). A table declared twice panics: it is a
// programming error.
func (r *registry) register(areas ...areaDef) {
	if r.tables == nil {
		r.tables, r.intents = map[string]*tableDef{}, map[string]*intentKind{}
	}
	for _, a := range areas {
		for i := range a.tables {
			d := &a.tables[i]
			if _, dup := r.tables[d.name]; dup {
				panic("payments: table " + d.name + " declared twice")
			}
			r.tables[d.name] = d
		}
		for i := range a.intents {
			k := &a.intents[i]
			if _, dup := r.intents[k.name]; dup {
				panic("payments: intent kind " + k.name + " declared twice")
			}
			r.intents[k.name] = k
		}
		r.hooks.add(a.hooks)
		r.slots = append(r.slots, a.state...)
		r.due = append(r.due, a.due...)
		r.passes = append(r.passes, a.passes...)
	}
	r.names = slices.Sorted(maps.Keys(r.tables))
}

// indexesOf returns the indexes of table, or nil.
func (r *registry) indexesOf(table string) *tableIndexes {
	if d := r.tables[table]; d != nil {
		return d.ix
	}
	return nil
}

// stateTables lists the tables a sandbox state export carries and a reset
// clears: every registered table but the credentials, sorted.
func (r *registry) stateTables() []string {
	return slices.DeleteFunc(slices.Clone(r.names), func(n string) bool { return r.tables[n].credentials })
}

// credentialTables lists the tables of API credentials, sorted.
func (r *registry) credentialTables() []string {
	return slices.DeleteFunc(slices.Clone(r.names), func(n string) bool { return !r.tables[n].credentials })
}

// add merges the hooks of one area into h. A hook served twice panics: it
// is a programming error.
func (h *deliveryHooks) add(o deliveryHooks) {
	if o.endpoint != nil {
		if h.endpoint != nil {
			panic("payments: two areas serve the webhook endpoint")
		}
		h.endpoint = o.endpoint
	}
	if o.answered != nil {
		if h.answered != nil {
			panic("payments: two areas read webhook answers")
		}
		h.answered, h.answerTypes = o.answered, o.answerTypes
	}
	h.once = append(h.once, o.once...)
}

// slot is the key of one area's state, shared by every handle of an engine
// (its configuration and caches): the area's registration makes it at New
// (areaDef.state), and its operations read it. Keys are package-level
// variables of the areas.
type slot[T any] struct{ _ byte } // not zero-sized: each key has its own address

type slotEntry struct{ key, val any }

// with returns the entry that installs v as the state of s.
func (s *slot[T]) with(v *T) slotEntry { return slotEntry{s, v} }

// of returns the state of s on e's engine.
func (s *slot[T]) of(e *handle) *T {
	for _, x := range e.reg.slots {
		if x.key == s {
			return x.val.(*T)
		}
	}
	panic("payments: an area's state was not registered")
}

// withIndexTables returns tables followed by the index tables of those that
// are indexed.
func (r *registry) withIndexTables(tables []string) []string {
	out := slices.Clone(tables)
	for _, table := range tables {
		if ti := r.indexesOf(table); ti != nil {
			for _, name := range slices.Sorted(maps.Keys(ti.names)) {
				out = append(out, indexTable(table, name))
			}
		}
	}
	return out
}

// rebuildIndexes writes the index entries of every record of the indexed
// state tables (whose index tables are empty).
func (r *registry) rebuildIndexes(tx Tx) error {
	for _, table := range r.names {
		d := r.tables[table]
		if d.ix == nil || d.credentials {
			continue
		}
		err := tx.Scan(table, ScanOptions{}, func(k string, v []byte) (bool, error) {
			es, err := d.ix.entries(k, nil, v)
			if err != nil {
				return false, err
			}
			return true, updateEntries(tx, nil, es)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
