package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/klauspost/compress/s2"
)

// How payments_kv keeps values (migration 6). The engine's records are
// JSON in which each record of a table repeats its neighbours' member
// names, ids and timestamps (an event of the history is about 1,250
// bytes), and PostgreSQL compresses no row under 2 KB, so a value is kept
// compressed with s2 against its table's dictionary when that is shorter:
//
//	codec NULL  v is the value as the engine wrote it
//	codec 1     v is the value compressed with s2 against the dictionary
//	            of the row's engine table (payments_kv_dicts)
//
// A table's dictionary is made by the first process whose commits wrote
// dictMin bytes of the table's values (the newest dictSize bytes of them),
// after the commit that reached it, on the Update's connection: never in a
// commit's round trip. It is inserted with ON CONFLICT DO NOTHING and read
// back, so that processes racing to make one all keep the one that won; it
// never changes once written, so a process loads a dictionary once, when
// it first reads a value compressed against it or makes one, and keeps it.
// Values written before the dictionary exists stay as they were written
// (codec NULL) and are read as they are: no row is ever rewritten.
//
// The store reads no value of payments_kv by SQL but to move records into
// their tables (move.go), which decodes them: the values are the engine's
// own. Measured on the sandbox server's history (internal/cmd/datascale
// -history): an event of 1,250 bytes is kept in about 150.
const (
	// codecDict is the codec of a value compressed against its table's
	// dictionary.
	codecDict int16 = 1
	// dictMin is how many bytes of a table's values a process collects
	// before they make the table's dictionary: fewer make a poorer one
	// forever (on the history's events: 260 bytes an event from 16 KiB,
	// 170 from 32, 140 from 64).
	dictMin = 64 << 10
	// dictSize bounds a dictionary (s2 allows 64 KiB).
	dictSize = 64 << 10
	// compressMin is the shortest value worth compressing.
	compressMin = 64
)

// kvGetSQL reads one row of payments_kv: its version, value and codec.
const kvGetSQL = "SELECT xmin::text::bigint, v, codec FROM payments_kv WHERE tbl = $1 AND k = $2"

// scanStored scans a row of head's columns followed by a stored value: a
// record of the table sh as scanRecord does, or, when codec is not nil, a
// value of payments_kv and its codec (decoded by the caller, once the
// rows are read: a dictionary not loaded yet is read on the connection).
func scanStored(rows pgx.Rows, sh *shape, codec *pgtype.Int2, head ...any) ([]byte, error) {
	if codec == nil {
		return scanRecord(rows, sh, head...)
	}
	var v []byte
	err := rows.Scan(append(head, &v, codec)...)
	return v, err
}

// codecs are the dictionaries this process knows, and the values it
// collects for those of the tables that have none yet.
type codecs struct {
	mu    sync.RWMutex
	dicts map[string]*s2.Dict // by engine table
	// samples are the values written of the tables without a dictionary,
	// oldest first (the engine's values, never written into).
	samples map[string]*sample
	// ready: a sample reached dictMin bytes.
	ready atomic.Bool
}

// sample is what a process collected of one table's values.
type sample struct {
	values [][]byte
	n      int
}

// dict returns table's dictionary, or nil when this process knows none.
func (c *codecs) dict(table string) *s2.Dict {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.dicts[table]
}

