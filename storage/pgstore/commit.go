package pgstore

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments/internal/engine"
)

// The commit of an Update: one round trip carrying one SERIALIZABLE
// transaction,
//
//	BEGIN ISOLATION LEVEL SERIALIZABLE
//	  check the versions of the records the run read, and its scans (raise PGS01 when one changed)
//	  write the records, per table and kind one data-modifying CTE
//	  apply the balances' deltas, checking them (raise PGL01 when a check fails)
//	COMMIT
//	give up the advisory locks the Update took
//
// Everything the run read is read again in the transaction's snapshot, so
// SERIALIZABLE sees the run's reads as the transaction's own: a concurrent
// writer of anything it read conflicts with it as it would have with the
// whole run inside the transaction.

// SQLSTATEs the store's functions raise (migration 4).
const (
	codeStale  = "PGS01" // a record the run read changed
	codeLedger = "PGL01" // a balance check failed
)

// errRerun fails an attempt that must run again: what it read changed, an
// insert found its record, or PostgreSQL reported a conflict.
var errRerun = errors.New("pgstore: run again")

// batch is a pipeline of statements being built.
type batch struct {
	b     pgx.Batch
	reads []func(pgx.BatchResults) error
}

func (b *batch) exec(sql string, args ...any) {
	b.b.Queue(sql, args...)
	b.reads = append(b.reads, func(br pgx.BatchResults) error { _, err := br.Exec(); return err })
}

func (b *batch) query(sql string, scan func(pgx.Rows) error, args ...any) {
	b.b.Queue(sql, args...)
	b.reads = append(b.reads, func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		if err := scan(rows); err != nil {
			return err
		}
		rows.Close()
		return rows.Err()
	})
}

