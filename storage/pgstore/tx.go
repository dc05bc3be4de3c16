package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
)

// tx is one transaction seen through payments.Tx.
//
// It remembers every record it read or wrote (known), so reading a record
// again or reading one's own write costs no statement and, under
// SERIALIZABLE, takes no predicate lock that a concurrent writer of a
// neighbouring key would conflict with. Puts, and Deletes of records known
// to exist, are buffered and sent together, in one round trip, before the
// next Scan and at commit. Inserts are buffered too, betting that the
// record does not exist (new ids): when one did, the attempt fails and the
// next runs that Insert at once, answering ErrConflict. Deletes of records
// not known run at once because their answer (ErrNotFound) depends on the
// database.
type tx struct {
	ctx      context.Context
	ptx      pgx.Tx
	writable bool
	done     bool
	// failed is the first database error: after it PostgreSQL refuses
	// every statement, and a serialization failure means run fn again
	// whatever fn made of the error.
	failed error
	stmts  *atomic.Int64
	hotKey int32 // the hot record that stopped the attempt

	known   map[tkey]record
	pending map[tkey]bool // buffered writes; the value is in known

	// Contention (locks.go): the process's hot records, the locks this
	// Update holds, the records read from the database and those written.
	hot     *hotSet
	locks   *locks
	read    map[tkey]bool
	written map[tkey]bool

	// inserts are the buffered writes of Insert (flush checks the record
	// did not exist); eager the records whose Insert runs at once, after an
	// attempt found one existed. eager belongs to the Update.
	inserts map[tkey]bool
	eager   map[tkey]bool
}

// errLateConflict fails an attempt whose buffered Insert found its record.
var errLateConflict = errors.New("pgstore: an inserted record existed")

// wrote records a write of k.
func (t *tx) wrote(k tkey) {
	if t.written == nil {
		t.written = map[tkey]bool{}
	}
	t.written[k] = true
}

// contended returns the lock keys of the records the transaction read from
// the database and wrote (those a conflict is about), except the ones it
// holds. After errHotKey it is the hot record's alone.
func (t *tx) contended() []int32 {
	if errors.Is(t.failed, errHotKey) {
		return []int32{t.hotKey}
	}
	var keys []int32
	for k := range t.written {
		if lk := lockOf(k); t.read[k] && !t.locks.held[lk] {
			keys = append(keys, lk)
		}
	}
	return keys
}

// checkHot stops the attempt when k is hot and this Update holds no lock
// yet. (Once it holds some, it runs on: the records it locked order it
// behind their other writers, and it stops at most once per Update.)
func (t *tx) checkHot(k tkey) error {
	if t.hot == nil || len(t.locks.held) > 0 {
		return nil
	}
	lk := lockOf(k)
	if t.locks.held[lk] || !t.hot.stop(lk) {
		return nil
	}
	t.hotKey = lk
	return t.fail(errHotKey)
}

// tkey names a record.
type tkey struct{ table, key string }

// record is what a transaction knows of one record.
type record struct {
	v      []byte
	exists bool
}

// run calls fn, turning a panic into an error.
func (t *tx) run(fn func(payments.Tx) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("pgstore: panic in transaction: %v", p)
		}
		t.done = true
	}()
	return fn(t)
}

func (t *tx) check(write bool) error {
	if t.done {
		return errors.New("pgstore: transaction used after it ended")
	}
	if write && !t.writable {
		return payments.ErrReadOnly
	}
	return t.failed
}

// fail records a database error.
func (t *tx) fail(err error) error {
	if t.failed == nil {
		t.failed = err
	}
	return err
}

// remember records what the transaction knows of a record.
func (t *tx) remember(k tkey, v []byte, exists bool) {
	if t.known == nil {
		t.known = map[tkey]record{}
	}
	t.known[k] = record{v: v, exists: exists}
}

func clone(b []byte) []byte { return append([]byte{}, b...) }

func (t *tx) Get(table, key string) ([]byte, error) {
	if err := t.check(false); err != nil {
		return nil, err
	}
	k := tkey{table, key}
	if r, ok := t.known[k]; ok {
		if !r.exists {
			return nil, payments.ErrNotFound
		}
		return clone(r.v), nil
	}
	if err := t.checkHot(k); err != nil {
		return nil, err
	}
	t.stmts.Add(1)
	var v []byte
	err := t.ptx.QueryRow(t.ctx, "SELECT v FROM payments_kv WHERE tbl = $1 AND k = $2", stored(table), []byte(key)).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		t.remember(k, nil, false)
		return nil, payments.ErrNotFound
	}
	if err != nil {
		return nil, t.fail(err)
	}
	t.remember(k, clone(v), true)
	if t.read == nil {
		t.read = map[tkey]bool{}
	}
	t.read[k] = true
	return v, nil
}

