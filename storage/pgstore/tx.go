package pgstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
)

// tx is one run of a transaction function, seen through payments.Tx.
//
// In an Update nothing is written before the commit: reads are answered
// from what the run already knows, the process's cache (cache.go) or one
// plain statement each, outside any transaction, and every record read is
// remembered with its version. Writes are kept in memory. The commit
// (commit.go) is one round trip: a SERIALIZABLE transaction that first reads
// again, in its snapshot, the versions of everything the run read (raising
// an error when one changed), then writes everything. A run whose reads
// were stale runs again. So an Update is serializable exactly as if the
// function had run inside that transaction, while it held no lock and no
// snapshot as it ran.
//
// In a View the reads run in a REPEATABLE READ READ ONLY transaction,
// begun by the first read in the same round trip.
type tx struct {
	txLedger // the ledger's methods (ledger.go)
	s        *Store
	ctx      context.Context
	c        *pgx.Conn
	u        *update // nil in a View
	writable bool
	done     bool
	// failed is the first database error of a read: the run stops, and
	// runs again when it was a conflict.
	failed error
	begun  bool // View: its snapshot transaction is open
	// optimistic: reads are answered outside any snapshot (the cache, or
	// one statement each) and remembered for the check at the end: every
	// Update, and a retryable View's first run.
	optimistic bool
	// undo notes what a function queued behind another changes, to undo
	// it when it fails (group.go); nil otherwise.
	undo *undo
	// reads counts the statements that read; a View that read with one
	// statement and nothing from the cache read a snapshot already.
	reads int

	recs  map[tkey]*rec
	bals  map[string]*bal
	scans []*scanRead
	// posted are the entries LedgerPost recorded, by id (their postings
	// need no decoding at commit).
	posted map[string]*payments.LedgerEntry
	// cached reports a read answered from the cache.
	cached bool
}

// tkey names a record.
type tkey struct{ table, key string }

// opKind is the write a record gets at commit.
type opKind uint8

const (
	opNone   opKind = iota
	opPut           // insert or replace
	opInsert        // insert; the commit fails when the record exists
	opDelete
)

// rec is what a run knows of one record.
type rec struct {
	v      []byte // the value as the run sees it
	exists bool
	// read: the run read the record; the commit checks that its version
	// is still ver (readExists false: that it still does not exist).
	read       bool
	readExists bool
	ver        int64
	op         opKind
	// bet: the run deleted the record without reading it, betting that it
	// existed; the commit checks the bet.
	bet bool
}