// send sends the batch and reads every result; it returns the first error
// and the index of the statement that failed (len(reads) when it was none:
// the batch's closing).
func (b *batch) send(ctx context.Context, s *Store, c *pgx.Conn) (failed int, err error) {
	s.stat(len(b.b.QueuedQueries), 1)
	br := c.SendBatch(ctx, &b.b)
	failed = len(b.reads)
	for i, read := range b.reads {
		if err = read(br); err != nil {
			failed = i
			break
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return failed, err
}

// stmt builds the one statement of a commit: data-modifying CTEs (all of
// them run, on the statement's one snapshot), check CTEs (each counting
// the stale things it found, having raised on the first), and a result
// whose first row carries the transaction id and forces every check, and
// whose other rows are the balances the commit changed.
type stmt struct {
	sql    strings.Builder
	args   []any
	ctes   int
	checks []string
	ledger string // the final SELECT's branch of balances, or ""
	// accounts is the CTE of the ledger accounts new to the process, as
	// (id, name, currency), or "": the final SELECT hands their keys back.
	accounts string
}

// arg adds a parameter and returns its placeholder, cast to typ.
func (s *stmt) arg(v any, typ string) string {
	s.args = append(s.args, v)
	return "$" + strconv.Itoa(len(s.args)) + "::" + typ
}

// valuesMax is the most rows a statement passes as a VALUES list of
// parameters; more travel as one array per column (unnest). A payment's
// rows are few: parameters spare building and unpacking arrays on both
// sides (and PostgreSQL a function scan per array to set up).
const valuesMax = 40

// rows returns a FROM item holding rows, named alias(names): cols are the
// columns, each a slice of one column's values (all as long), typs their
// SQL types.
func (s *stmt) rows(alias string, names, typs []string, cols ...any) string {
	n := colLen(cols[0])
	var b strings.Builder
	if n > valuesMax {
		b.WriteString("unnest(")
		for c, col := range cols {
			if c > 0 {
				b.WriteString(", ")
			}
			b.WriteString(s.arg(col, typs[c]+"[]"))
		}
		b.WriteString(")")
	} else {
		b.WriteString("(VALUES ")
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for c, col := range cols {
				if c > 0 {
					b.WriteString(", ")
				}
				b.WriteString(s.arg(colAt(col, i), typs[c]))
			}
			b.WriteByte(')')
		}
		b.WriteString(")")
	}
	b.WriteString(" AS " + alias + "(" + strings.Join(names, ", ") + ")")
	return b.String()
}

func colLen(col any) int {
	switch c := col.(type) {
	case []string:
		return len(c)
	case [][]byte:
		return len(c)
	case []int64:
		return len(c)
	case []int32:
		return len(c)
	case []bool:
		return len(c)
	case []pgtype.Text:
		return len(c)
	case []pgtype.Int8:
		return len(c)
	case []pgtype.Int2:
		return len(c)
	case []pgtype.UUID:
		return len(c)
	}
	panic(fmt.Sprintf("pgstore: a column of %T", col))
}

func colAt(col any, i int) any {
	switch c := col.(type) {
	case []string:
		return c[i]
	case [][]byte:
		return c[i]
	case []int64:
		return c[i]
	case []int32:
		return c[i]
	case []bool:
		return c[i]
	case []pgtype.Text:
		return c[i]
	case []pgtype.Int8:
		return c[i]
	case []pgtype.Int2:
		return c[i]
	case []pgtype.UUID:
		return c[i]
	}
	panic(fmt.Sprintf("pgstore: a column of %T", col))
}

// cte adds a CTE and returns its name.
func (s *stmt) cte(body string) string {
	name := "w" + strconv.Itoa(s.ctes)
	if s.ctes == 0 {
		s.sql.WriteString("WITH ")
	} else {
		s.sql.WriteString(",\n")
	}
	s.ctes++
	s.sql.WriteString(name + " AS (" + body + ")")
	return name
}

// check adds a check CTE: body selects the stale rows, raise is the
// payments_raise call naming one.
func (s *stmt) check(raise, body string) {
	s.checks = append(s.checks, s.cte("SELECT count("+raise+") AS n FROM "+body))
}

// finish returns the statement's text: xid asks for the transaction id.
// Its rows are (key, n, flag): the first has no key, n the transaction
// id; a balance's has the balance's key, n the new balance and no flag; a
// ledger account's has its key (BalanceKey), n its id and flag true.
func (s *stmt) finish(xid bool) string {
	s.sql.WriteString("\nSELECT NULL::text, ")
	if xid {
		s.sql.WriteString("pg_current_xact_id()::text::bigint, ")
	} else {
		s.sql.WriteString("0::bigint, ")
	}
	if len(s.checks) == 0 {
		s.sql.WriteString("true")
	} else {
		for i, c := range s.checks {
			if i > 0 {
				s.sql.WriteString(" + ")
			}
			s.sql.WriteString("(SELECT n FROM " + c + ")")
		}
		s.sql.WriteString(" >= 0")
	}
	if s.ledger != "" {
		s.sql.WriteString("\nUNION ALL " + s.ledger)
	}
	if s.accounts != "" {
		s.sql.WriteString("\nUNION ALL SELECT name || '|' || currency, id::bigint, true FROM " + s.accounts)
	}
	return s.sql.String()
}

// checks adds the checks of what the run read: the versions of its records
// and scans, and the balances it saw that the commit does not change
// (those it changes are checked where they change, balances). answering:
// before answering with fn's error, also the balances Post refused on.
func (t *tx) checks(s *stmt, answering bool) {
	var kvT, kvStored []string
	var kvK [][]byte
	var kvV []pgtype.Int8
	type group struct {
		keys []string
		vers []pgtype.Int8
	}
	typed := map[*shape]*group{}
	bets := map[*shape][]string{}
	var kvBetT, kvBetS []string
	var kvBetK [][]byte
	listReads := map[*listIndex][]tkey{}
	for k, r := range t.recs {
		if ix := t.s.list(k.table); ix != nil {
			if r.read {
				listReads[ix] = append(listReads[ix], k)
			}
			continue
		}
		if r.bet {
			if sh := t.s.shape(k.table); sh != nil {
				bets[sh] = append(bets[sh], k.key)
			} else {
				kvBetT, kvBetS, kvBetK = append(kvBetT, k.table), append(kvBetS, t.s.stored(k.table)), append(kvBetK, []byte(k.key))
			}
		}
		if !r.read {
			continue
		}
		ver := pgtype.Int8{Int64: r.ver, Valid: r.readExists}
		if sh := t.s.shape(k.table); sh != nil {
			g := typed[sh]
			if g == nil {
				g = &group{}
				typed[sh] = g
			}
			g.keys, g.vers = append(g.keys, k.key), append(g.vers, ver)
			continue
		}
		kvT, kvStored, kvK, kvV = append(kvT, k.table), append(kvStored, t.s.stored(k.table)), append(kvK, []byte(k.key)), append(kvV, ver)
	}
	for _, sh := range sortedShapes(typed) {
		g := typed[sh]
		s.check(`payments_raise('`+codeStale+`', `+s.arg(sh.engine, "text")+` || '|' || encode(convert_to(r.k, 'UTF8'), 'hex'))`,
			s.rows("r", []string{"k", "v"}, []string{"text", "bigint"}, g.keys, g.vers)+`
			WHERE (SELECT x.xmin::text::bigint FROM `+ident(sh.sql)+` x WHERE `+sh.keyIs("x.", "r.k")+`) IS DISTINCT FROM r.v`)
	}
	if len(kvK) > 0 {
		s.check(`payments_raise('`+codeStale+`', r.t || '|' || encode(r.k, 'hex'))`,
			s.rows("r", []string{"t", "s", "k", "v"}, []string{"text", "text", "bytea", "bigint"}, kvT, kvStored, kvK, kvV)+`
			WHERE (SELECT x.xmin::text::bigint FROM payments_kv x WHERE x.tbl = r.s AND x.k = r.k) IS DISTINCT FROM r.v`)
	}
	// The records deleted on the bet that they existed.
	for _, sh := range sortedShapes(bets) {
		s.check(`payments_raise('`+codeStale+`', `+s.arg(sh.engine, "text")+` || '|' || encode(convert_to(r.k, 'UTF8'), 'hex'))`,
			s.rows("r", []string{"k"}, []string{"text"}, bets[sh])+` WHERE NOT EXISTS (SELECT FROM `+ident(sh.sql)+` x WHERE `+sh.keyIs("x.", "r.k")+`)`)
	}
	if len(kvBetK) > 0 {
		s.check(`payments_raise('`+codeStale+`', r.t || '|' || encode(r.k, 'hex'))`,
			s.rows("r", []string{"t", "s", "k"}, []string{"text", "text", "bytea"}, kvBetT, kvBetS, kvBetK)+`
			WHERE NOT EXISTS (SELECT FROM payments_kv x WHERE x.tbl = r.s AND x.k = r.k)`)
	}
	t.listChecks(s, listReads)
	var acc, cur []string
	var n []int64
	var ex []bool
	for _, bl := range t.bals {
		switch {
		case !bl.known:
		case answering && (bl.seen || bl.peeked), !answering && bl.seen && (!bl.changed() || bl.del):
			acc, cur, n, ex = append(acc, bl.account), append(cur, bl.currency), append(n, bl.base), append(ex, bl.exists)
		}
	}
	if len(acc) > 0 {
		s.check(`payments_raise('`+codeLedger+`', r.a || '|' || r.c)`,
			s.rows("r", []string{"a", "c", "n", "e"}, []string{"text", "text", "bigint", "bool"}, acc, cur, n, ex)+`
			WHERE (SELECT x.balance FROM ledger_balances x WHERE x.account = r.a AND x.currency = r.c) IS DISTINCT FROM
			      CASE WHEN r.e THEN r.n END`)
	}
	for _, sr := range t.scans {
		t.checkScan(s, sr)
	}
}

// listChecks adds the checks of the entries of lists answered from the
// rows that the run read (reads, by index): each exists still or is still
// missing, as it was.
func (t *tx) listChecks(s *stmt, reads map[*listIndex][]tkey) {
	order := slices.SortedFunc(maps.Keys(reads), func(a, b *listIndex) int {
		return strings.Compare(reads[a][0].table, reads[b][0].table)
	})
	for _, ix := range order {
		ks := reads[ix]
		slices.SortFunc(ks, func(a, b tkey) int { return strings.Compare(a.key, b.key) })
		ids, values, keys, exists := make([]string, len(ks)), make([]string, len(ks)), make([][]byte, len(ks)), make([]bool, len(ks))
		for i, k := range ks {
			// A key of another form matches no row: value and id stay
			// empty.
			values[i], ids[i], _ = keyParts(k.key)
			keys[i], exists[i] = []byte(k.key), t.recs[k].readExists
		}
		table := s.arg(ks[0].table, "text")
		s.check(`payments_raise('`+codeStale+`', `+table+` || '|' || encode(r.rk, 'hex'))`,
			s.rows("r", []string{"rid", "rv", "rk", "re"}, []string{"text", "text", "bytea", "bool"}, ids, values, keys, exists)+`
			WHERE EXISTS (SELECT FROM `+ident(ix.sh.sql)+` WHERE `+ix.existsSQL("r.rid", "r.rv", "r.rk")+`) IS DISTINCT FROM r.re`)
	}
}

func sortedShapes[V any](m map[*shape]V) []*shape {
	out := make([]*shape, 0, len(m))
	for sh := range m {
		out = append(out, sh)
	}
	slices.SortFunc(out, func(a, b *shape) int { return strings.Compare(a.sql, b.sql) })
	return out
}

// checkScan adds the check of one scanned range: the keys it holds up to
// where the scan stopped, and their versions, are those the run read.
func (t *tx) checkScan(s *stmt, sr *scanRead) {
	var from, key string
	bind := func(v string) any { return v }
	switch sh := t.s.shape(sr.table); {
	case t.s.list(sr.table) != nil:
		// A list answered from the rows: the same query, up to where the
		// scan stopped (lists.go).
		// At most one key more than the scan read: enough to see one
		// that came, and a bound that keeps every plan of the query an
		// index scan in the list's order (a generic plan of an unbounded
		// range of a large table may sort it whole).
		r := listRange{prefix: sr.opts.Prefix, after: sr.opts.After, reverse: sr.opts.Reverse, limit: len(sr.keys) + 1}
		if !sr.all {
			r.through = sr.through
		}
		keys := t.s.list(sr.table).query(r, s.arg)
		t.checkKeys(s, sr, "SELECT k, 0::bigint AS v FROM ("+keys+") AS ix")
		return
	case sh != nil && sh.journal:
		through := ""
		if !sr.all {
			through = sr.through
		}
		conds := keyConds(sr.opts.Prefix, sr.opts.After, through, sr.opts.Reverse)
		t.checkKeys(s, sr, journalRange("convert_to("+journalKey+", 'UTF8') AS k, xmin::text::bigint AS v", conds, false, "", s.arg))
		return
	case sr.table == engine.TableLedgerBalances:
		key = `(account || '|' || currency) COLLATE "C"`
		from = `SELECT convert_to(account || '|' || currency, 'UTF8') AS k, xmin::text::bigint AS v FROM ledger_balances WHERE true`
	case sh != nil:
		key = sh.key
		from = "SELECT convert_to(" + sh.key + ", 'UTF8') AS k, xmin::text::bigint AS v FROM " + ident(sh.sql) + " WHERE true"
	default:
		key = "k"
		from = "SELECT k, xmin::text::bigint AS v FROM payments_kv WHERE tbl = " + s.arg(t.s.stored(sr.table), "text")
		bind = func(v string) any { return []byte(v) }
	}
	typ := "text"
	if key == "k" {
		typ = "bytea"
	}
	cond := func(op, v string) { from += " AND " + key + " " + op + " " + s.arg(bind(v), typ) }
	if sr.opts.Prefix != "" {
		cond(">=", sr.opts.Prefix)
		if end := engine.PrefixEnd(sr.opts.Prefix); end != "" {
			cond("<", end)
		}
	}
	if sr.opts.After != "" {
		if sr.opts.Reverse {
			cond("<", sr.opts.After)
		} else {
			cond(">", sr.opts.After)
		}
	}
	if !sr.all && sr.through != "" {
		if sr.opts.Reverse {
			cond(">=", sr.through)
		} else {
			cond("<=", sr.through)
		}
	}
	t.checkKeys(s, sr, from)
}

// checkKeys adds the check that the rows (k, v) of from are the keys and
// versions the scan sr read.
func (t *tx) checkKeys(s *stmt, sr *scanRead, from string) {
	idx := make([]int, len(sr.keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(sr.keys[a], sr.keys[b]) })
	keys := make([][]byte, len(sr.keys))
	vers := make([]int64, len(sr.keys))
	for i, j := range idx {
		keys[i], vers[i] = []byte(sr.keys[j]), sr.vers[j]
	}
	s.check(`payments_raise('`+codeStale+`', `+s.arg(sr.table, "text")+` || '|')`,
		`(SELECT coalesce(array_agg(k ORDER BY k), '{}') AS ks, coalesce(array_agg(v ORDER BY k), '{}') AS vs FROM (`+from+`) AS s) AS a
		WHERE a.ks <> `+s.arg(keys, "bytea[]")+` OR a.vs <> `+s.arg(vers, "bigint[]"))
}

// writes adds the writes of the run's records: per table and kind one
// data-modifying CTE (stmt.rows), in key order.
func (t *tx) writes(s *stmt) error {
	type rows struct {
		ins, put, del []tkey
	}
	typed := map[*shape]*rows{}
	var kv rows
	for k, r := range t.recs {
		if r.op == opNone || t.s.list(k.table) != nil && !t.s.keepListEntries {
			continue // a list's entries are its records' (lists.go)
		}
		g := &kv
		if sh := t.s.shape(k.table); sh != nil {
			if g = typed[sh]; g == nil {
				g = &rows{}
				typed[sh] = g
			}
		}
		switch r.op {
		case opInsert:
			g.ins = append(g.ins, k)
		case opPut:
			g.put = append(g.put, k)
		case opDelete:
			g.del = append(g.del, k)
		}
	}
	for _, sh := range sortedShapes(typed) {
		g := typed[sh]
		if sh.journal {
			if err := t.journalWrites(s, g.ins, g.put, g.del); err != nil {
				return err
			}
			continue
		}
		if len(g.del) > 0 {
			s.cte("DELETE FROM " + ident(sh.sql) + " WHERE id = ANY(" + s.arg(keysOf(g.del), "text[]") + ")")
		}
		for _, put := range []bool{false, true} {
			ks := g.ins
			if put {
				ks = g.put
			}
			if len(ks) == 0 {
				continue
			}
			slices.SortFunc(ks, func(a, b tkey) int { return strings.Compare(a.key, b.key) })
			keys, values := make([]string, len(ks)), make([][]byte, len(ks))
			for i, k := range ks {
				keys[i], values[i] = k.key, t.recs[k].v
			}
			args, err := columnArgs(sh, keys, values, nil)
			if err != nil {
				return err
			}
			s.cte(sh.insert(s, args, put))
		}
	}
	if len(kv.del) > 0 {
		tb, k, _, _ := t.kvArrays(kv.del, false)
		s.cte(`DELETE FROM payments_kv x USING ` + s.rows("r", []string{"t", "k"}, []string{"text", "bytea"}, tb, k) + ` WHERE x.tbl = r.t AND x.k = r.k`)
	}
	if len(kv.ins) > 0 {
		s.cte(t.kvInsert(s, kv.ins, ""))
	}
	if len(kv.put) > 0 {
		// excluded.codec is NULL when no value is compressed (codec.go).
		s.cte(t.kvInsert(s, kv.put, `
			ON CONFLICT (tbl, k) DO UPDATE SET v = excluded.v, codec = excluded.codec`))
	}
	return nil
}

// kvInsert returns the INSERT of the key-value records ks, their values
// kept as codec.go says (the codec column is written only when one of them
// is compressed), followed by then.
func (t *tx) kvInsert(s *stmt, ks []tkey, then string) string {
	tb, k, v, codec := t.kvArrays(ks, true)
	if codec == nil {
		return `INSERT INTO payments_kv (tbl, k, v) SELECT * FROM ` + s.rows("r", []string{"t", "k", "v"}, []string{"text", "bytea", "bytea"}, tb, k, v) + then
	}
	return `INSERT INTO payments_kv (tbl, k, v, codec) SELECT * FROM ` +
		s.rows("r", []string{"t", "k", "v", "c"}, []string{"text", "bytea", "bytea", "int2"}, tb, k, v, codec) + then
}

func keysOf(ks []tkey) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.key
	}
	return out
}

