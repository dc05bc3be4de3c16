package payments_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/storetest"
)

// BenchmarkQuoteCreateExecute measures creating and executing a quote (one
// internal account to another, settled at once) on memstore and boltstore
// at 1 and 64 callers, with raw bbolt's group-commit transfer measured in
// the same run for the boltstore cases (x-raw). The 64-caller case reports
// x-1caller, its throughput over the 1-caller case of the same store in the
// same run (the mean of its -count runs; target on boltstore: >= 10).
//
// Every case also reports cpu-ns/op, the process's CPU time per payment
// (the engine's workers included), where the platform can read it. The
// boltstore 64-caller case then reports ceiling-x: boltstore's 1-caller
// time over memstore's 64-caller CPU per payment spread over every
// processor (GOMAXPROCS). It is the most x-1caller any store could reach on
// this machine if it cost nothing beyond memstore's in-memory maps and kept
// every processor busy with payments.
func BenchmarkQuoteCreateExecute(b *testing.B) {
	var memCPU mean // memstore's CPU per payment at 64 callers
	for _, storeName := range []string{"memstore", "boltstore"} {
		var oneCaller mean
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
				e := &enginetest.Env{Eng: eng}
				from, to := e.USDAccount(b, "Ann Payer"), e.USDAccount(b, "Bo Payee")
				if _, err := eng.Sandbox.Fund(ctx, from, payments.MaxSandboxFunding); err != nil {
					b.Fatal(err)
				}
				cpu0, cpuOK := storetest.CPUTime()
				rate := storetest.Parallel(b, callers, func() error {
					_, err := eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1, true))
					return err
				})
				cpu1, _ := storetest.CPUTime()
				b.ReportMetric(rate, "quotes/s")
				b.ReportMetric(1e9/rate, "ns/op")
				if cpuOK {
					cpuPerOp := float64(cpu1-cpu0) / float64(b.N)
					b.ReportMetric(cpuPerOp, "cpu-ns/op")
					if storeName == "memstore" && callers == 64 {
						memCPU.add(b, cpuPerOp)
					}
					if storeName == "boltstore" && callers == 64 && memCPU.get() > 0 && oneCaller.get() > 0 {
						b.ReportMetric(1e9/oneCaller.get()/(memCPU.get()/float64(runtime.GOMAXPROCS(0))), "ceiling-x")
					}
				}
				if callers == 1 {
					oneCaller.add(b, rate)
				} else if oneCaller.get() > 0 {
					b.ReportMetric(rate/oneCaller.get(), "x-1caller")
				}
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
// with none of that status (the customer's entries read, the status index
// probed for each: the page stops at its bound of 100×limit entries
// examined), and the whole HTTP exchange of
// GET /transactions?limit=20 (http: httpapi over an httptest server, one
// client). Each 200k case reports x-1k, its ns/op over the same case at 1k
// in the same run (the mean of its -count runs; target <= 2).
func BenchmarkListTransactions(b *testing.B) {
	sparse := func(i int) payments.TransactionStatus {
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
		at1k := map[string]*mean{}
		for _, size := range []int{1000, 200000} {
			b.Run(fmt.Sprintf("%s/n=%dk", storeName, size/1000), func(b *testing.B) {
				store := benchStore(b, storeName)
				eng, err := payments.New(payments.Config{Store: store})
				if err != nil {
					b.Fatal(err)
				}
				defer eng.Close()
				if err := enginetest.SeedTransactions(ctx, eng, size, 5000, func(i int) payments.Transaction { return enginetest.SeedTx(i, 20, sparse) }); err != nil {
					b.Fatal(err)
				}
				tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "bench", Permissions: []payments.Permission{payments.PermView}})
				if err != nil {
					b.Fatal(err)
				}
				srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: "/v1"}))
				defer srv.Close()
				client := &http.Client{}
				defer client.CloseIdleConnections()
				getPage := func() (int, error) {
					req, _ := http.NewRequest("GET", srv.URL+"/v1/transactions?limit=20", nil)
					id, secret, _ := strings.Cut(tok.Credential(), ":")
					req.SetBasicAuth(id, secret)
					res, err := client.Do(req)
					if err != nil {
						return 0, err
					}
					defer res.Body.Close()
					var page struct{ Data []json.RawMessage }
					if err := json.NewDecoder(res.Body).Decode(&page); err != nil || res.StatusCode != 200 {
						return 0, fmt.Errorf("status %d: %v", res.StatusCode, err)
					}
					return len(page.Data), nil
				}
				b.Run("http", func(b *testing.B) {
					for b.Loop() {
						if n, err := getPage(); err != nil || n != 20 {
							b.Fatalf("%d items, %v", n, err)
						}
					}
					ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
					if size == 1000 {
						at1k["http"] = at1k["http"].add(b, ns)
					} else if at1k["http"].get() > 0 {
						b.ReportMetric(ns/at1k["http"].get(), "x-1k")
					}
				})
				for _, c := range cases {
					b.Run(c.name, func(b *testing.B) {
						p := payments.ListParams{Limit: 20, Desc: true}
						for b.Loop() {
							page, err := eng.Transactions.List(ctx, c.f, p)
							if err != nil || (len(page.Data) == 0 && c.name != "customer+sparse-status") {
								b.Fatalf("%d items, %v", len(page.Data), err)
							}
						}
						ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
						if size == 1000 {
							at1k[c.name] = at1k[c.name].add(b, ns)
						} else if at1k[c.name].get() > 0 {
							b.ReportMetric(ns/at1k[c.name].get(), "x-1k")
						}
					})
				}
			})
		}
	}
}

// mean is the mean of one case's figures over the runs of -count, the
// baseline of a ratio: a later case is compared with all of them, not only
// the last. A run with b.N == 1 (the probe before the measured run) counts
// only when there is no other.
type mean struct {
	sum, probe float64
	n          int
}

// add records v measured by b and returns m (a new mean when m is nil).
func (m *mean) add(b *testing.B, v float64) *mean {
	if m == nil {
		m = &mean{}
	}
	if b.N == 1 {
		m.probe = v
	} else {
		m.sum += v
		m.n++
	}
	return m
}

// get returns the mean (0 when nothing was recorded).
func (m *mean) get() float64 {
	if m == nil {
		return 0
	}
	if m.n == 0 {
		return m.probe
	}
	return m.sum / float64(m.n)
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