// scanRead is a range a run scanned from the database: the commit checks
// that the range up to the last key handed to fn still holds exactly keys
// at versions vers.
type scanRead struct {
	table       string
	opts        payments.ScanOptions
	through     string // the last key the scan reached ("" with none: the whole range)
	all         bool   // the scan read the range to its end
	keys        []string
	vers        []int64
	sawAnything bool
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

func clone(b []byte) []byte { return append([]byte{}, b...) }

// value never passes nil, which pgx would send as NULL.
func value(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// record returns what the run knows of k, reading it when it knows nothing.
func (t *tx) record(k tkey) (*rec, error) {
	if r := t.recs[k]; r != nil {
		return r, nil
	}
	r := &rec{read: t.optimistic}
	if under, ok, err := t.underLock(k); err != nil {
		return nil, err
	} else if ok {
		r.v, r.exists, r.readExists, r.ver = under.v, under.exists, under.exists, under.ver
		t.remember(k, r)
		return r, nil
	}
	if t.cacheable(k) {
		if e, ok := t.s.cache.get(k); ok {
			r.v, r.exists, r.readExists, r.ver = e.v, e.exists, e.exists, e.ver
			t.cached = true
			t.remember(k, r)
			return r, nil
		}
	}
	ver, v, ok, err := t.readRecord(k)
	if err != nil {
		return nil, t.fail(err)
	}
	r.v, r.exists, r.readExists, r.ver = v, ok, ok, ver
	t.remember(k, r)
	if t.optimistic && t.s.list(k.table) == nil {
		t.s.cache.put(k, cached{v: v, ver: ver, exists: ok})
	}
	return r, nil
}

// cacheable reports whether the run may answer a read of k from the cache:
// it reads optimistically, k was not found stale by an earlier run, and k
// is not hot (read under its lock).
func (t *tx) cacheable(k tkey) bool {
	if !t.optimistic || t.s.list(k.table) != nil {
		// A list's entries change with their records, which the cache
		// does not follow to them.
		return false
	}
	if t.u == nil {
		return true
	}
	return !t.u.fresh[k] && !t.s.hot.isHot(lockOf(k))
}

func (t *tx) remember(k tkey, r *rec) {
	t.touchRec(k)
	if t.recs == nil {
		t.recs = map[tkey]*rec{}
	}
	t.recs[k] = r
}

// readRecord reads a record from the database.
func (t *tx) readRecord(k tkey) (ver int64, v []byte, ok bool, err error) {
	// What the row holds, in one variable the scan writes (one
	// allocation, not one for each).
	var got struct {
		ver   int64
		v     []byte
		codec pgtype.Int2
		ok    bool
	}
	var sql string
	var args []any
	var sh *shape
	var codec *pgtype.Int2 // set for a row of payments_kv, whose value may be compressed
	if ix := t.s.list(k.table); ix != nil {
		sql, args = ix.getSQL(k.key)
	} else if sh = t.s.shape(k.table); sh != nil {
		sql, args = sh.get(k.key)
	} else {
		sql, args, codec = kvGetSQL, []any{t.s.stored(k.table), []byte(k.key)}, &got.codec
	}
	err = t.query(sql, args, func(rows pgx.Rows) error {
		for rows.Next() {
			b, err := scanStored(rows, sh, codec, &got.ver)
			if err != nil {
				return err
			}
			got.v, got.ok = clone(b), true
		}
		return rows.Err()
	})
	if err == nil && got.codec.Valid {
		got.v, err = t.s.codecs.decode(t.ctx, t.s, t.c, k.table, got.codec, got.v)
	}
	return got.ver, got.v, got.ok, err
}

// query runs one read statement and hands its rows to scan: in a View
// reading in its snapshot, inside it (begun in the same round trip when
// this is its first read), else on its own.
func (t *tx) query(sql string, args []any, scan func(pgx.Rows) error) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if t.u == nil && !t.optimistic && !t.begun {
		t.begun = true
		b := &batch{}
		b.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
		b.query(sql, scan, args...)
		_, err := b.send(t.ctx, t.s, t.c)
		return err
	}
	t.s.stat(1, 1)
	t.reads++
	rows, err := t.c.Query(t.ctx, sql, args...)
	if err != nil {
		return err
	}
	err = scan(rows)
	rows.Close()
	if err == nil {
		err = rows.Err()
	}
	return err
}

func (t *tx) Get(table, key string) ([]byte, error) {
	if err := t.check(false); err != nil {
		return nil, err
	}
	if table == engine.TableLedgerBalances {
		return t.getBalance(key)
	}
	r, err := t.record(tkey{table, key})
	if err != nil {
		return nil, err
	}
	if !r.exists {
		return nil, payments.ErrNotFound
	}
	return r.v, nil
}

// write records a write of v (nil: a delete) at k with op.
func (t *tx) write(k tkey, v []byte, op opKind) {
	r := t.recs[k]
	if r == nil {
		r = &rec{}
		t.remember(k, r)
	} else {
		t.touchRec(k)
	}
	r.v, r.exists = v, op != opDelete
	switch {
	case op == opPut && r.op == opInsert:
		// Still an insert, of the new value.
	default:
		r.op = op
	}
}

func (t *tx) Put(table, key string, v []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	if table == engine.TableLedgerBalances {
		return t.putBalance(key, v)
	}
	t.write(tkey{table, key}, value(v), opPut)
	return nil
}

func (t *tx) Insert(table, key string, v []byte) error {
	if err := t.check(true); err != nil {
		return err
	}
	if table == engine.TableLedgerBalances {
		return t.insertBalance(key, v)
	}
	return t.insert(tkey{table, key}, value(v))
}

// insert is Insert of a record table or a key-value table. A record the
// run knows nothing of is bet not to exist (new ids): the commit inserts it
// and fails when it does, and the next run reads it first (eager).
func (t *tx) insert(k tkey, v []byte) error {
	r := t.recs[k]
	if r == nil && t.u != nil && t.u.eager[k] {
		var err error
		if r, err = t.record(k); err != nil {
			return err
		}
	}
	switch {
	case r == nil:
		t.write(k, v, opInsert)
	case r.exists:
		return payments.ErrConflict
	case r.op == opDelete:
		// Deleted earlier in this run: a rewrite.
		t.write(k, v, opPut)
	default:
		t.write(k, v, opInsert)
	}
	return nil
}

func (t *tx) Delete(table, key string) error {
	if err := t.check(true); err != nil {
		return err
	}
	if table == engine.TableLedgerBalances {
		return t.deleteBalance(key)
	}
	k := tkey{table, key}
	if t.s.list(table) != nil {
		// An entry of a list answered from the rows: deleted with its
		// record's write, which the commit checks (lists.go).
		t.write(k, nil, opDelete)
		return nil
	}
	if t.recs[k] == nil && t.u != nil && !t.u.eager[k] && !t.s.hot.isHot(lockOf(k)) {
		// Bet that it exists (the index entries of a record's previous
		// version do): no round trip. When it did not, the commit fails
		// and the next run reads it first, answering ErrNotFound.
		t.remember(k, &rec{op: opDelete, bet: true})
		return nil
	}
	r, err := t.record(k)
	if err != nil {
		return err
	}
	if !r.exists {
		return payments.ErrNotFound
	}
	if r.op == opInsert && !r.read {
		// A record this run inserted on the bet that it did not exist:
		// gone again, and the commit still checks the bet.
		t.touchRec(k)
		r.op, r.v, r.exists = opNone, nil, false
		r.read, r.readExists, r.ver = true, false, 0
		return nil
	}
	t.write(k, nil, opDelete)
	return nil
}

// Scan batch sizes: a scan reads firstBatch records, then twice as many each
// time up to maxBatch, seeking again after the last key it read. So a scan
// that stops early (a page of a list) reads little.
const (
	firstBatch = 32
	maxBatch   = 1024
)

// kv is one record a scan reads.
type kv struct {
	k     string
	v     []byte
	ver   int64
	codec pgtype.Int2 // payments_kv's codec of v (codec.go)
}

// inKV reports whether table's records are rows of payments_kv.
func (t *tx) inKV(table string) bool {
	return table != engine.TableLedgerBalances && t.s.list(table) == nil && t.s.shape(table) == nil
}

func (t *tx) Scan(table string, opts payments.ScanOptions, fn func(key string, value []byte) (bool, error)) error {
	if err := t.check(false); err != nil {
		return err
	}
	var sr *scanRead
	if t.optimistic {
		// Checked at the end, as the records read.
		sr = &scanRead{table: table, opts: opts}
		t.scans = append(t.scans, sr)
	}
	// The run's own writes in the range, in scan order: they are visited
	// in their place and replace what the database holds.
	pending := t.pendingIn(table, opts)
	batch := make([]kv, 0, firstBatch)
	size := firstBatch
	after := opts.After
	inKV := t.inKV(table)
	for {
		batch = batch[:0]
		query, args, sh := t.scanQuery(table, opts.Prefix, after, opts.Reverse, size)
		err := t.query(query, args, func(rows pgx.Rows) error {
			for rows.Next() {
				var e kv
				var k []byte
				var codec *pgtype.Int2
				if inKV {
					codec = &e.codec
				}
				var err error
				if e.v, err = scanStored(rows, sh, codec, &k, &e.ver); err != nil {
					return err
				}
				e.k = string(k)
				batch = append(batch, e)
			}
			return nil
		})
		// Decoded once the rows are read: a dictionary not loaded yet is
		// read on the same connection.
		for i := range batch {
			if e := &batch[i]; e.codec.Valid && err == nil {
				e.v, err = t.s.codecs.decode(t.ctx, t.s, t.c, table, e.codec, e.v)
			}
		}
		if err != nil {
			return t.fail(err)
		}
		more := len(batch) == size
		for _, e := range batch {
			if sr != nil {
				sr.keys, sr.vers, sr.through = append(sr.keys, e.k), append(sr.vers, e.ver), e.k
			}
			// The run's writes before this key come first.
			for len(pending) > 0 && before(pending[0], e.k, opts.Reverse) {
				p := pending[0]
				pending = pending[1:]
				if v, ok := t.current(table, p); ok {
					if cont, err := fn(p, v); err != nil || !cont {
						return err
					}
				}
			}
			if len(pending) > 0 && pending[0] == e.k {
				pending = pending[1:]
			}
			v, ok := e.v, true
			if cur, known := t.currentKnown(table, e.k); known {
				v, ok = cur, cur != nil
			}
			if !ok {
				continue
			}
			if cont, err := fn(e.k, v); err != nil || !cont {
				return err
			}
		}
		if !more {
			break
		}
		after = batch[len(batch)-1].k
		size = min(size*2, maxBatch)
	}
	if sr != nil {
		sr.all = true
	}
	for _, p := range pending {
		if v, ok := t.current(table, p); ok {
			if cont, err := fn(p, v); err != nil || !cont {
				return err
			}
		}
	}
	return nil
}

// before reports whether key a comes before b in scan order.
func before(a, b string, reverse bool) bool {
	if reverse {
		return a > b
	}
	return a < b
}

// pendingIn returns the keys of table in the range of opts that the run
// wrote, in scan order.
func (t *tx) pendingIn(table string, opts payments.ScanOptions) []string {
	var keys []string
	in := func(k string) bool {
		if !strings.HasPrefix(k, opts.Prefix) {
			return false
		}
		return opts.After == "" || before(opts.After, k, opts.Reverse)
	}
	if table == engine.TableLedgerBalances {
		for k, b := range t.bals {
			if b.changed() && in(k) {
				keys = append(keys, k)
			}
		}
	} else {
		for k, r := range t.recs {
			if k.table == table && r.op != opNone && in(k.key) {
				keys = append(keys, k.key)
			}
		}
	}
	slices.Sort(keys)
	if opts.Reverse {
		slices.Reverse(keys)
	}
	return keys
}

// current returns the value of a record the run wrote (ok false when it
// deleted it).
func (t *tx) current(table, key string) ([]byte, bool) {
	v, known := t.currentKnown(table, key)
	return v, known && v != nil
}

// currentKnown returns the value of key as the run changed it (nil for a
// deletion); known is false for a record the run did not write.
func (t *tx) currentKnown(table, key string) (v []byte, known bool) {
	if table == engine.TableLedgerBalances {
		b := t.bals[key]
		if b == nil || !b.changed() {
			return nil, false
		}
		if b.del {
			return nil, true
		}
		return strconv.AppendInt(nil, b.base+b.delta, 10), true
	}
	r := t.recs[tkey{table, key}]
	if r == nil || r.op == opNone {
		return nil, false
	}
	if !r.exists {
		return nil, true
	}
	return r.v, true
}

// scanQuery builds the range query of one scan batch: rows of (key, xmin,
// value), and of the stripped columns after them where the table is a
// record table, returned (scanRecord reads such rows). Each combination of
// bounds gets its own statement text, so every prepared plan is a plain
// index range scan.
func (t *tx) scanQuery(table, prefix, after string, reverse bool, limit int) (string, []any, *shape) {
	var q strings.Builder
	var args []any
	if ix := t.s.list(table); ix != nil {
		keys := ix.query(listRange{prefix: prefix, after: after, reverse: reverse, limit: limit}, func(v any, typ string) string {
			args = append(args, v)
			return "$" + strconv.Itoa(len(args)) + "::" + typ
		})
		return "SELECT k, 0::bigint, ''::bytea FROM (" + keys + ") AS ix", args, nil
	}
	var key string
	var bind func(string) any
	sh := t.s.shape(table)
	if sh != nil && sh.journal {
		q, args := t.journalScanQuery(prefix, after, reverse, limit)
		return q, args, sh
	}
	switch {
	case table == engine.TableLedgerBalances:
		key = `(account || '|' || currency) COLLATE "C"`
		q.WriteString(`SELECT convert_to(account || '|' || currency, 'UTF8'), xmin::text::bigint, convert_to(balance::text, 'UTF8') FROM ledger_balances WHERE true`)
		bind = func(s string) any { return s }
	case sh != nil:
		key = sh.key
		q.WriteString("SELECT convert_to(" + sh.key + ", 'UTF8'), xmin::text::bigint, convert_to(" + sh.doc + ", 'UTF8')" + sh.stripSQL() + " FROM " + ident(sh.sql) + " WHERE true")
		bind = func(s string) any { return s }
	default:
		key = "k"
		q.WriteString("SELECT k, xmin::text::bigint, v, codec FROM payments_kv WHERE tbl = $1")
		args = append(args, t.s.stored(table))
		bind = func(s string) any { return []byte(s) }
	}
	arg := func(cond string, v string) {
		args = append(args, bind(v))
		q.WriteString(" AND " + key + " " + cond + " $" + strconv.Itoa(len(args)))
	}
	if prefix != "" {
		arg(">=", prefix)
		if end := payments.PrefixEnd(prefix); end != "" {
			arg("<", end)
		}
	}
	if after != "" {
		if reverse {
			arg("<", after)
		} else {
			arg(">", after)
		}
	}
	if reverse {
		q.WriteString(" ORDER BY " + key + " DESC")
	} else {
		q.WriteString(" ORDER BY " + key)
	}
	args = append(args, limit)
	q.WriteString(" LIMIT $" + strconv.Itoa(len(args)))
	return q.String(), args, sh
}

// journalScanQuery is scanQuery of the journal: its rows in the range,
// read from the B-trees keeping the ids (journalRange).
func (*tx) journalScanQuery(prefix, after string, reverse bool, limit int) (string, []any) {
	var args []any
	arg := func(v any, typ string) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args)) + "::" + typ
	}
	conds := keyConds(prefix, after, "", reverse)
	sel := "convert_to(" + journalKey + ", 'UTF8') AS k, xmin::text::bigint AS v, convert_to(" + journalDoc + ", 'UTF8') AS d"
	q := journalRange(sel, conds, reverse, arg(limit, "bigint"), arg)
	return q, args
}

// keyConds are the conditions of the keys of a scan's range: under
// prefix, past after and up to through (each "" for none) in scan order.
func keyConds(prefix, after, through string, reverse bool) []keyCond {
	var conds []keyCond
	if prefix != "" {
		conds = append(conds, keyCond{">=", prefix})
		if end := payments.PrefixEnd(prefix); end != "" {
			conds = append(conds, keyCond{"<", end})
		}
	}
	if after != "" {
		if reverse {
			conds = append(conds, keyCond{"<", after})
		} else {
			conds = append(conds, keyCond{">", after})
		}
	}
	if through != "" {
		if reverse {
			conds = append(conds, keyCond{">=", through})
		} else {
			conds = append(conds, keyCond{"<=", through})
		}
	}
	return conds
}
