package pgstore

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments/internal/engine"
)

// The journal (engine.TableLedgerEntries) in narrow rows (migration 5).
// An entry is one row of ledger_journal_entries (jid, its compact key, and
// the engine's id, reference, created_at, overdraft) and one row of
// ledger_postings per posting (jid, ord, account, amount), where account
// is the compact key of the ledger account and currency in
// ledger_accounts. Nothing is stored twice: the entry's record is not kept
// beside its rows, but spelled back from them when it is read
// (journalDoc in SQL, entryDoc here, byte for byte the engine's encoding),
// except for a record the rows do not spell back exactly (an entry
// imported with another encoding), kept whole in doc.
//
// The engine's id of an entry, "LedgerEntry:" and a lower-case canonical
// UUID, is kept as the UUID (migration 8): uid, 16 bytes in the row and in
// its unique B-tree, where the id's text took 48 in each. An id of any
// other form keeps its text in id (NULL otherwise; its own unique B-tree
// holds only such rows). entryUID says which column keeps an id, for the
// writes and a Get (one probe of the B-tree of uid or of id); its twin in
// SQL, the function ledger_entry_uuid, for the reads that test ids in SQL
// (keyIs: the commit's checks, deletes, the probes of a list), each a
// probe of both B-trees. A scan reads both in key order (journalRange).
// journalKey spells the id back, as the views do.
//
// The ledger accounts' keys are known to the process once a commit
// learned them (Store.accounts): a posting to a known account carries its
// key; one to an account the process does not know yet carries its name
// and currency, and the commit's statement inserts the account when it is
// new and hands its key back.

// journalKey is the SQL expression of an entry's id, read from its row of
// ledger_journal_entries (unqualified).
const journalKey = `(coalesce('LedgerEntry:' || uid::text, id) COLLATE "C")`

// entryUID is the UUID an entry's id is kept as (uid) when the id is of
// the engine's form, "LedgerEntry:" and a lower-case canonical UUID; else
// not Valid (the id's text is kept in id). The SQL function
// ledger_entry_uuid (migration 8) is its twin, for the reads that test
// ids in SQL (TestEntryUID_MatchesSQL).
func entryUID(id string) pgtype.UUID {
	if len(id) != len(entryIDPrefix)+36 {
		return pgtype.UUID{}
	}
	for i := 0; i < len(id); i++ {
		if !entryValid(i, id[i]) {
			return pgtype.UUID{}
		}
	}
	return pgtype.UUID{Bytes: entryUUID([]byte(id)), Valid: true}
}

// journalKeyIs is the SQL condition that the row of ledger_journal_entries
// qualified by row ("" or "alias.") is the entry whose id is the SQL text
// expression v: a probe of the B-tree of uid or of id.
func journalKeyIs(row, v string) string {
	return "(" + row + "uid = ledger_entry_uuid(" + v + ") OR " + row + "id = " + v + ")"
}

// journalShape is the kernel's ledger entries, read and checked as a record
// table of rows keyed by id; its writes are journalRows'.
var journalShape = func() *shape {
	sh := newShape(engine.TableLedgerEntries, "ledger_journal_entries",
		text("reference", "reference"),
		timestamptz("created_at", "createdAt"),
		column{"overdraft", colBoolean, "overdraft", "false"})
	sh.journal, sh.key = true, journalKey
	sh.doc = journalDoc
	sh.statements()
	return sh
}()

// journalDoc is the SQL expression of the record of an entry, read from
// its row of ledger_journal_entries (named by the table's name): its doc,
// or else the record spelled back from the row and its postings, as the
// engine encodes it (entryDoc is its twin in Go; a record it would not
// spell exactly keeps its doc). ARRAY keeps the order of its subquery:
// the postings' order.
//
// Migration 8 made the view ledger_journal with it (journalView): a change
// here needs a migration that makes the view again.
var journalDoc = journalDocOf(journalKey)

