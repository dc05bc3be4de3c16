package pgstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments/internal/engine"
)

// moveRecords is the Go step of migration 4: the ledger's records move
// out of payments_kv, where a store written before it kept them, into the
// ledger's tables. (The record tables the areas declare are moved by
// DeclareTables, declare.go, when they are first built.)
func moveRecords(ctx context.Context, tx pgx.Tx) error {
	if err := moveTable(ctx, tx, journalShape, "zz1_"+journalShape.engine); err != nil { // migration 3's name of the journal
		return err
	}
	return eachBatch(ctx, tx, engine.TableLedgerBalances, func(keys []string, values [][]byte) error {
		acc, cur := make([]string, len(keys)), make([]string, len(keys))
		n := make([]int64, len(keys))
		for i, k := range keys {
			var err error
			if acc[i], cur[i], err = splitKey(k); err != nil {
				return err
			}
			if n[i], err = strconv.ParseInt(string(values[i]), 10, 64); err != nil {
				return fmt.Errorf("pgstore: balance %s: %w", k, err)
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO ledger_balances (account, currency, balance)
			SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`, acc, cur, n)
		return err
	})
}

// moveTable moves the records of payments_kv table from into the record
// table sh, each row made by the same code as the store's own writes.
func moveTable(ctx context.Context, tx pgx.Tx, sh *shape, from string) error {
	return eachBatch(ctx, tx, from, func(keys []string, values [][]byte) error {
		args, err := columnArgs(sh, keys, values)
		if err != nil {
			return err
		}
		s := &stmt{}
		s.cte(sh.insert(s, args, false))
		if sh.journal {
			entries := make([]*engine.LedgerEntry, len(keys))
			for i := range keys {
				if entries[i], err = decodeEntry(keys[i], values[i]); err != nil {
					return err
				}
			}
			if body := postingsInsert(s, entries, false); body != "" {
				s.cte(body)
			}
		}
		if _, err := tx.Exec(ctx, s.finish(false), s.args...); err != nil {
			return fmt.Errorf("%s: %w", sh.sql, err)
		}
		return nil
	})
}

// eachBatch hands the records of payments_kv table tbl to fn, 500 at a
// time, and deletes them.
func eachBatch(ctx context.Context, tx pgx.Tx, tbl string, fn func(keys []string, values [][]byte) error) error {
	var after []byte
	for {
		q, args := "SELECT k, v FROM payments_kv WHERE tbl = $1 ORDER BY k LIMIT 500", []any{tbl}
		if after != nil {
			q, args = "SELECT k, v FROM payments_kv WHERE tbl = $1 AND k > $2 ORDER BY k LIMIT 500", []any{tbl, after}
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		var keys []string
		var values [][]byte
		for rows.Next() {
			var k, v []byte
			if err := rows.Scan(&k, &v); err != nil {
				rows.Close()
				return err
			}
			keys, values = append(keys, string(k)), append(values, v)
			after = k
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(keys) == 0 {
			break
		}
		if err := fn(keys, values); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, "DELETE FROM payments_kv WHERE tbl = $1", tbl)
	return err
}
