// Package storetest is the conformance suite every payments.Store runs, as an
// importable package (like testing/fstest): a store wires it in with a few
// lines and is held to the same contract as every other store.
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, storetest.Harness{
//			New: func(t testing.TB) payments.Store { return memstore.New() },
//		})
//	}
//
// The behaviours: round trips and the ErrNotFound/ErrConflict sentinels;
// returned values stay valid after their transaction and later writes; a
// failed or panicking Update persists nothing; View never sees uncommitted writes and a cancelled context aborts; stable
// order and gap-free cursors under concurrent inserts; concurrent overdrafts
// never go negative and a quote executes once; only balanced ledger entries
// commit; outbox events exist only for committed transactions; durable stores
// keep acknowledged writes across close and reopen.
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/accounts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Harness tells the suite how to make stores.
type Harness struct {
	// New returns a fresh, empty store; the suite closes it.
	New func(t testing.TB) payments.Store
	// Reopen closes s and opens the same data again. Nil for stores that
	// keep nothing across Close; the durability behaviour is then skipped.
	Reopen func(t testing.TB, s payments.Store) payments.Store
}

var ctx = context.Background()

func (h Harness) open(t testing.TB) payments.Store {
	s := h.New(t)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Run runs every behaviour as a subtest.
func Run(t *testing.T, h Harness) {
	t.Run("RoundTripAndSentinels", func(t *testing.T) { roundTrip(t, h.open(t)) })
	t.Run("ValuesStayValid", func(t *testing.T) { valuesStayValid(t, h.open(t)) })
	t.Run("FailedUpdatePersistsNothing", func(t *testing.T) { failedUpdate(t, h.open(t)) })
	t.Run("Isolation", func(t *testing.T) { isolation(t, h.open(t)) })
	t.Run("OrderAndCursors", func(t *testing.T) { order(t, h.open(t)) })
	t.Run("ScanWhileWriting", func(t *testing.T) { scanWhileWriting(t, h.open(t)) })
	t.Run("ScanSkipsRemoved", func(t *testing.T) { scanSkipsRemoved(t, h.open(t)) })
	t.Run("ConcurrentOverdraftNeverNegative", func(t *testing.T) { overdraft(t, h.open(t)) })
	t.Run("ViewsSeeWholeCommits", func(t *testing.T) { wholeCommits(t, h.open(t)) })
	t.Run("QuoteExecutesOnce", func(t *testing.T) { executeOnce(t, h.open(t)) })
	t.Run("LedgerBalanced", func(t *testing.T) { balanced(t, h.open(t)) })
	t.Run("Outbox", func(t *testing.T) { outbox(t, h.open(t)) })
	t.Run("Closed", func(t *testing.T) { closed(t, h.New(t)) })
	t.Run("Durable", func(t *testing.T) {
		if h.Reopen == nil {
			t.Skip("store is not durable")
		}
		durable(t, h)
	})
}

func put(t testing.TB, s payments.Store, table, key, value string) {
	t.Helper()
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Put(table, key, []byte(value)) }))
}

func get(s payments.Store, table, key string) (string, error) {
	var out []byte
	err := s.View(ctx, func(tx payments.Tx) error {
		var err error
		out, err = tx.Get(table, key)
		return err
	})
	return string(out), err
}