// journalDocOf is journalDoc with the entry's id read as the SQL
// expression id (migration 5 read the column id).
func journalDocOf(id string) string {
	return `coalesce(doc::text, '{"id":"' || ` + id + ` || '"'
	|| CASE WHEN reference IS NULL THEN '' ELSE ',"reference":"' || reference || '"' END
	|| ',"postings":[' || array_to_string(ARRAY(
		SELECT '{"account":"' || a.name || '","currency":"' || a.currency || '","amount":' || p.amount || '}'
		FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account
		WHERE p.jid = ledger_journal_entries.jid ORDER BY p.ord), ',')
	|| '],"createdAt":"'
	|| coalesce(rtrim(rtrim(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), '0'), '.'), '0001-01-01T00:00:00')
	|| 'Z"' || CASE WHEN overdraft THEN ',"overdraft":true' ELSE '' END || '}')`
}

// accountIDs are the keys of ledger accounts in ledger_accounts, by
// BalanceKey: learned from committed statements, never changed.
type accountIDs struct{ m sync.Map }

func (a *accountIDs) get(key string) (int32, bool) {
	v, ok := a.m.Load(key)
	if !ok {
		return 0, false
	}
	return v.(int32), true
}

func (a *accountIDs) put(key string, id int32) { a.m.Store(key, id) }

// plain reports whether s is spelled in JSON as itself between quotes by
// both the engine (encoding/json's rules) and journalDoc:
// printable ASCII but for the characters either escapes.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// entryDoc is the record of e as journalDoc spells it back from e's rows.
func entryDoc(e *engine.LedgerEntry) []byte {
	b := make([]byte, 0, 128+96*len(e.Postings))
	b = append(append(append(b, `{"id":"`...), e.ID...), '"')
	if e.Reference != "" {
		b = append(append(append(b, `,"reference":"`...), e.Reference...), '"')
	}
	b = append(b, `,"postings":[`...)
	for i, p := range e.Postings {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, `{"account":"`...), p.Account...), `","currency":"`...)
		b = append(append(append(b, p.Currency...), `","amount":`...), strconv.FormatInt(p.Amount, 10)...)
		b = append(b, '}')
	}
	b = append(b, `],"createdAt":"`...)
	b = append(e.CreatedAt.UTC().AppendFormat(b, time.RFC3339Nano), '"')
	if e.Overdraft {
		b = append(b, `,"overdraft":true`...)
	}
	return append(b, '}')
}

// spelled reports whether v, the record of e, is what e's rows spell back:
// then no doc is kept.
func spelled(e *engine.LedgerEntry, v []byte) bool {
	at := e.CreatedAt
	if len(e.Postings) == 0 || !plain(e.ID) || !plain(e.Reference) ||
		!at.IsZero() && (at.Nanosecond()%1000 != 0 || at.Year() < 1 || at.Year() > 9999) {
		return false
	}
	for _, p := range e.Postings {
		if !plain(p.Account) || !plain(p.Currency) {
			return false
		}
	}
	return bytes.Equal(entryDoc(e), v)
}

// entries are journal records being written: the entries, their records
// and the records' keys.
type entries struct {
	keys    []string
	entries []*engine.LedgerEntry
	values  [][]byte
}