// kvArrays returns the columns of key-value records, sorted by key (so that
// concurrent writers lock rows in one order). With encode, values are
// kept as codec.go says, and codecs are their codecs (nil when none is
// compressed).
func (t *tx) kvArrays(ks []tkey, encode bool) (tables []string, keys, values [][]byte, codecs []pgtype.Int2) {
	slices.SortFunc(ks, func(a, b tkey) int {
		if c := strings.Compare(t.s.stored(a.table), t.s.stored(b.table)); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	for i, k := range ks {
		v, codec := value(t.recs[k].v), pgtype.Int2{}
		if encode {
			v, codec = t.s.codecs.encode(k.table, v)
		}
		if codec.Valid && codecs == nil {
			codecs = make([]pgtype.Int2, len(ks))
		}
		if codecs != nil {
			codecs[i] = codec
		}
		tables, keys, values = append(tables, t.s.stored(k.table)), append(keys, []byte(k.key)), append(values, v)
	}
	return tables, keys, values, codecs
}

// columnArgs returns the arrays of shape's rows for the records values at
// keys: the ids, each typed column, the docs (the records without the
// members the columns hold, doc.go). kept, when not nil, are the docs to
// write instead, as the rows hold them (refill's).
func columnArgs(sh *shape, keys []string, values, kept [][]byte) ([]any, error) {
	cols := make([][]pgtype.Text, len(sh.cols))
	for i := range cols {
		cols[i] = make([]pgtype.Text, len(keys))
	}
	docs := make([]string, len(keys))
	row := make([]pgtype.Text, len(sh.cols))
	var spans []span
	var buf docBuf
	if sh.nvals() > 0 && kept == nil {
		spans = make([]span, 2*len(sh.cols)) // and the objects the columns name (markObjects)
		buf = docBuf{scratch: make([]byte, 0, 64), cut: make([]int, 0, len(sh.strip))}
	}
	for i, v := range values {
		if err := extract(v, sh.paths, sh.absent, row, spans); err != nil {
			return nil, errors.New("pgstore: " + sh.engine + " " + keys[i] + ": " + err.Error())
		}
		switch {
		case kept != nil:
			docs[i] = string(kept[i])
		case spans != nil:
			docs[i] = sh.docOf(keys[i], v, row, spans, &buf)
		default:
			docs[i] = string(v)
		}
		for c := range row {
			cols[c][i] = row[c]
		}
	}
	args := make([]any, 0, len(cols)+2)
	args = append(args, keys)
	for _, c := range cols {
		args = append(args, c)
	}
	return append(args, docs), nil
}

// balances adds the deletes of balances and the upsert that applies the
// deltas, checking them; the statement's result then carries the new
// balances (commit reads them).
func (l *txLedger) balances(s *stmt) {
	t := l.t
	var keys []string
	var del [2][]string
	for key, bl := range t.bals {
		switch {
		case bl.del:
			if bl.exists {
				del[0], del[1] = append(del[0], bl.account), append(del[1], bl.currency)
			}
		case bl.changed():
			keys = append(keys, key)
		}
	}
	if len(del[0]) > 0 {
		s.cte(`DELETE FROM ledger_balances x USING ` + s.rows("r", []string{"a", "c"}, []string{"text", "text"}, del[0], del[1]) + ` WHERE x.account = r.a AND x.currency = r.c`)
	}
	if len(keys) == 0 {
		return
	}
	// In key order, so that concurrent commits lock balance rows in one
	// order.
	slices.Sort(keys)
	acc, cur := make([]string, len(keys)), make([]string, len(keys))
	delta := make([]int64, len(keys))
	minBase, expect := make([]pgtype.Int8, len(keys)), make([]pgtype.Int8, len(keys))
	for i, key := range keys {
		bl := t.bals[key]
		acc[i], cur[i], delta[i] = bl.account, bl.currency, bl.delta
		minBase[i] = pgtype.Int8{Int64: bl.minBase, Valid: bl.guarded}
		expect[i] = pgtype.Int8{Int64: bl.base, Valid: bl.known && bl.seen}
	}
	ord := make([]int32, len(keys))
	for i := range ord {
		ord[i] = int32(i)
	}
	d := s.cte(`SELECT * FROM ` + s.rows("d", []string{"account", "currency", "delta", "min_base", "expect", "n"},
		[]string{"text", "text", "bigint", "bigint", "bigint", "int"}, acc, cur, delta, minBase, expect, ord))
	u := s.cte(`INSERT INTO ledger_balances AS b (account, currency, balance) SELECT account, currency, delta FROM ` + d + ` ORDER BY n
		ON CONFLICT (account, currency) DO UPDATE SET balance = b.balance + excluded.balance
		RETURNING b.account, b.currency, b.balance`)
	s.ledger = `SELECT u.account || '|' || u.currency, u.balance,
		CASE WHEN u.balance - d.delta < d.min_base OR u.balance - d.delta <> d.expect
		THEN payments_raise('` + codeLedger + `', u.account || '|' || u.currency) END
		FROM ` + u + ` AS u JOIN ` + d + ` AS d USING (account, currency)`
}

// commit sends the run's commit: BEGIN, its statement, COMMIT, and the
// release of the Update's locks, in one round trip. It returns nil when
// the run committed, an error wrapping errRerun when it must run again, or
// the error.
func (t *tx) commit() error {
	s := &stmt{}
	t.checks(s, false)
	if err := t.writes(s); err != nil {
		return err
	}
	t.balances(s)
	if s.ctes == 0 {
		return nil // read nothing, wrote nothing
	}
	writes := s.ledger != ""
	for _, r := range t.recs {
		if r.op != opNone {
			writes = true
			break
		}
	}
	var xid int64
	news := map[string]int64{}
	var accounts map[string]int32
	b := &batch{}
	b.exec("BEGIN ISOLATION LEVEL SERIALIZABLE")
	b.query(s.finish(writes), func(rows pgx.Rows) error {
		for rows.Next() {
			var key pgtype.Text
			var n int64
			var ok pgtype.Bool
			if err := rows.Scan(&key, &n, &ok); err != nil {
				return err
			}
			switch {
			case !key.Valid:
				xid = n
			case ok.Bool:
				if accounts == nil {
					accounts = map[string]int32{}
				}
				accounts[key.String] = int32(n)
			default:
				news[key.String] = n
			}
		}
		return nil
	}, s.args...)
	b.exec("COMMIT")
	committed := len(b.reads)
	release := len(t.u.locks.held) > 0
	if release {
		t.u.locks.queueRelease(b)
	}
	// Once sent, the commit is seen through: a cancelled context must not
	// leave its outcome unknown.
	failed, err := b.send(context.WithoutCancel(t.ctx), t.s, t.c)
	if commitHook != nil && err == nil {
		if err = commitHook(); err != nil {
			failed = committed - 1
		}
	}
	switch {
	case err != nil && failed < committed && commitLost(err):
		// The connection broke with the batch sent: PostgreSQL may have
		// committed it or not. Running it again could apply it twice;
		// the caller is told (payments.ErrCommitUnknown).
		t.u.broken = true
		return fmt.Errorf("pgstore: %w: %w", engine.ErrCommitUnknown, err)
	case err != nil && failed < committed:
		return t.failure(err)
	case err != nil:
		// Committed; the locks were not given up: the connection is
		// dropped, which gives them up.
		t.u.broken = true
	case release:
		t.s.hot.heldTogether(t.u.under)
		t.u.locks.held = nil
	}
	// Committed: the process learns the keys of the ledger accounts new
	// to it, and the cache the records the run wrote that
	// operations read again (records of the record tables; not the index
	// entries and events of payments_kv, which are scanned, nor what Get
	// rarely reads twice), and forgets the others.
	for k, r := range t.recs {
		switch {
		case r.op == opNone:
		case t.s.shape(k.table) == nil:
			t.s.cache.drop(k)
			if r.op != opDelete && t.s.list(k.table) == nil {
				t.s.codecs.collect(k.table, r.v)
			}
		case r.op == opDelete:
			t.s.cache.put(k, cached{})
		default:
			t.s.cache.put(k, cached{v: r.v, ver: xid & 0xffffffff, exists: true})
		}
	}
	for key, id := range accounts {
		t.s.accounts.put(key, id)
	}
	for key, bl := range t.bals {
		k := tkey{engine.TableLedgerBalances, key}
		switch n, ok := news[key]; {
		case ok:
			t.s.cache.put(k, cached{n: n, exists: true})
		case bl.del:
			t.s.cache.put(k, cached{})
		}
	}
	return nil
}

// validate checks, in one read-only snapshot, that what the run read is
// still current: before answering with the error of a function that read,
// so that the answer stands on data that held together. It returns nil,
// an error wrapping errRerun, or the error.
func (t *tx) validate() error {
	s := &stmt{}
	t.checks(s, true)
	if s.ctes == 0 {
		return nil
	}
	b := &batch{}
	b.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
	b.exec(s.finish(false), s.args...)
	b.exec("COMMIT")
	if _, err := b.send(t.ctx, t.s, t.c); err != nil {
		return t.failure(err)
	}
	return nil
}

// failure handles the error of a commit or validation batch: it rolls the
// transaction back, learns from the error what the next run must read
// afresh (or insert eagerly), and returns errRerun when the run must run
// again.
func (t *tx) failure(err error) error {
	t.s.stat(1, 1)
	if _, rerr := t.c.Exec(context.Background(), "ROLLBACK"); rerr != nil {
		return errors.Join(err, rerr)
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	u := t.u
	switch pe.Code {
	case codeStale, codeLedger:
		k, ok := staleKey(pe)
		switch {
		case ok:
			u.fresh[k], u.eager[k] = true, true
			delete(u.under, k)
			t.s.cache.drop(k)
			t.s.hot.observe([]int32{lockOf(k)}, true)
		case pe.Code == codeStale && strings.HasSuffix(pe.Message, "|"):
			// A scanned range changed: scans are read afresh anyway.
		default:
			// Not understood: read everything afresh.
			for rk := range t.recs {
				u.fresh[rk] = true
				t.s.cache.drop(rk)
			}
		}
	case "22003": // a balance overflowed: the next run reads them
		for key, bl := range t.bals {
			if bl.changed() {
				u.fresh[tkey{engine.TableLedgerBalances, key}] = true
			}
		}
	case "23505": // an insert found its record
		for k, r := range t.recs {
			if r.op == opInsert && (t.s.shape(k.table) == nil && pe.TableName == "payments_kv" ||
				t.s.shape(k.table) != nil && t.s.shape(k.table).sql == pe.TableName) {
				u.eager[k] = true
			}
		}
	case "40001", "40P01", codeOutOfSharedMemory:
	default:
		return err
	}
	return errors.Join(errRerun, err)
}

// staleKey returns the record a PGS01 or PGL01 error names: "table|hex(key)"
// or, for a balance, "account|currency".
func staleKey(pe *pgconn.PgError) (tkey, bool) {
	if pe.Code == codeLedger {
		return tkey{engine.TableLedgerBalances, pe.Message}, true
	}
	table, h, ok := strings.Cut(pe.Message, "|")
	if !ok || h == "" {
		return tkey{}, false
	}
	key, err := hex.DecodeString(h)
	if err != nil {
		return tkey{}, false
	}
	return tkey{table, string(key)}, true
}