func roundTrip(t *testing.T, s payments.Store) {
	put(t, s, "a", "k1", "v1")
	put(t, s, "b", "k1", "other")
	v, err := get(s, "a", "k1")
	require.NoError(t, err)
	assert.Equal(t, "v1", v)
	v, _ = get(s, "b", "k1")
	assert.Equal(t, "other", v)
	put(t, s, "a", "k1", "v2")
	v, _ = get(s, "a", "k1")
	assert.Equal(t, "v2", v)

	_, err = get(s, "a", "missing")
	assert.ErrorIs(t, err, payments.ErrNotFound)
	_, err = get(s, "never-written", "k")
	assert.ErrorIs(t, err, payments.ErrNotFound)
	err = s.Update(ctx, func(tx payments.Tx) error { return tx.Insert("a", "k1", []byte("dup")) })
	assert.ErrorIs(t, err, payments.ErrConflict)
	v, _ = get(s, "a", "k1")
	assert.Equal(t, "v2", v, "a refused insert changes nothing")
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Insert("a", "k2", []byte("new")) }))
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Delete("a", "k2") }))
	_, err = get(s, "a", "k2")
	assert.ErrorIs(t, err, payments.ErrNotFound)
	err = s.Update(ctx, func(tx payments.Tx) error { return tx.Delete("a", "k2") })
	assert.ErrorIs(t, err, payments.ErrNotFound)
	err = s.Update(ctx, func(tx payments.Tx) error { return tx.Delete("nope", "k") })
	assert.ErrorIs(t, err, payments.ErrNotFound)
	// Read your own writes inside one transaction.
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
		if err := tx.Put("c", "x", []byte("1")); err != nil {
			return err
		}
		b, err := tx.Get("c", "x")
		if err != nil || string(b) != "1" {
			return fmt.Errorf("own write not visible: %q %v", b, err)
		}
		return nil
	}))
}

// valuesStayValid checks that values a transaction read keep their bytes
// after it ends, after the record is replaced or deleted, and after enough
// other writes that a store reusing its pages or buffers would overwrite
// them.
func valuesStayValid(t *testing.T, s payments.Store) {
	// A value larger than a page, so that a store reading it in place
	// would hand out a page that the writes below free and reuse.
	original := bytes.Repeat([]byte("original"), 1024)
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Put("t", "k", original) }))
	var got, scanned []byte
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		var err error
		if got, err = tx.Get("t", "k"); err != nil {
			return err
		}
		return tx.Scan("t", payments.ScanOptions{}, func(_ string, v []byte) (bool, error) {
			scanned = v
			return false, nil
		})
	}))
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Put("t", "k", bytes.Repeat([]byte("replaced"), 1024)) }))
	for i := range 50 {
		require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
			_ = tx.Delete("t", fmt.Sprintf("k%03d", i-1))
			return tx.Put("t", fmt.Sprintf("k%03d", i), bytes.Repeat([]byte{'x'}, len(original)))
		}))
	}
	assert.True(t, bytes.Equal(original, got), "a value Get returned changed after its transaction")
	assert.True(t, bytes.Equal(original, scanned), "a value Scan returned changed after its transaction")
}

func failedUpdate(t *testing.T, s payments.Store) {
	put(t, s, "t", "keep", "before")
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx payments.Tx) error {
		_ = tx.Put("t", "keep", []byte("changed"))
		_ = tx.Put("t", "new", []byte("x"))
		_ = tx.Delete("t", "keep")
		_ = tx.Put("fresh-table", "k", []byte("x"))
		return boom
	})
	assert.ErrorIs(t, err, boom)
	err = s.Update(ctx, func(tx payments.Tx) error {
		_ = tx.Put("t", "keep", []byte("changed"))
		_ = tx.Put("t", "new2", []byte("x"))
		panic("kaboom")
	})
	require.Error(t, err, "a panic is returned as an error")
	v, err := get(s, "t", "keep")
	require.NoError(t, err)
	assert.Equal(t, "before", v)
	for _, k := range []string{"new", "new2"} {
		_, err = get(s, "t", k)
		assert.ErrorIs(t, err, payments.ErrNotFound)
	}
	_, err = get(s, "fresh-table", "k")
	assert.ErrorIs(t, err, payments.ErrNotFound)
	// The store still works after a panic.
	put(t, s, "t", "after", "ok")
}

