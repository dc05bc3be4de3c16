package pgstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
)

// Hot records are read under their locks (locks.go). The read is made in
// the round trip that takes the lock, together with the other hot records
// the operation will want (those locked with it last time, and those the
// caller named as contended), and stays good for every run of the Update
// while it holds the locks: a run that must run again reads them for free.

// underRead is a record read under its lock: a record's version and value,
// or a balance.
type underRead struct {
	v      []byte
	n      int64
	ver    int64
	exists bool
}

// underLock returns k as read under its lock when this Update holds it,
// first taking the lock (and reading) when k is hot; ok is false when k is
// not read under a lock.
func (t *tx) underLock(k tkey) (underRead, bool, error) {
	if t.u == nil || t.s.list(k.table) != nil {
		return underRead{}, false, nil
	}
	if r, ok := t.u.under[k]; ok {
		return r, true, nil
	}
	if !t.s.hot.isHot(lockOf(k)) {
		return underRead{}, false, nil
	}
	keys := []tkey{k}
	if len(t.u.locks.held) == 0 {
		// The first lock of the Update: take those of the records it
		// will want with it, in order (a run holding locks does not wait
		// for another: errLockOrder).
		keys = append(keys, t.s.hot.with(lockOf(k))...)
		for _, c := range payments.ContendedKeys(t.ctx) {
			if ck := (tkey{c.Table, c.Key}); t.s.hot.isHot(lockOf(ck)) {
				keys = append(keys, ck)
			}
		}
	}
	if err := t.u.lockRead(t.ctx, t.s, t.c, keys, nil, len(t.u.locks.held) == 0); err != nil {
		return underRead{}, false, t.fail(err)
	}
	r, ok := t.u.under[k]
	return r, ok, nil
}

// lockRead takes the locks of keys and extra, in ascending order (waiting
// for the busy ones when wait is set; else a busy one fails the run with
// errLockOrder), and reads the records, in one round trip.
func (u *update) lockRead(ctx context.Context, s *Store, c *pgx.Conn, keys []tkey, extra []int32, wait bool) error {
	slices.SortFunc(keys, func(a, b tkey) int {
		if c := cmp.Compare(lockOf(a), lockOf(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.table+"\x00"+a.key, b.table+"\x00"+b.key)
	})
	keys = slices.Compact(keys)
	var locks []int32
	for _, lk := range extra {
		if !u.locks.held[lk] {
			locks = append(locks, lk)
		}
	}
	for _, k := range keys {
		if lk := lockOf(k); !u.locks.held[lk] && !slices.Contains(locks, lk) {
			locks = append(locks, lk)
		}
	}
	slices.Sort(locks)
	b := &batch{}
	var busy []int32
	if len(locks) > 0 {
		u.locks.queue(&b.b, locks, wait)
		b.reads = append(b.reads, func(br pgx.BatchResults) error {
			var err error
			busy, err = u.locks.readBusy(br, s, locks, wait)
			if err == nil && !wait && len(busy) > 0 {
				u.wantKeys = append(u.wantKeys, keys...)
				err = errLockOrder
			}
			return err
		})
	}
	got := make([]underRead, len(keys))
	codecs := make([]pgtype.Int2, len(keys))
	for i, k := range keys {
		r := &got[i]
		switch sh := s.shape(k.table); {
		case k.table == engine.TableLedgerBalances:
			account, currency, err := splitKey(k.key)
			if err != nil {
				return err
			}
			b.query("SELECT balance FROM ledger_balances WHERE account = $1 AND currency = $2", func(rows pgx.Rows) error {
				for rows.Next() {
					if err := rows.Scan(&r.n); err != nil {
						return err
					}
					r.exists = true
				}
				return nil
			}, account, currency)
		default:
			sql, args, codec := kvGetSQL, []any{s.stored(k.table), []byte(k.key)}, &codecs[i]
			if sh != nil {
				sql, args = sh.get(k.key)
				codec = nil
			}
			b.query(sql, func(rows pgx.Rows) error {
				for rows.Next() {
					v, err := scanStored(rows, sh, codec, &r.ver)
					if err != nil {
						return err
					}
					r.v, r.exists = clone(v), true
				}
				return nil
			}, args...)
		}
	}
	if _, err := b.send(ctx, s, c); err != nil {
		return err
	}
	for i, k := range keys {
		if codecs[i].Valid {
			v, err := s.codecs.decode(ctx, s, c, k.table, codecs[i], got[i].v)
			if err != nil {
				return err
			}
			got[i].v = v
		}
	}
	if u.under == nil {
		u.under = map[tkey]underRead{}
	}
	for i, k := range keys {
		u.under[k] = got[i]
	}
	return nil
}