// learn keeps the dictionary b of table, as read from payments_kv_dicts.
func (c *codecs) learn(table string, b []byte) (*s2.Dict, error) {
	d := s2.NewDict(b)
	if d == nil {
		return nil, fmt.Errorf("pgstore: the dictionary of table %q is damaged", table)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.dicts[table]; old != nil {
		return old, nil
	}
	if c.dicts == nil {
		c.dicts = map[string]*s2.Dict{}
	}
	c.dicts[table] = d
	delete(c.samples, table)
	return d, nil
}

// encode returns v as payments_kv keeps it for table, with its codec
// (invalid: as written).
func (c *codecs) encode(table string, v []byte) ([]byte, pgtype.Int2) {
	if len(v) < compressMin {
		return v, pgtype.Int2{}
	}
	d := c.dict(table)
	if d == nil {
		return v, pgtype.Int2{}
	}
	if out := d.Encode(make([]byte, s2.MaxEncodedLen(len(v))), v); len(out) < len(v) {
		return out, pgtype.Int2{Int16: codecDict, Valid: true}
	}
	return v, pgtype.Int2{}
}

// collect notes the value v of table that a commit wrote, when the table
// has no dictionary yet and v is worth compressing.
func (c *codecs) collect(table string, v []byte) {
	if len(v) < compressMin || c.dict(table) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dicts[table] != nil {
		return
	}
	if c.samples == nil {
		c.samples = map[string]*sample{}
	}
	sm := c.samples[table]
	if sm == nil {
		sm = &sample{}
		c.samples[table] = sm
	}
	if sm.n >= dictMin {
		return // made after the next commit
	}
	sm.values, sm.n = append(sm.values, v), sm.n+len(v)
	if sm.n >= dictMin {
		c.ready.Store(true)
	}
}

// makeDicts makes the dictionaries of the tables whose samples are ready,
// on conn outside any transaction: each is inserted unless another process
// made the table's first, and the one stored is read back and kept. A
// failure leaves the samples to try again after a later commit.
func (c *codecs) makeDicts(ctx context.Context, s *Store, conn *pgx.Conn) error {
	if !c.ready.Swap(false) {
		return nil
	}
	type made struct {
		table string
		dict  []byte
		won   []byte
	}
	var todo []*made
	c.mu.Lock()
	for table, sm := range c.samples {
		if sm.n < dictMin {
			continue
		}
		// The newest values up to dictSize bytes, oldest first (s2 keeps
		// the last MaxDictSize bytes).
		first, n := len(sm.values), 0
		for first > 0 && n < dictSize {
			first--
			n += len(sm.values[first])
		}
		data := make([]byte, 0, n)
		for _, v := range sm.values[first:] {
			data = append(data, v...)
		}
		last := sm.values[len(sm.values)-1]
		if d := s2.MakeDict(data, last[:min(len(last), 16)]); d != nil {
			todo = append(todo, &made{table: table, dict: d.Bytes()})
		}
	}
	c.mu.Unlock()
	if len(todo) == 0 {
		return nil
	}
	b := &batch{}
	for _, m := range todo {
		b.exec("INSERT INTO payments_kv_dicts (tbl, dict) VALUES ($1, $2) ON CONFLICT (tbl) DO NOTHING", m.table, m.dict)
		b.query("SELECT dict FROM payments_kv_dicts WHERE tbl = $1", func(rows pgx.Rows) error {
			for rows.Next() {
				if err := rows.Scan(&m.won); err != nil {
					return err
				}
			}
			return nil
		}, m.table)
	}
	if _, err := b.send(ctx, s, conn); err != nil {
		c.ready.Store(true)
		return err
	}
	var errs []error
	for _, m := range todo {
		if _, err := c.learn(m.table, m.won); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// load returns table's dictionary, reading it on conn when this process
// does not know it yet.
func (c *codecs) load(ctx context.Context, s *Store, conn *pgx.Conn, table string) (*s2.Dict, error) {
	if d := c.dict(table); d != nil {
		return d, nil
	}
	s.stat(1, 1)
	var b []byte
	if err := conn.QueryRow(ctx, "SELECT dict FROM payments_kv_dicts WHERE tbl = $1", table).Scan(&b); err != nil {
		return nil, fmt.Errorf("pgstore: the dictionary of table %q: %w", table, err)
	}
	return c.learn(table, b)
}

// decode returns the value v of table kept with codec as the engine wrote
// it, loading the table's dictionary on conn when needed. A value kept as
// written is returned as it is.
func (c *codecs) decode(ctx context.Context, s *Store, conn *pgx.Conn, table string, codec pgtype.Int2, v []byte) ([]byte, error) {
	if !codec.Valid {
		return v, nil
	}
	if codec.Int16 != codecDict {
		return nil, fmt.Errorf("pgstore: a value of table %q is kept with codec %d, which this version does not read", table, codec.Int16)
	}
	d, err := c.load(ctx, s, conn, table)
	if err != nil {
		return nil, err
	}
	out, err := d.Decode(nil, v)
	if err != nil {
		return nil, fmt.Errorf("pgstore: a value of table %q is damaged: %w", table, err)
	}
	return out, nil
}