func isolation(t *testing.T, s payments.Store) {
	put(t, s, "t", "k", "committed")
	inside := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Update(ctx, func(tx payments.Tx) error {
			_ = tx.Put("t", "k", []byte("uncommitted"))
			_ = tx.Put("t", "k2", []byte("uncommitted"))
			close(inside)
			<-release
			return nil
		})
	}()
	<-inside
	// memstore blocks readers while a writer runs; boltstore serves a
	// snapshot (which may wait on its own work, such as a checkpoint that
	// grows the file). Either way a View must not observe the writer's
	// state, and sees a commit whole or not at all.
	seen := make(chan string, 1)
	go func() {
		var v string
		_ = s.View(ctx, func(tx payments.Tx) error {
			raw, _ := tx.Get("t", "k")
			v = string(raw)
			if _, err := tx.Get("t", "k2"); !errors.Is(err, payments.ErrNotFound) {
				v += "+k2"
			}
			return nil
		})
		seen <- v
	}()
	select {
	case v := <-seen:
		assert.Equal(t, "committed", v, "View saw an uncommitted write")
		close(release)
	case <-time.After(200 * time.Millisecond):
		close(release) // the reader waits: it sees the commit whole, or the state before it
		v := <-seen
		assert.Contains(t, []string{"committed", "uncommitted+k2"}, v)
	}
	require.NoError(t, <-done)

	t.Run("cancelled context aborts before commit", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		err := s.Update(cctx, func(tx payments.Tx) error {
			_ = tx.Put("t", "cancelled", []byte("x"))
			cancel()
			return nil
		})
		assert.ErrorIs(t, err, context.Canceled)
		_, err = get(s, "t", "cancelled")
		assert.ErrorIs(t, err, payments.ErrNotFound)
		err = s.Update(cctx, func(tx payments.Tx) error { return tx.Put("t", "never", nil) })
		assert.ErrorIs(t, err, context.Canceled)
	})
	t.Run("writes inside View are refused", func(t *testing.T) {
		err := s.View(ctx, func(tx payments.Tx) error { return tx.Put("t", "k", []byte("x")) })
		assert.ErrorIs(t, err, payments.ErrReadOnly)
		err = s.View(ctx, func(tx payments.Tx) error { return tx.Delete("t", "k") })
		assert.ErrorIs(t, err, payments.ErrReadOnly)
	})
}

func scanKeys(t testing.TB, s payments.Store, table string, opts payments.ScanOptions, limit int) []string {
	t.Helper()
	var keys []string
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		return tx.Scan(table, opts, func(k string, _ []byte) (bool, error) {
			keys = append(keys, k)
			return limit == 0 || len(keys) < limit, nil
		})
	}))
	return keys
}

// scanWhileWriting: inside Update, fn may write to the table it scans (here
// deleting each visited key and adding one outside the scanned prefix), and
// a long range, in both directions, is still visited once per key in order.
func scanWhileWriting(t *testing.T, s payments.Store) {
	const n = 300 // several store read batches
	for _, reverse := range []bool{false, true} {
		require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
			for i := range n {
				if err := tx.Put("w", fmt.Sprintf("a/%04d", i), []byte("x")); err != nil {
					return err
				}
			}
			return nil
		}))
		var visited []string
		require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
			return tx.Scan("w", payments.ScanOptions{Prefix: "a/", Reverse: reverse}, func(k string, _ []byte) (bool, error) {
				visited = append(visited, k)
				if err := tx.Delete("w", k); err != nil {
					return false, err
				}
				return true, tx.Put("w", "b/"+k, []byte("y"))
			})
		}))
		require.Len(t, visited, n, "reverse=%v", reverse)
		for i := 1; i < n; i++ {
			assert.Equal(t, reverse, visited[i] < visited[i-1], "order at %d (reverse=%v)", i, reverse)
		}
		assert.Empty(t, scanKeys(t, s, "w", payments.ScanOptions{Prefix: "a/"}, 0))
		assert.Len(t, scanKeys(t, s, "w", payments.ScanOptions{Prefix: "b/"}, 0), n)
	}
}