// journalRows adds to s the writes of journal records as rows: ins
// inserted, put upserted (entries that may exist, whose rows they
// replace), and their postings. known returns the key of a ledger account
// the process knows (nil: none). It returns the CTE of the accounts it did
// not know, as (id, name, currency), or "" when there were none. v5
// writes the rows as migration 5 laid them out (the id in id, always), for
// its Go step (moveJournal).
func journalRows(s *stmt, ins, put entries, known func(key string) (int32, bool), v5 bool) string {
	var names, curs []string
	seen := map[string]bool{}
	for _, es := range []entries{ins, put} {
		for _, e := range es.entries {
			for _, p := range e.Postings {
				key := engine.BalanceKey(p.Account, p.Currency)
				if seen[key] {
					continue
				}
				seen[key] = true
				if known != nil {
					if _, ok := known(key); ok {
						continue
					}
				}
				names, curs = append(names, p.Account), append(curs, p.Currency)
			}
		}
	}
	accounts := ""
	if len(names) > 0 {
		// Accounts new to this process: inserted when they are new to the
		// database too, else read (a row another commit inserted since
		// this statement's snapshot is a serialization failure: the run
		// goes again, and then reads it).
		na := s.cte(`SELECT * FROM ` + s.rows("n", []string{"name", "currency"}, []string{"text", "text"}, names, curs))
		ia := s.cte(`INSERT INTO ledger_accounts (name, currency) SELECT name, currency FROM ` + na + `
			ON CONFLICT (name, currency) DO NOTHING RETURNING id, name, currency`)
		accounts = s.cte(`SELECT id, name, currency FROM ` + ia + `
			UNION ALL SELECT a.id, a.name, a.currency FROM ledger_accounts a JOIN ` + na + ` n ON a.name = n.name AND a.currency = n.currency`)
	}
	ins.rows(s, false, accounts, known, v5)
	put.rows(s, true, accounts, known, v5)
	return accounts
}

// rows adds to s the writes of es (upserts with replace), their postings'
// accounts either known or in the CTE accounts; v5 as journalRows.
func (es entries) rows(s *stmt, replace bool, accounts string, known func(key string) (int32, bool), v5 bool) {
	if len(es.keys) == 0 {
		return
	}
	n := len(es.keys)
	refs, created, docs := make([]pgtype.Text, n), make([]pgtype.Text, n), make([]pgtype.Text, n)
	overdraft := make([]bool, n)
	counts := make([]int32, n)
	var pid []string
	var ord []int32
	var acct []pgtype.Int8
	var names, curs []string
	var amounts []int64
	for i, e := range es.entries {
		overdraft[i], counts[i] = e.Overdraft, int32(len(e.Postings))
		refs[i] = pgtype.Text{String: e.Reference, Valid: e.Reference != ""}
		if !e.CreatedAt.IsZero() {
			created[i] = pgtype.Text{String: e.CreatedAt.Format(time.RFC3339Nano), Valid: true}
		}
		if e.ID != es.keys[i] || !spelled(e, es.values[i]) {
			docs[i] = pgtype.Text{String: string(es.values[i]), Valid: true}
		}
		for j, p := range e.Postings {
			var id int32
			ok := false
			if known != nil {
				id, ok = known(engine.BalanceKey(p.Account, p.Currency))
			}
			pid, ord, amounts = append(pid, es.keys[i]), append(ord, int32(j)), append(amounts, p.Amount)
			acct, names, curs = append(acct, pgtype.Int8{Int64: int64(id), Valid: ok}), append(names, p.Account), append(curs, p.Currency)
		}
	}
	uids, ids := make([]pgtype.UUID, n), make([]pgtype.Text, n)
	for i, k := range es.keys {
		if uids[i] = entryUID(k); !uids[i].Valid {
			ids[i] = pgtype.Text{String: k, Valid: true}
		}
	}
	var u string
	if v5 {
		u = s.rows("u", []string{"id", "reference", "created_at", "overdraft", "doc"}, []string{"text", "text", "text", "bool", "text"},
			es.keys, refs, created, overdraft, docs)
	} else {
		u = s.rows("u", []string{"uid", "id", "reference", "created_at", "overdraft", "doc"}, []string{"uuid", "text", "text", "text", "bool", "text"},
			uids, ids, refs, created, overdraft, docs)
	}
	var j string
	switch {
	case v5:
		j = s.cte(`INSERT INTO ledger_journal_entries (id, reference, created_at, overdraft, doc)
			SELECT u.id, u.reference, u.created_at::timestamptz, u.overdraft, u.doc::json FROM ` + u + ` RETURNING jid, id`)
	case !replace:
		j = s.cte(journalInsert(u, "true", ""))
	default:
		// An entry's row is replaced where its id is kept, under the
		// unique B-tree of uid or of id: one insert each.
		u = s.cte(`SELECT * FROM `+u) + " u"
		byUID := s.cte(journalInsert(u, "u.uid IS NOT NULL", "(uid)"))
		byID := s.cte(journalInsert(u, "u.uid IS NULL", "(id) WHERE id IS NOT NULL"))
		j = s.cte(`SELECT * FROM ` + byUID + ` UNION ALL SELECT * FROM ` + byID)
		// The postings beyond each entry's new ones go; the others are
		// replaced below (one statement: they must not be deleted and
		// inserted again).
		s.cte(`DELETE FROM ledger_postings x USING ledger_journal_entries e, ` +
			s.rows("r", []string{"id", "n"}, []string{"text", "int"}, es.keys, counts) + `
			WHERE ` + journalKeyIs("e.", "r.id") + ` AND x.jid = e.jid AND x.ord >= r.n`)
	}
	if len(pid) == 0 {
		return
	}
	var p string
	if accounts == "" {
		p = `SELECT j.jid, p.amount, p.account::integer, p.ord::smallint FROM ` +
			s.rows("p", []string{"id", "ord", "account", "amount"}, []string{"text", "int", "bigint", "bigint"}, pid, ord, acct, amounts) +
			` JOIN ` + j + ` j ON j.id = p.id`
	} else {
		p = `SELECT j.jid, p.amount, coalesce(p.account::integer, a.id), p.ord::smallint FROM ` +
			s.rows("p", []string{"id", "ord", "account", "name", "currency", "amount"}, []string{"text", "int", "bigint", "text", "text", "bigint"},
				pid, ord, acct, names, curs, amounts) +
			` JOIN ` + j + ` j ON j.id = p.id LEFT JOIN ` + accounts + ` a ON p.account IS NULL AND a.name = p.name AND a.currency = p.currency`
	}
	q := `INSERT INTO ledger_postings (jid, amount, account, ord) ` + p
	if replace {
		q += ` ON CONFLICT (jid, ord) DO UPDATE SET amount = excluded.amount, account = excluded.account`
	}
	s.cte(q)
}

