package storetest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/accounts"
	bolt "go.etcd.io/bbolt"
)

// Benchmark measures a two-account transfer-like write (a balanced 1-unit
// ledger transfer between two funded accounts plus one small record, in one
// Update) at 1 and 64 concurrent callers, reporting ops/s. With
// compareRawBolt it runs the same workload on raw bbolt in the same
// sub-benchmark (db.Update for one caller, db.Batch, bbolt's own group
// commit, for 64) and reports raw-ops/s and the ratio x-raw; the 64-caller
// run also reports x-1caller, its speed-up over one caller.
func Benchmark(b *testing.B, h Harness, compareRawBolt bool) {
	var oneCaller float64
	for _, callers := range []int{1, 64} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			var raw float64
			if compareRawBolt {
				raw = RawBolt(b, callers)
			}
			s := h.New(b)
			defer s.Close()
			fund(b, s, "E:fund-a", "bench:a", 1<<40)
			fund(b, s, "E:fund-b", "bench:b", 1<<40)
			var seq atomic.Int64
			rate := Parallel(b, callers, func() error {
				n := seq.Add(1)
				return s.Update(ctx, func(tx payments.Tx) error { return transferOp(tx, n) })
			})
			b.ReportMetric(rate, "ops/s")
			if compareRawBolt {
				b.ReportMetric(raw, "raw-ops/s")
				b.ReportMetric(rate/raw, "x-raw")
			}
			if callers == 1 {
				oneCaller = rate
			} else if oneCaller > 0 {
				b.ReportMetric(rate/oneCaller, "x-1caller")
			}
		})
	}
}

// transferOp is the benchmarked write.
func transferOp(tx payments.Tx, n int64) error {
	from, to := "bench:a", "bench:b"
	if n%2 == 0 {
		from, to = to, from
	}
	id := fmt.Sprintf("E:%012d", n)
	if err := payments.Post(tx, payments.LedgerEntry{ID: id, Postings: accounts.Transfer(from, to, "USD", 1)}); err != nil {
		return err
	}
	return tx.Put("bench_records", id, []byte(`{"status":"COMPLETED"}`))
}

// Parallel runs b.N calls of op spread over callers goroutines and returns
// the achieved operations per second. Other benchmarks of the module use it
// for the same measurement.
func Parallel(b *testing.B, callers int, op func() error) float64 {
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if err := op(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	return float64(b.N) / elapsed.Seconds()
}

// RawBolt runs the same workload on a bare bbolt file (db.Update for one
// caller, db.Batch for more) and returns its operations per second: read two balances,
// write them back changed, append the journal entry and the record.
func RawBolt(b *testing.B, callers int) float64 {
	db, err := bolt.Open(filepath.Join(b.TempDir(), "raw.db"), 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var seq atomic.Int64
	op := func(tx *bolt.Tx) error {
		n := seq.Add(1)
		bal, err := tx.CreateBucketIfNotExists([]byte(tableLedgerBalances))
		if err != nil {
			return err
		}
		for _, k := range []string{"bench:a|USD", "bench:b|USD"} {
			v, _ := strconv.ParseInt(string(bal.Get([]byte(k))), 10, 64)
			if err := bal.Put([]byte(k), strconv.AppendInt(nil, v+1, 10)); err != nil {
				return err
			}
		}
		id := fmt.Sprintf("E:%012d", n)
		entry, _ := json.Marshal(payments.LedgerEntry{ID: id, Postings: accounts.Transfer("bench:a", "bench:b", "USD", 1)})
		for _, kv := range [][3]string{{tableLedgerEntries, id, string(entry)}, {"bench_records", id, `{"status":"COMPLETED"}`}} {
			bk, err := tx.CreateBucketIfNotExists([]byte(kv[0]))
			if err != nil {
				return err
			}
			if err := bk.Put([]byte(kv[1]), []byte(kv[2])); err != nil {
				return err
			}
		}
		return nil
	}
	if callers == 1 {
		return Parallel(b, 1, func() error { return db.Update(op) })
	}
	return Parallel(b, callers, func() error { return db.Batch(op) })
}