func order(t *testing.T, s payments.Store) {
	for _, k := range []string{"b/2", "a/1", "b/1", "c/1", "a/2", "b/3"} {
		put(t, s, "o", k, k)
	}
	assert.Equal(t, []string{"a/1", "a/2", "b/1", "b/2", "b/3", "c/1"}, scanKeys(t, s, "o", payments.ScanOptions{}, 0))
	assert.Equal(t, []string{"c/1", "b/3", "b/2", "b/1", "a/2", "a/1"}, scanKeys(t, s, "o", payments.ScanOptions{Reverse: true}, 0))
	assert.Equal(t, []string{"b/1", "b/2", "b/3"}, scanKeys(t, s, "o", payments.ScanOptions{Prefix: "b/"}, 0))
	assert.Equal(t, []string{"b/3", "b/2", "b/1"}, scanKeys(t, s, "o", payments.ScanOptions{Prefix: "b/", Reverse: true}, 0))
	assert.Equal(t, []string{"b/2", "b/3", "c/1"}, scanKeys(t, s, "o", payments.ScanOptions{After: "b/1"}, 0))
	assert.Equal(t, []string{"b/3"}, scanKeys(t, s, "o", payments.ScanOptions{After: "b/2", Prefix: "b/"}, 0))
	assert.Equal(t, []string{"a/2", "a/1"}, scanKeys(t, s, "o", payments.ScanOptions{After: "b/1", Reverse: true}, 0))
	assert.Equal(t, []string{"b/1"}, scanKeys(t, s, "o", payments.ScanOptions{After: "b/2", Prefix: "b/", Reverse: true}, 0))
	assert.Equal(t, []string{"a/1", "a/2"}, scanKeys(t, s, "o", payments.ScanOptions{}, 2), "fn returning false stops")
	assert.Empty(t, scanKeys(t, s, "never", payments.ScanOptions{}, 0))

	// Cursor pagination while other goroutines insert: every record present
	// at the start is seen exactly once, in increasing order.
	const initial = 200
	for i := range initial {
		put(t, s, "p", fmt.Sprintf("k%05d", i*10), "x")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				_ = s.Update(ctx, func(tx payments.Tx) error {
					return tx.Put("p", fmt.Sprintf("k%05d-%d-%d", (i*7)%(initial*10), w, i), []byte("y"))
				})
			}
		}()
	}
	seen := map[string]int{}
	last := ""
	for {
		page := scanKeys(t, s, "p", payments.ScanOptions{After: last}, 7)
		if len(page) == 0 {
			break
		}
		for _, k := range page {
			assert.Greater(t, k, last, "cursor order")
			seen[k]++
			last = k
		}
	}
	close(stop)
	wg.Wait()
	for i := range initial {
		k := fmt.Sprintf("k%05d", i*10)
		assert.Equal(t, 1, seen[k], "record %s seen %d times", k, seen[k])
	}
}

// fund moves amount from an external funding account into account.
func fund(t testing.TB, s payments.Store, id, account string, amount int64) {
	t.Helper()
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
		return payments.Post(tx, payments.LedgerEntry{ID: id, Postings: accounts.Transfer("external:funding", account, "USD", amount)})
	}))
}

func overdraft(t *testing.T, s payments.Store) {
	const n, k = 64, 20
	fund(t, s, "E:fund", "acct", k)
	var ok, insufficient atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Update(ctx, func(tx payments.Tx) error {
				return payments.Post(tx, payments.LedgerEntry{ID: fmt.Sprintf("E:spend-%02d", i), Postings: accounts.Transfer("acct", "external:sink", "USD", 1)})
			})
			switch {
			case err == nil:
				ok.Add(1)
			case payments.CodeOf(err) == payments.CodeInsufficientFunds:
				insufficient.Add(1)
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, k, ok.Load())
	assert.EqualValues(t, n-k, insufficient.Load())
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		b, err := payments.Balance(tx, "acct", "USD")
		assert.Zero(t, b)
		return err
	}))
	require.NoError(t, payments.CheckLedger(ctx, s))
}

type quote struct {
	Status string `json:"status"`
}

func executeOnce(t *testing.T, s payments.Store) {
	fund(t, s, "E:fund", "payer", 1000)
	b, _ := json.Marshal(quote{Status: "PENDING"})
	put(t, s, "quotes", "Q:1", string(b))
	var executed atomic.Int32
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Update(ctx, func(tx payments.Tx) error {
				raw, err := tx.Get("quotes", "Q:1")
				if err != nil {
					return err
				}
				var q quote
				if err := json.Unmarshal(raw, &q); err != nil {
					return err
				}
				if q.Status != "PENDING" {
					return payments.ErrConflict
				}
				q.Status = "EXECUTED"
				raw, _ = json.Marshal(q)
				if err := tx.Put("quotes", "Q:1", raw); err != nil {
					return err
				}
				return payments.Post(tx, payments.LedgerEntry{ID: fmt.Sprintf("E:exec-%d", i), Reference: "Q:1", Postings: accounts.Transfer("payer", "external:rail", "USD", 100)})
			})
			if err == nil {
				executed.Add(1)
			} else {
				assert.ErrorIs(t, err, payments.ErrConflict)
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 1, executed.Load())
	entries := 0
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		b, _ := payments.Balance(tx, "payer", "USD")
		assert.EqualValues(t, 900, b)
		return tx.Scan(tableLedgerEntries, payments.ScanOptions{Prefix: "E:exec"}, func(string, []byte) (bool, error) {
			entries++
			return true, nil
		})
	}))
	assert.Equal(t, 1, entries)
	require.NoError(t, payments.CheckLedger(ctx, s))
}