func (t *tx) Put(table, key string, v []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	k := tkey{table, key}
	t.remember(k, clone(v), true)
	t.buffer(k)
	return nil
}

func (t *tx) Insert(table, key string, v []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	k := tkey{table, key}
	r, known := t.known[k]
	switch {
	case known && r.exists:
		return payments.ErrConflict
	case known && t.pending[k]:
		// Deleted earlier in this transaction: a rewrite.
		return t.Put(table, key, v)
	case !t.eager[k]:
		// Buffered like a Put; flush checks the record did not exist.
		t.remember(k, clone(v), true)
		t.buffer(k)
		if t.inserts == nil {
			t.inserts = map[tkey]bool{}
		}
		t.inserts[k] = true
		return nil
	}
	t.stmts.Add(1)
	tag, err := t.ptx.Exec(t.ctx, `INSERT INTO payments_kv (tbl, k, v) VALUES ($1, $2, $3)
		ON CONFLICT (tbl, k) DO NOTHING`, stored(table), []byte(key), clone(v))
	if err != nil {
		return t.fail(err)
	}
	if tag.RowsAffected() == 0 {
		return payments.ErrConflict
	}
	t.remember(k, clone(v), true)
	return nil
}

// buffer adds k to the writes flush sends.
func (t *tx) buffer(k tkey) {
	if t.pending == nil {
		t.pending = map[tkey]bool{}
	}
	t.pending[k] = true
	t.wrote(k)
}

func (t *tx) Delete(table, key string) error {
	if err := t.check(true); err != nil {
		return err
	}
	k := tkey{table, key}
	if r, ok := t.known[k]; ok {
		if !r.exists {
			return payments.ErrNotFound
		}
		if t.inserts[k] {
			// Check the buffered Insert before its record goes.
			if err := t.flush(); err != nil {
				return err
			}
		}
		t.remember(k, nil, false)
		t.buffer(k)
		return nil
	}
	t.stmts.Add(1)
	tag, err := t.ptx.Exec(t.ctx, "DELETE FROM payments_kv WHERE tbl = $1 AND k = $2", stored(table), []byte(key))
	if err != nil {
		return t.fail(err)
	}
	t.remember(k, nil, false)
	if tag.RowsAffected() == 0 {
		return payments.ErrNotFound
	}
	return nil
}

// flush sends the buffered writes in one round trip: one insert of the
// records Insert buffered, one upsert and one delete statement. A buffered
// Insert whose record existed after all fails the attempt with
// errLateConflict; the next attempt runs that Insert at once (eager).
func (t *tx) flush() error {
	if t.failed != nil || len(t.pending) == 0 {
		return t.failed
	}
	var ins, up, del rows
	for k := range t.pending {
		r := t.known[k]
		switch {
		case t.inserts[k]:
			ins.add(k, r.v)
		case r.exists:
			up.add(k, r.v)
		default:
			del.add(k, nil)
		}
	}
	clear(t.pending)
	clear(t.inserts)
	b := &pgx.Batch{}
	if len(ins.keys) > 0 {
		b.Queue(`INSERT INTO payments_kv (tbl, k, v)
			SELECT * FROM unnest($1::text[], $2::bytea[], $3::bytea[])
			ON CONFLICT (tbl, k) DO NOTHING`, ins.tables, ins.keys, ins.values)
	}
	if len(up.keys) > 0 {
		b.Queue(`INSERT INTO payments_kv (tbl, k, v)
			SELECT * FROM unnest($1::text[], $2::bytea[], $3::bytea[])
			ON CONFLICT (tbl, k) DO UPDATE SET v = excluded.v`, up.tables, up.keys, up.values)
	}
	if len(del.keys) > 0 {
		b.Queue(`DELETE FROM payments_kv WHERE (tbl, k) IN
			(SELECT * FROM unnest($1::text[], $2::bytea[]))`, del.tables, del.keys)
	}
	t.stmts.Add(1)
	br := t.ptx.SendBatch(t.ctx, b)
	if len(ins.keys) > 0 {
		tag, err := br.Exec()
		if err == nil && tag.RowsAffected() < int64(len(ins.keys)) {
			// Which ones existed is not worth a statement: the next
			// attempt runs every Insert of this one at once.
			for _, k := range ins.names {
				t.eager[k] = true
			}
			err = errLateConflict
		}
		if err != nil {
			_ = br.Close()
			return t.fail(err)
		}
	}
	if err := br.Close(); err != nil {
		return t.fail(err)
	}
	return nil
}

