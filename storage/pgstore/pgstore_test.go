package pgstore_test

import (
	"context"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/paygrid/payments/storage/storetest"
	"github.com/stretchr/testify/require"
)

// harness opens each store on its own schema; Reopen opens the same schema
// again.
func harness() storetest.Harness {
	var mu sync.Mutex
	schemas := map[payments.Store]string{}
	open := func(t testing.TB, schema string) payments.Store {
		s, err := pgstore.Open(context.Background(), pgtest.DSN(t), &pgstore.Options{Schema: schema})
		require.NoError(t, err)
		mu.Lock()
		schemas[s] = schema
		mu.Unlock()
		return s
	}
	return storetest.Harness{
		New: func(t testing.TB) payments.Store { return open(t, pgtest.Schema(t)) },
		Reopen: func(t testing.TB, s payments.Store) payments.Store {
			mu.Lock()
			schema := schemas[s]
			mu.Unlock()
			require.NoError(t, s.Close())
			return open(t, schema)
		},
	}
}

func TestStore(t *testing.T) {
	pgtest.DSN(t)
	storetest.Run(t, harness())
}

func BenchmarkStore(b *testing.B) {
	pgtest.DSN(b)
	storetest.Benchmark(b, harness(), false)
}