// journalInsert is the insert of the entries of u, a FROM item named u (as
// journalRows writes them: each id as its UUID in uid or its text in id,
// entryUID), that meet the SQL condition where, upserted on the conflict
// target conflict when it is not "", returning (jid, id).
func journalInsert(u, where, conflict string) string {
	q := `INSERT INTO ledger_journal_entries (uid, id, reference, created_at, overdraft, doc)
		SELECT u.uid, u.id, u.reference, u.created_at::timestamptz, u.overdraft, u.doc::json FROM ` + u + ` WHERE ` + where
	if conflict != "" {
		q += ` ON CONFLICT ` + conflict + ` DO UPDATE SET reference = excluded.reference, created_at = excluded.created_at,
			overdraft = excluded.overdraft, doc = excluded.doc`
	}
	return q + ` RETURNING jid, ` + journalKey + ` AS id`
}

// journalDeletes adds to s the deletes of the entries ids with their
// postings.
func journalDeletes(s *stmt, ids []string) {
	a := s.arg(ids, "text[]")
	d := s.cte(`DELETE FROM ledger_journal_entries WHERE uid = ANY(ARRAY(SELECT ledger_entry_uuid(k) FROM unnest(` + a + `) AS k))
		OR id = ANY(` + a + `) RETURNING jid`)
	s.cte(`DELETE FROM ledger_postings WHERE jid IN (SELECT jid FROM ` + d + `)`)
}

