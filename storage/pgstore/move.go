package pgstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/klauspost/compress/s2"
	"github.com/paygrid/payments/internal/engine"
)

// moveRecords is the Go step of migration 4: the ledger's records move
// out of payments_kv, where a store written before it kept them, into the
// ledger's tables as version 4 laid them out (migration 5 moves the
// journal on into its narrow rows). (The record tables the areas declare
// are moved by DeclareTables, declare.go, when they are first built.)
func moveRecords(ctx context.Context, tx pgx.Tx) error {
	if err := eachBatch(ctx, tx, "zz1_"+engine.TableLedgerEntries, engine.TableLedgerEntries, func(keys []string, values [][]byte) error { // migration 3's name of the journal
		return writeJournalV4(ctx, tx, keys, values)
	}); err != nil {
		return err
	}
	return eachBatch(ctx, tx, engine.TableLedgerBalances, engine.TableLedgerBalances, func(keys []string, values [][]byte) error {
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
	return eachBatch(ctx, tx, from, sh.engine, func(keys []string, values [][]byte) error {
		args, err := columnArgs(sh, keys, values, nil)
		if err != nil {
			return err
		}
		s := &stmt{}
		s.cte(sh.insert(s, args, false))
		if _, err := tx.Exec(ctx, s.finish(false), s.args...); err != nil {
			return fmt.Errorf("%s: %w", sh.sql, err)
		}
		return nil
	})
}

// eachBatch hands the records of payments_kv table tbl (the engine's table
// table) to fn, 500 at a time, as the engine wrote them, and deletes them.
// A value kept compressed (codec.go; a store of version 6 or later) is
// decoded with the table's dictionary, read in tx.
func eachBatch(ctx context.Context, tx pgx.Tx, tbl, table string, fn func(keys []string, values [][]byte) error) error {
	var codecs bool // payments_kv has the codec column
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_attribute
		WHERE attrelid = 'payments_kv'::regclass AND attname = 'codec' AND NOT attisdropped)`).Scan(&codecs); err != nil {
		return err
	}
	cols := "k, v, NULL::int2"
	if codecs {
		cols = "k, v, codec"
	}
	var dict *s2.Dict
	var after []byte
	for {
		q, args := "SELECT "+cols+" FROM payments_kv WHERE tbl = $1 ORDER BY k LIMIT 500", []any{tbl}
		if after != nil {
			q, args = "SELECT "+cols+" FROM payments_kv WHERE tbl = $1 AND k > $2 ORDER BY k LIMIT 500", []any{tbl, after}
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		var keys []string
		var values [][]byte
		var compressed []int
		for rows.Next() {
			var k, v []byte
			var codec pgtype.Int2
			if err := rows.Scan(&k, &v, &codec); err != nil {
				rows.Close()
				return err
			}
			if codec.Valid {
				if codec.Int16 != codecDict {
					rows.Close()
					return fmt.Errorf("pgstore: a value of table %q is kept with codec %d, which this version does not read", table, codec.Int16)
				}
				compressed = append(compressed, len(values))
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
		for _, i := range compressed {
			if dict == nil {
				var b []byte
				if err := tx.QueryRow(ctx, "SELECT dict FROM payments_kv_dicts WHERE tbl = $1", table).Scan(&b); err != nil {
					return fmt.Errorf("pgstore: the dictionary of table %q: %w", table, err)
				}
				if dict = s2.NewDict(b); dict == nil {
					return fmt.Errorf("pgstore: the dictionary of table %q is damaged", table)
				}
			}
			if values[i], err = dict.Decode(nil, values[i]); err != nil {
				return fmt.Errorf("pgstore: a value of table %q is damaged: %w", table, err)
			}
		}
		if err := fn(keys, values); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, "DELETE FROM payments_kv WHERE tbl = $1", tbl)
	return err
}

// journalV4 is the journal as version 4 laid it out: one row per entry in
// ledger_journal, the entry whole in doc.
var journalV4 = newShape(engine.TableLedgerEntries, "ledger_journal",
	text("reference", "reference"),
	timestamptz("created_at", "createdAt"),
	column{"overdraft", colBoolean, "overdraft", "false"})

// writeJournalV4 writes the journal records values at keys as version 4
// did: a row of ledger_journal each, and a row of ledger_entries per
// posting.
func writeJournalV4(ctx context.Context, tx pgx.Tx, keys []string, values [][]byte) error {
	args, err := columnArgs(journalV4, keys, values, nil)
	if err != nil {
		return err
	}
	s := &stmt{}
	s.cte(journalV4.insert(s, args, false))
	var ids, accounts, currencies []string
	var refs, txs, created []pgtype.Text
	var seqs []int32
	var amounts []int64
	for i := range keys {
		e, err := decodeEntry(keys[i], values[i])
		if err != nil {
			return err
		}
		at := pgtype.Text{}
		if !e.CreatedAt.IsZero() {
			at = pgtype.Text{String: e.CreatedAt.Format(time.RFC3339Nano), Valid: true}
		}
		ref := pgtype.Text{String: e.Reference, Valid: e.Reference != ""}
		txID := pgtype.Text{String: e.Reference, Valid: strings.HasPrefix(e.Reference, "Transaction:")}
		for i, p := range e.Postings {
			ids, seqs, accounts, currencies = append(ids, e.ID), append(seqs, int32(i)), append(accounts, p.Account), append(currencies, p.Currency)
			amounts, refs, txs, created = append(amounts, p.Amount), append(refs, ref), append(txs, txID), append(created, at)
		}
	}
	if len(ids) > 0 {
		s.cte(`INSERT INTO ledger_entries (entry_id, seq, reference, transaction_id, account, currency, amount, created_at)
			SELECT u.entry_id, u.seq, u.reference, u.transaction_id, u.account, u.currency, u.amount, u.created_at::timestamptz
			FROM ` + s.rows("u", []string{"entry_id", "seq", "reference", "transaction_id", "account", "currency", "amount", "created_at"},
			[]string{"text", "int", "text", "text", "text", "text", "bigint", "text"}, ids, seqs, refs, txs, accounts, currencies, amounts, created))
	}
	if _, err := tx.Exec(ctx, s.finish(false), s.args...); err != nil {
		return fmt.Errorf("ledger_journal: %w", err)
	}
	return nil
}