func balanced(t *testing.T, s payments.Store) {
	fund(t, s, "E:1", "a", 500)
	bad := [][]payments.Posting{
		{{Account: "a", Currency: "USD", Amount: -10}, {Account: "b", Currency: "USD", Amount: 9}},
		{{Account: "a", Currency: "USD", Amount: -10}, {Account: "b", Currency: "EUR", Amount: 10}},
		{{Account: "a", Currency: "USD", Amount: -10}},
		{{Account: "a", Currency: "USD", Amount: 0}, {Account: "b", Currency: "USD", Amount: 0}},
		{{Account: "a", Currency: "XXX", Amount: -1}, {Account: "b", Currency: "XXX", Amount: 1}},
	}
	for i, p := range bad {
		err := s.Update(ctx, func(tx payments.Tx) error {
			return payments.Post(tx, payments.LedgerEntry{ID: fmt.Sprintf("E:bad-%d", i), Postings: p})
		})
		require.Error(t, err, "entry %d", i)
	}
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		b, _ := payments.Balance(tx, "b", "USD")
		assert.Zero(t, b)
		_, err := tx.Get(tableLedgerEntries, "E:bad-0")
		assert.ErrorIs(t, err, payments.ErrNotFound)
		return nil
	}))
	// A multi-leg, multi-currency entry that balances per currency commits.
	fund(t, s, "E:2", "a", 1)
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
		if err := payments.Post(tx, payments.LedgerEntry{ID: "E:fx-in", Postings: accounts.Transfer("external:fx", "a", "EUR", 90)}); err != nil {
			return err
		}
		return payments.Post(tx, payments.LedgerEntry{ID: "E:fx", Postings: []payments.Posting{
			{Account: "a", Currency: "USD", Amount: -100}, {Account: "external:fx", Currency: "USD", Amount: 100},
			{Account: "a", Currency: "EUR", Amount: -90}, {Account: "b", Currency: "EUR", Amount: 90},
		}})
	}))
	err := s.Update(ctx, func(tx payments.Tx) error {
		return payments.Post(tx, payments.LedgerEntry{ID: "E:fx", Postings: accounts.Transfer("external:fx", "a", "EUR", 1)})
	})
	assert.ErrorIs(t, err, payments.ErrConflict, "entry ids are unique")
	require.NoError(t, payments.CheckLedger(ctx, s))
}

func outbox(t *testing.T, s payments.Store) {
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
		if err := tx.Put("customers", "C:1", []byte("{}")); err != nil {
			return err
		}
		return tx.Insert(tableOutbox, "Webhook:1", []byte(`{"type":"CUSTOMER.KYC_APPROVED"}`))
	}))
	_ = s.Update(ctx, func(tx payments.Tx) error {
		_ = tx.Put("customers", "C:2", []byte("{}"))
		_ = tx.Insert(tableOutbox, "Webhook:2", []byte(`{}`))
		return errors.New("rolled back")
	})
	assert.Equal(t, []string{"Webhook:1"}, scanKeys(t, s, tableOutbox, payments.ScanOptions{}, 0))
}

func closed(t *testing.T, s payments.Store) {
	require.NoError(t, s.Close())
	assert.ErrorIs(t, s.Update(ctx, func(payments.Tx) error { return nil }), payments.ErrClosed)
	assert.ErrorIs(t, s.View(ctx, func(payments.Tx) error { return nil }), payments.ErrClosed)
}

