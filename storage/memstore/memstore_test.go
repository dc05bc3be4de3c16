package memstore_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/storetest"
)

func harness() storetest.Harness {
	return storetest.Harness{New: func(testing.TB) payments.Store { return memstore.New() }}
}

func TestStore(t *testing.T) { storetest.Run(t, harness()) }

func BenchmarkStore(b *testing.B) { storetest.Benchmark(b, harness(), false) }