// moveJournal is the Go step of migration 5: the entries of the journal
// as version 4 kept it (renamed ledger_journal_v4 by the migration's SQL)
// are written again as narrow rows, 500 at a time, by the same code as
// the store's own writes, the old tables dropped, and the view
// ledger_journal made in their place.
func moveJournal(ctx context.Context, tx pgx.Tx) error {
	after := ""
	for {
		rows, err := tx.Query(ctx, "SELECT id, doc::text FROM ledger_journal_v4 WHERE id > $1 ORDER BY id LIMIT 500", after)
		if err != nil {
			return err
		}
		var keys []string
		var es []*engine.LedgerEntry
		var values [][]byte
		for rows.Next() {
			var id, doc string
			if err := rows.Scan(&id, &doc); err != nil {
				rows.Close()
				return err
			}
			e, err := decodeEntry(id, []byte(doc))
			if err != nil {
				rows.Close()
				return err
			}
			keys, es, values, after = append(keys, id), append(es, e), append(values, []byte(doc)), id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(es) == 0 {
			break
		}
		s := &stmt{}
		journalRows(s, entries{keys, es, values}, entries{}, nil, true)
		if _, err := tx.Exec(ctx, s.finish(false), s.args...); err != nil {
			return fmt.Errorf("ledger_journal_v4: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, "DROP TABLE ledger_journal_v4, ledger_entries_v4"); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `CREATE VIEW ledger_journal AS
		SELECT id, reference, created_at, overdraft, (`+journalDocOf("id")+`)::json AS doc FROM ledger_journal_entries`)
	return err
}

// journalView is the Go step of migration 8: the view ledger_journal made
// again over the table the migration's SQL made, with the same columns,
// the id spelled back from uid or id (journalKey).
func journalView(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `CREATE VIEW ledger_journal AS
		SELECT `+journalKey+` AS id, reference, created_at, overdraft, (`+journalDoc+`)::json AS doc FROM ledger_journal_entries`)
	return err
}

// keyCond is one condition of a range of keys: key op value.
type keyCond struct{ op, value string }

// journalRange returns the SQL of the journal's rows whose ids meet conds,
// as rows of the select list sel (read from a row of
// ledger_journal_entries, its first column the id as bytes, named k), in
// key order (descending with reverse) when limit (an SQL expression) is
// not "", at most limit of them; arg binds one parameter and returns its
// placeholder. The rows whose id is a UUID are read from the B-tree of
// uid, within the UUIDs the conditions allow (uuidBound: an id's text and
// its UUID sort alike), and compared exactly as text; the others from the
// B-tree of id; the two ranges are merged.
func journalRange(sel string, conds []keyCond, reverse bool, limit string, arg func(v any, typ string) string) string {
	lo, hi := [16]byte{}, [16]byte{}
	for i := range hi {
		hi[i] = 0xff
	}
	some := true
	byUID, byID := []string{"true"}, []string{"id IS NOT NULL"}
	for _, c := range conds {
		v := arg(c.value, "text")
		byUID, byID = append(byUID, journalKey+" "+c.op+" "+v), append(byID, "id "+c.op+" "+v)
		lower := c.op == ">" || c.op == ">="
		u, ok := uuidBound(c.value, lower)
		switch {
		case !ok:
			some = false
		case lower && bytes.Compare(u[:], lo[:]) > 0:
			lo = u
		case !lower && bytes.Compare(u[:], hi[:]) < 0:
			hi = u
		}
	}
	if !some || bytes.Compare(lo[:], hi[:]) > 0 {
		byUID = []string{"false"}
	} else {
		byUID = append(byUID, "uid >= "+arg(lo, "uuid"), "uid <= "+arg(hi, "uuid"))
	}
	dir, tail := "", ""
	if reverse {
		dir = " DESC"
	}
	if limit != "" {
		tail = " LIMIT " + limit
	}
	part := func(where []string, order string) string {
		q := "SELECT " + sel + " FROM ledger_journal_entries WHERE " + strings.Join(where, " AND ")
		if limit != "" {
			q += " ORDER BY " + order + dir + tail
		}
		return "(" + q + ")"
	}
	q := "SELECT * FROM (" + part(byUID, "uid") + " UNION ALL " + part(byID, "id") + ") AS j"
	if limit != "" {
		q += " ORDER BY k" + dir + tail
	}
	return q
}

// uuidBound returns, of the ids of the engine's form ("LedgerEntry:" and
// a lower-case canonical UUID, whose texts sort as their UUIDs do), the
// least UUID of those that may sort after the text v (lower: the ids at
// or after v), or the greatest of those that may sort before it (at or
// before v); ok is false when no such id sorts there. The bound is the
// UUID of the nearest id of the form to v on its side.
func uuidBound(v string, lower bool) (u [16]byte, ok bool) {
	const n = len(entryIDPrefix) + 36
	b := make([]byte, 0, n)
	for i := range n {
		if i == len(v) {
			// Every id starting with b sorts after v.
			if lower {
				return entryUUID(entryPad(b, false)), true
			}
			return step(entryUUID(entryPad(b, false)), -1)
		}
		c := v[i]
		if entryValid(i, c) {
			b = append(b, c)
			continue
		}
		d, found := entryNext(i, c, lower)
		switch {
		case found:
			return entryUUID(entryPad(append(b, d), !lower)), true
		case lower:
			// Every id starting with b sorts before v.
			return step(entryUUID(entryPad(b, true)), 1)
		default:
			return step(entryUUID(entryPad(b, false)), -1)
		}
	}
	u = entryUUID(b)
	if lower && len(v) > n {
		return step(u, 1)
	}
	return u, true
}

// entryIDPrefix starts every id of the engine's entries.
const entryIDPrefix = "LedgerEntry:"

// entryValid reports whether c may be the i-th character of an id of the
// engine's form.
func entryValid(i int, c byte) bool {
	lo, hi := entryChars(i)
	return c == lo || c == hi || hi != lo && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f')
}

// entryChars are the least and the greatest character at i of an id of
// the engine's form.
func entryChars(i int) (lo, hi byte) {
	switch j := i - len(entryIDPrefix); {
	case j < 0:
		return entryIDPrefix[i], entryIDPrefix[i]
	case j == 8 || j == 13 || j == 18 || j == 23:
		return '-', '-'
	}
	return '0', 'f'
}

// entryNext returns the least character above c (up: else the greatest
// below it) that may be the i-th of an id of the engine's form.
func entryNext(i int, c byte, up bool) (byte, bool) {
	for d := int(c); ; {
		if up {
			d++
		} else {
			d--
		}
		if d < 0 || d > 0x7f {
			return 0, false
		}
		if entryValid(i, byte(d)) {
			return byte(d), true
		}
	}
}

// entryPad completes b, the start of an id of the engine's form, with the
// least characters (high: the greatest).
func entryPad(b []byte, high bool) []byte {
	for i := len(b); i < len(entryIDPrefix)+36; i++ {
		lo, hi := entryChars(i)
		if high {
			b = append(b, hi)
		} else {
			b = append(b, lo)
		}
	}
	return b
}

// entryUUID is the UUID of a whole id of the engine's form.
func entryUUID(id []byte) (u [16]byte) {
	var digits []byte
	for _, c := range id[len(entryIDPrefix):] {
		if c != '-' {
			digits = append(digits, c)
		}
	}
	_, _ = hex.Decode(u[:], digits)
	return u
}

// step returns u plus d (1 or -1) as a 128-bit number; ok is false when
// it has none.
func step(u [16]byte, d int) ([16]byte, bool) {
	for i := 15; i >= 0; i-- {
		if d > 0 && u[i] < 0xff || d < 0 && u[i] > 0 {
			u[i] = byte(int(u[i]) + d)
			return u, true
		}
		u[i] = byte(int(u[i]) - 255*d)
	}
	return u, false
}