func durable(t *testing.T, h Harness) {
	s := h.New(t)
	put(t, s, "t", "k", "v")
	fund(t, s, "E:1", "acct", 42)
	s = h.Reopen(t, s)
	defer s.Close()
	v, err := get(s, "t", "k")
	require.NoError(t, err)
	assert.Equal(t, "v", v)
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		b, err := payments.Balance(tx, "acct", "USD")
		assert.EqualValues(t, 42, b)
		return err
	}))
	require.NoError(t, payments.CheckLedger(ctx, s))
}

// Table names the suite writes under. They are the engine's own names for
// its ledger and outbox, so that the benchmarks shape the store as the
// engine does; the store contract itself does not depend on them.
const (
	tableLedgerEntries  = "ledger_entries"
	tableLedgerBalances = "ledger_balances"
	tableOutbox         = "outbox"
)

// scanSkipsRemoved: a key fn removes ahead of the scan is not visited, in
// both directions, in a table of empty values (as index tables are) and in
// one of values.
func scanSkipsRemoved(t *testing.T, s payments.Store) {
	const n = 200 // several store read batches
	for _, value := range []string{"", "v"} {
		for _, reverse := range []bool{false, true} {
			table := fmt.Sprintf("r%s%v", value, reverse)
			require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
				for i := range n {
					if err := tx.Put(table, fmt.Sprintf("k%03d", i), []byte(value)); err != nil {
						return err
					}
				}
				return nil
			}))
			step := 1
			if reverse {
				step = -1
			}
			removed := map[string]bool{}
			var visited []string
			require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
				return tx.Scan(table, payments.ScanOptions{Reverse: reverse}, func(k string, v []byte) (bool, error) {
					if string(v) != value {
						return false, fmt.Errorf("%s: value %q", k, v)
					}
					visited = append(visited, k)
					var i int
					fmt.Sscanf(k, "k%d", &i)
					if i%3 != 0 {
						return true, nil
					}
					next := fmt.Sprintf("k%03d", i+step)
					if i+step < 0 || i+step >= n {
						return true, nil
					}
					removed[next] = true
					return true, tx.Delete(table, next)
				})
			}))
			assert.Len(t, visited, n-len(removed), "value %q, reverse=%v", value, reverse)
			for _, k := range visited {
				assert.False(t, removed[k], "%s visited after its removal (value %q, reverse=%v)", k, value, reverse)
			}
		}
	}
}

// wholeCommits: while writers move units between two records, concurrent
// Views always see both records of the same commit (their sum never
// changes), and no write is lost.
func wholeCommits(t *testing.T, s payments.Store) {
	const writers, moves, readers, total = 8, 50, 4, 1000
	put(t, s, "pair", "a", strconv.Itoa(total))
	put(t, s, "pair", "b", "0")
	read := func(tx payments.Tx) (a, b int, err error) {
		for _, x := range []struct {
			key string
			n   *int
		}{{"a", &a}, {"b", &b}} {
			v, err := tx.Get("pair", x.key)
			if err != nil {
				return 0, 0, err
			}
			if *x.n, err = strconv.Atoi(string(v)); err != nil {
				return 0, 0, err
			}
		}
		return a, b, nil
	}
	var wg, rg sync.WaitGroup
	stop := make(chan struct{})
	var views atomic.Int32
	for range readers {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				err := s.View(ctx, func(tx payments.Tx) error {
					a, b, err := read(tx)
					if err == nil && a+b != total {
						err = fmt.Errorf("a View saw a=%d b=%d", a, b)
					}
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				views.Add(1)
			}
		}()
	}
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range moves {
				err := s.Update(ctx, func(tx payments.Tx) error {
					a, b, err := read(tx)
					if err != nil {
						return err
					}
					if err := tx.Put("pair", "a", []byte(strconv.Itoa(a-1))); err != nil {
						return err
					}
					return tx.Put("pair", "b", []byte(strconv.Itoa(b+1)))
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	rg.Wait()
	assert.Positive(t, views.Load())
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		a, b, err := read(tx)
		assert.Equal(t, total-writers*moves, a, "no move lost")
		assert.Equal(t, writers*moves, b)
		return err
	}))
}
