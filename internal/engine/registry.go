package engine

import (
	"context"
	"maps"
	"slices"

	"github.com/paygrid/payments/internal/errs"
)

// The registries: every area declares to the kernel what it keeps and what
// it runs (its tables with their indexes, its due work, its intent kinds,
// its delivery hooks, its background passes and its state), and the root's
// New registers the declarations (Handle.Register), so the kernel iterates
// what was registered instead of naming every area.

// TableDef declares one table of the engine's state.
type TableDef struct {
	// Name is the store table's name, unique over all areas (index tables
	// take "<Name>_ix_<index>").
	Name string
	// Record returns a new record of the table's JSON type: a sandbox
	// import decodes every record of the table into it, so a fixture
	// cannot plant a record the engine would fail to read later. Nil: the
	// table's values are not JSON records.
	Record func() any
	// Ix are the table's secondary indexes (Indexed, index.go); nil: none.
	Ix *Indexes
	// ID returns the id at which a record of the table (as Record returns
	// it, decoded) is kept, when that is not its top-level "id" member: a
	// sandbox import checks that every record of an indexed table is kept
	// at its id, which its index entries name. Nil: the "id" member.
	ID func(rec any) string
	// Required marks a table a sandbox state import must carry (the
	// platform's configuration, without which the engine cannot run).
	Required bool
	// Credentials marks the tables of API credentials: state export and
	// import leave them alone, and a reset clears them only when it
	// rotates the token.
	Credentials bool
	// Rows describes the table's records as rows of a relational store
	// (rows.go); nil: a store keeps them as it keeps any table's values.
	Rows *Rows
	// InsertsAtEnd marks a table that operations write at the end of its
	// key order (keys that begin with a time to come) and hardly read:
	// every write inserts after the keys already there. A store whose
	// conflicts are per page of one ordered index may keep such a table
	// apart from the records operations read, so that its busy tail shares
	// no page with them.
	InsertsAtEnd bool
}

// AreaDef is what one area registers with the kernel; an area's Area
// function returns it and the root's New passes it to Handle.Register.
// Every member is optional.
type AreaDef struct {
	// Tables are the tables the area keeps.
	Tables []TableDef
	// Due are its tables of work due on the engine clock, in the order a
	// pass runs them.
	Due []DueWork
	// Intents are the kinds of intent it writes.
	Intents []IntentKind
	// Hooks are the delivery hooks it serves (each set at most once over
	// all areas; the lists add up).
	Hooks DeliveryHooks
	// State is the area's state, kept on the core (Slot.With).
	State []SlotEntry
	// Passes run after the due tables on every pass of the due-work
	// worker (and ProcessDue); each returns how many items moved. A pass
	// runs its own transactions and must leave each item consistent on
	// its own, as due items do.
	Passes []func(ctx context.Context) (int, error)
	// Codes are the error codes only this area returns, with their HTTP
	// status; Code.Status and Codes know them once the area is registered.
	Codes map[Code]int
}

// Registry holds what the areas registered. It is written by Register
// before the workers start and only read afterwards, so it takes no lock.
type Registry struct {
	Tables  map[string]*TableDef
	names   []string // every table, sorted
	Due     []DueWork
	intents map[string]*IntentKind
	passes  []func(ctx context.Context) (int, error)
	hooks   DeliveryHooks
	slots   []SlotEntry // the areas' state (slot)
}

// register adds the declarations of areas, in order (due work runs in the
// order it was registered). A table declared twice panics: it is a
// programming error.
func (r *Registry) register(areas ...AreaDef) {
	if r.Tables == nil {
		r.Tables, r.intents = map[string]*TableDef{}, map[string]*IntentKind{}
	}
	for _, a := range areas {
		for i := range a.Tables {
			d := &a.Tables[i]
			if _, dup := r.Tables[d.Name]; dup {
				panic("payments: table " + d.Name + " declared twice")
			}
			checkRows(d)
			r.Tables[d.Name] = d
		}
		for i := range a.Intents {
			k := &a.Intents[i]
			if _, dup := r.intents[k.Name]; dup {
				panic("payments: intent kind " + k.Name + " declared twice")
			}
			r.intents[k.Name] = k
		}
		errs.Register(a.Codes)
		r.hooks.add(a.Hooks)
		r.slots = append(r.slots, a.State...)
		r.Due = append(r.Due, a.Due...)
		r.passes = append(r.passes, a.Passes...)
	}
	r.names = slices.Sorted(maps.Keys(r.Tables))
}

