package pgstore

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Lists read from the record tables.
//
// An engine index whose every value is one of its columns' own
// (engine.Rows.Lists) is answered from the record table: a scan of the
// index table "<table>_ix_<name>" runs SQL on the rows and yields the keys
// the engine's entries have, in the same order:
//
//	<EscapeValue(value)>|<16 hex digits of created_at's millisecond>|<id>
//
// The value of a scan's prefix "<value>|" becomes "column = value" (for an
// index over several columns one subquery per column, merged, each key
// once), and a bound of the key a bound of created_at, so that a page walks
// the B-tree (column, created_at) and stops after its limit; the key's
// exact bound is checked on the key built in SQL, compared as bytes.
// Within one subquery rows come in (created_at, id) order, which is the
// keys' order because the engine's clock is truncated to the millisecond;
// a record whose createdAt has finer precision (a state import) still has
// its key, but two records in the same millisecond come in created_at
// order rather than id order.
//
// A key has no version of its own: the scan reports 0, and the commit's
// check of a scanned range (checkScan) compares the keys the same query
// gives then, so a record entering or leaving the range is a conflict and
// a change to a record that keeps its key is not.
//
// The entries themselves are never stored: a run's Put and Delete of one
// are kept in the run, so that its own scans and reads see them, and the
// commit writes nothing for them (the record they come from is written
// beside them). A Get of an entry (the probes of a list filtered twice)
// asks whether the record with the key's id has the key's value in one of
// the columns and the key's creation time (existsSQL), and the commit
// checks the answer again (listChecks). DeclareTables deletes the entries
// a store written before kept in payments_kv.

// listIndex is an index answered from the rows of sh: by the columns cols
// (none: the index of every record), ordered by created.
type listIndex struct {
	sh      *shape
	cols    []string
	created string
}

// list returns the list index whose engine table is table, or nil.
func (s *Store) list(table string) *listIndex { return s.layout.Load().lists[table] }

// listValue unescapes the value of a prefix "<escaped value>|"; ok is
// false for any other prefix.
var listValue = strings.NewReplacer("%7C", "|", "%25", "%")

// keySQL is the SQL text of the index key of a row whose value is the
// column col ("" for the index of every record), as bytes.
func (ix *listIndex) keySQL(col string) string {
	value := "''"
	if col != "" {
		value = `replace(replace(` + ident(col) + `, '%', '%25'), '|', '%7C')`
	}
	created := ident(ix.created)
	return `convert_to(` + value + ` || '|' || lpad(to_hex(floor(extract(epoch FROM ` + created +
		`) * 1000)::bigint # (-9223372036854775807 - 1)), 16, '0') || '|' || ` + ix.sh.key + `, 'UTF8')`
}

// millis returns the millisecond of created_at in a bound of keys under
// prefix (the 16 hex digits after it), or false.
func millis(prefix, bound string) (int64, bool) {
	if !strings.HasPrefix(bound, prefix) || len(bound) < len(prefix)+16 {
		return 0, false
	}
	b, err := hex.DecodeString(bound[len(prefix) : len(prefix)+16])
	if err != nil {
		return 0, false
	}
	var u uint64
	for _, x := range b {
		u = u<<8 | uint64(x)
	}
	return int64(u ^ 1<<63), true
}

// listRange is the range of keys a scan of a list index reads.
type listRange struct {
	prefix  string
	after   string // keys past it, in scan order
	through string // keys up to it, in scan order ("": no bound)
	reverse bool
	limit   int // 0: no limit
}

