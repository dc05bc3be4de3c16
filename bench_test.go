package payments_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/storetest"
)

// BenchmarkQuoteCreateExecute measures creating and executing a quote (one
// internal account to another, settled at once) on memstore and boltstore
// at 1 and 64 callers, with raw bbolt's group-commit transfer measured in
// the same run for the boltstore cases (x-raw).
func BenchmarkQuoteCreateExecute(b *testing.B) {
	for _, storeName := range []string{"memstore", "boltstore"} {
		for _, callers := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/callers=%d", storeName, callers), func(b *testing.B) {
				var raw float64
				if storeName == "boltstore" {
					raw = storetest.RawBolt(b, callers)
				}
				store := benchStore(b, storeName)
				eng, err := payments.New(payments.Config{Store: store, Sandbox: true, KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{}})
				if err != nil {
					b.Fatal(err)
				}
				defer eng.Close()
				e := &env{eng: eng}
				from, to := e.usdAccount(b, "Ann Payer"), e.usdAccount(b, "Bo Payee")
				if _, err := eng.FundInternalAccount(ctx, from, payments.MaxSandboxFunding); err != nil {
					b.Fatal(err)
				}
				rate := storetest.Parallel(b, callers, func() error {
					_, err := eng.CreateQuote(ctx, transfer(from, to, 1, true))
					return err
				})
				b.ReportMetric(rate, "quotes/s")
				if raw > 0 {
					b.ReportMetric(raw, "raw-ops/s")
					b.ReportMetric(rate/raw, "x-raw")
				}
			})
		}
	}
}

// BenchmarkListTransactions measures a page of GET /transactions?limit=20
// (the engine call the handler makes: newest first) at 1k and 200k
// transactions on memstore and boltstore, unfiltered, by customer (20
// customers), by a sparse status (1 in 1000, its own index) and by a customer
// with none of that status (a post-filter: the page stops at its bound of
// 100×limit entries examined). Each 200k case
// reports x-1k, its ns/op over the same case at 1k (target <= 2).
func BenchmarkListTransactions(b *testing.B) {
	sparse := func(i int) string {
		if i%1000 == 999 {
			return payments.TxFailed
		}
		return payments.TxCompleted
	}
	cases := []struct {
		name string
		f    payments.TransactionFilter
	}{
		{"all", payments.TransactionFilter{}},
		{"customer", payments.TransactionFilter{CustomerID: "Customer:c7"}},
		{"sparse-status", payments.TransactionFilter{Status: payments.TxFailed}},
		{"customer+sparse-status", payments.TransactionFilter{CustomerID: "Customer:c7", Status: payments.TxFailed}},
	}
	for _, storeName := range []string{"memstore", "boltstore"} {
		at1k := map[string]float64{}
		for _, size := range []int{1000, 200000} {
			b.Run(fmt.Sprintf("%s/n=%dk", storeName, size/1000), func(b *testing.B) {
				store := benchStore(b, storeName)
				eng, err := payments.New(payments.Config{Store: store})
				if err != nil {
					b.Fatal(err)
				}
				defer eng.Close()
				if err := eng.SeedTransactions(ctx, size, 5000, func(i int) payments.Transaction { return seedTx(i, 20, sparse) }); err != nil {
					b.Fatal(err)
				}
				for _, c := range cases {
					b.Run(c.name, func(b *testing.B) {
						p := payments.ListParams{Limit: 20, Desc: true}
						for b.Loop() {
							page, err := eng.ListTransactions(ctx, c.f, p)
							if err != nil || (len(page.Data) == 0 && c.name != "customer+sparse-status") {
								b.Fatalf("%d items, %v", len(page.Data), err)
							}
						}
						ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
						if size == 1000 {
							at1k[c.name] = ns
						} else if at1k[c.name] > 0 {
							b.ReportMetric(ns/at1k[c.name], "x-1k")
						}
					})
				}
			})
		}
	}
}

// benchStore opens the named store ("memstore" or "boltstore") for one
// benchmark; it is closed when the benchmark ends.
func benchStore(b *testing.B, name string) payments.Store {
	b.Helper()
	var store payments.Store = memstore.New()
	if name == "boltstore" {
		s, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		store = s
	}
	b.Cleanup(func() { _ = store.Close() })
	return store
}