// rows are records of one statement of flush.
type rows struct {
	names        []tkey
	tables       []string // as stored
	keys, values [][]byte
}

func (r *rows) add(k tkey, v []byte) {
	r.names = append(r.names, k)
	r.tables, r.keys, r.values = append(r.tables, stored(k.table)), append(r.keys, []byte(k.key)), append(r.values, value(v))
}

// stored is the tbl value of an engine table. Records are ordered by (tbl,
// k) in one B-tree, and SERIALIZABLE's predicate locks on it are per leaf
// page: a page where every operation inserts (the tail of a table with
// time-ordered keys) must not also hold records that operations read, or
// every operation conflicts with every other (each read a page the other
// wrote). The outbox's tail and the quote expiries' (written by every
// quote) sat beside the platform's config, read by every operation, and
// the ledger entries' beside the outbox's head, read by every delivery:
// those three are stored after every other table (prefixed "zz", which
// sorts after the engine's names in any collation), the outbox last, so
// its tail is the B-tree's last page.
func stored(table string) string {
	switch table {
	case "quote_expiry":
		return "zz0_" + table
	case "ledger_entries":
		return "zz1_" + table
	case "outbox":
		return "zz2_" + table
	}
	return table
}

// value never passes nil, which pgx would send as NULL.
func value(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// Scan batch sizes: a scan reads firstBatch records, then twice as many each
// time up to maxBatch, seeking again after the last key it handed to fn. So
// a scan that stops early (a page of a list) reads little, and fn may write
// to the table it scans.
const (
	firstBatch = 32
	maxBatch   = 1024
)

func (t *tx) Scan(table string, opts payments.ScanOptions, fn func(key string, value []byte) (bool, error)) error {
	if err := t.check(false); err != nil {
		return err
	}
	type kv struct {
		k string
		v []byte
	}
	batch := make([]kv, 0, firstBatch)
	size := firstBatch
	after := opts.After
	for {
		// fn may have written (buffered) since the last batch.
		if err := t.flush(); err != nil {
			return err
		}
		t.stmts.Add(1)
		query, args := scanQuery(table, opts.Prefix, after, opts.Reverse, size)
		rows, err := t.ptx.Query(t.ctx, query, args...)
		if err != nil {
			return t.fail(err)
		}
		batch = batch[:0]
		for rows.Next() {
			var k, v []byte
			if err := rows.Scan(&k, &v); err != nil {
				rows.Close()
				return t.fail(err)
			}
			batch = append(batch, kv{string(k), v})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return t.fail(err)
		}
		for _, e := range batch {
			if r, ok := t.known[tkey{table, e.k}]; ok {
				// fn wrote it since the batch was read.
				if !r.exists {
					continue
				}
				e.v = r.v
			}
			more, err := fn(e.k, e.v)
			if err != nil || !more {
				return err
			}
		}
		if len(batch) < size {
			return nil
		}
		after = batch[len(batch)-1].k
		size = min(size*2, maxBatch)
	}
}

// scanQuery builds the range query of one scan batch. Each combination of
// bounds gets its own statement text, so every prepared plan is a plain
// index range scan.
func scanQuery(table, prefix, after string, reverse bool, limit int) (string, []any) {
	var q strings.Builder
	q.WriteString("SELECT k, v FROM payments_kv WHERE tbl = $1")
	args := []any{stored(table)}
	arg := func(cond string, v any) {
		args = append(args, v)
		q.WriteString(" AND k " + cond + " $" + strconv.Itoa(len(args)))
	}
	if prefix != "" {
		arg(">=", []byte(prefix))
		if end := payments.PrefixEnd(prefix); end != "" {
			arg("<", []byte(end))
		}
	}
	if after != "" {
		if reverse {
			arg("<", []byte(after))
		} else {
			arg(">", []byte(after))
		}
	}
	if reverse {
		q.WriteString(" ORDER BY k DESC")
	} else {
		q.WriteString(" ORDER BY k")
	}
	args = append(args, limit)
	q.WriteString(" LIMIT $" + strconv.Itoa(len(args)))
	return q.String(), args
}