// indexesOf returns the indexes of table, or nil.
func (r *Registry) indexesOf(table string) *Indexes {
	if d := r.Tables[table]; d != nil {
		return d.Ix
	}
	return nil
}

// IntentKinds returns the names of the registered intent kinds, sorted.
func (r *Registry) IntentKinds() []string { return slices.Sorted(maps.Keys(r.intents)) }

// StateTables lists the tables a sandbox state export carries and a reset
// clears: every registered table but the credentials, sorted.
func (r *Registry) StateTables() []string {
	return slices.DeleteFunc(slices.Clone(r.names), func(n string) bool { return r.Tables[n].Credentials })
}

// CredentialTables lists the tables of API credentials, sorted.
func (r *Registry) CredentialTables() []string {
	return slices.DeleteFunc(slices.Clone(r.names), func(n string) bool { return !r.Tables[n].Credentials })
}

// add merges the hooks of one area into h. A hook served twice panics: it
// is a programming error.
func (h *DeliveryHooks) add(o DeliveryHooks) {
	if o.Endpoint != nil {
		if h.Endpoint != nil {
			panic("payments: two areas serve the webhook endpoint")
		}
		h.Endpoint, h.EndpointIn = o.Endpoint, o.EndpointIn
	}
	if o.Answered != nil {
		if h.Answered != nil {
			panic("payments: two areas read webhook answers")
		}
		h.Answered, h.AnswerTypes = o.Answered, o.AnswerTypes
	}
	h.Once = append(h.Once, o.Once...)
}

// Slot is the key of one area's state, shared by every handle of an engine
// (its configuration and caches): the area's registration installs it
// (AreaDef.State, Slot.With), and its operations read it (Slot.Of). Keys
// are package-level variables of the areas; since the value lives on the
// engine, two engines in one process never share an area's state.
type Slot[T any] struct{ _ byte } // not zero-sized: each key has its own address

// SlotEntry is one area state to install: a Slot key and its value, made
// by Slot.With.
type SlotEntry struct{ key, val any }

// With returns the entry that installs v as the state of s.
func (s *Slot[T]) With(v *T) SlotEntry { return SlotEntry{s, v} }

// Of returns the state of s on e's engine. It panics when the area that
// owns s was not registered: a wiring error, not a runtime condition. The
// lookup is a short linear scan, cheaper than a map for a few areas.
func (s *Slot[T]) Of(e *Handle) *T {
	for _, x := range e.Registry.slots {
		if x.key == s {
			return x.val.(*T)
		}
	}
	panic("payments: an area's state was not registered")
}

// WithIndexTables returns tables followed by the index tables of those that
// are indexed.
func (r *Registry) WithIndexTables(tables []string) []string {
	out := slices.Clone(tables)
	for _, table := range tables {
		if ti := r.indexesOf(table); ti != nil {
			for _, name := range slices.Sorted(maps.Keys(ti.names)) {
				out = append(out, IndexTable(table, name))
			}
		}
	}
	return out
}

// RebuildIndexes writes the index entries of every record of the indexed
// state tables (whose index tables are empty), in tx: a sandbox state
// import, which writes records without entries, calls it before it
// commits.
func (r *Registry) RebuildIndexes(tx Tx) error {
	for _, table := range r.names {
		d := r.Tables[table]
		if d.Ix == nil || d.Credentials {
			continue
		}
		err := tx.Scan(table, ScanOptions{}, func(k string, v []byte) (bool, error) {
			es, err := d.Ix.entries(k, nil, v)
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