// query returns the SQL of the keys of ix in r, as rows of (k bytea),
// in scan order; arg binds one parameter and returns its placeholder.
func (ix *listIndex) query(r listRange, arg func(v any, typ string) string) string {
	cols := ix.cols
	if len(cols) == 0 {
		cols = []string{""}
	}
	value, byValue := "", false
	if strings.HasSuffix(r.prefix, "|") && strings.Count(r.prefix, "|") == 1 {
		value, byValue = listValue.Replace(r.prefix[:len(r.prefix)-1]), true
	}
	dir := ""
	if r.reverse {
		dir = " DESC"
	}
	created := ident(ix.created)
	stamp := func(ms int64) string { return arg(time.UnixMilli(ms), "timestamptz") }
	var subs []string
	for _, col := range cols {
		key := ix.keySQL(col)
		var where []string
		switch {
		case byValue && col == "" && value != "":
			where = append(where, "false")
		case byValue && col != "":
			// col <> '' names the predicate of the partial B-tree.
			where = append(where, ident(col)+" = "+arg(value, "text"), ident(col)+" <> ''")
		case col != "":
			where = append(where, ident(col)+" <> ''")
		}
		if !byValue && r.prefix != "" {
			where = append(where, key+" >= "+arg([]byte(r.prefix), "bytea"))
			if end := engine.PrefixEnd(r.prefix); end != "" {
				where = append(where, key+" < "+arg([]byte(end), "bytea"))
			}
		}
		bound := func(k string, past bool) {
			if k == "" {
				return
			}
			// past: keys after k in scan order; else keys up to it.
			op := map[[2]bool]string{{false, true}: ">", {true, true}: "<", {false, false}: "<=", {true, false}: ">="}[[2]bool{r.reverse, past}]
			where = append(where, key+" "+op+" "+arg([]byte(k), "bytea"))
			if ms, ok := millis(r.prefix, k); ok && byValue {
				if r.reverse == past {
					where = append(where, created+" < "+stamp(ms+1))
				} else {
					where = append(where, created+" >= "+stamp(ms))
				}
			}
		}
		bound(r.after, true)
		bound(r.through, false)
		q := "SELECT " + key + " AS k FROM " + ident(ix.sh.sql)
		if len(where) > 0 {
			q += " WHERE " + strings.Join(where, " AND ")
		}
		q += " ORDER BY " + created + dir + ", " + ix.sh.key + dir
		if r.limit > 0 {
			q += " LIMIT " + strconv.Itoa(r.limit)
		}
		subs = append(subs, "("+q+")")
	}
	q := "SELECT k FROM (" + strings.Join(subs, " UNION ") + ") AS keys ORDER BY k" + dir
	if r.limit > 0 {
		q += " LIMIT " + strconv.Itoa(r.limit)
	}
	return q
}

// keyParts splits an entry's key "<escaped value>|<16 hex digits>|<id>"
// into its value, unescaped, and its id; ok is false for any other key.
func keyParts(key string) (value, id string, ok bool) {
	v, rest, ok := strings.Cut(key, "|")
	if !ok || len(rest) < 17 || rest[16] != '|' {
		return "", "", false
	}
	return listValue.Replace(v), rest[17:], true
}

// existsSQL is the SQL condition that a row of ix's table, in a FROM item
// of the table, has the key whose id, value and key (as bytes) are the
// SQL expressions id, value and key.
func (ix *listIndex) existsSQL(id, value, key string) string {
	cols := ix.cols
	if len(cols) == 0 {
		cols = []string{""}
	}
	var any []string
	for _, col := range cols {
		c := ix.keySQL(col) + " = " + key
		if col != "" {
			c = ident(col) + " = " + value + " AND " + c
		}
		any = append(any, "("+c+")")
	}
	return ix.sh.keyIs("", id) + " AND (" + strings.Join(any, " OR ") + ")"
}

// getSQL reads whether the entry key exists: one row when it does. A key
// that is none of the index's holds nothing.
func (ix *listIndex) getSQL(key string) (string, []any) {
	value, id, ok := keyParts(key)
	if !ok {
		return "SELECT 0::bigint, ''::bytea WHERE false", nil
	}
	return "SELECT 0::bigint, ''::bytea FROM " + ident(ix.sh.sql) + " WHERE " + ix.existsSQL("$1::text", "$2::text", "$3::bytea") + " LIMIT 1",
		[]any{id, value, []byte(key)}
}
