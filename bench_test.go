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
				var store payments.Store = memstore.New()
				if storeName == "boltstore" {
					s, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
					if err != nil {
						b.Fatal(err)
					}
					store = s
				}
				defer store.Close()
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
