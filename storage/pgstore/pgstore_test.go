package pgstore_test

import (
	"context"
	"strconv"
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

// TestContendedHint checks payments.WithContended: once a record is hot,
// Updates that name it lock it (with the other hot records they name) at
// their first read of one, instead of reading it stale and running again,
// and concurrent increments stay exact.
func TestContendedHint(t *testing.T) {
	ctx := context.Background()
	s, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: pgtest.Schema(t)})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Put("balances", "hot", []byte("0")) }))
	increment := func(tx payments.Tx) error {
		b, err := tx.Get("balances", "hot")
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(string(b))
		if err != nil {
			return err
		}
		return tx.Put("balances", "hot", []byte(strconv.Itoa(n+1)))
	}
	const workers, each = 16, 25
	retries := func(ctx context.Context) float64 {
		before := s.Stats().Retries
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for range each {
					if err := s.Update(ctx, increment); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		return float64(s.Stats().Retries-before) / (workers * each)
	}
	plain := retries(ctx) // also what makes the record hot
	hinted := retries(payments.WithContended(ctx, payments.RecordKey{Table: "balances", Key: "hot"}))
	var final []byte
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error { final, err = tx.Get("balances", "hot"); return err }))
	require.Equal(t, strconv.Itoa(2*workers*each), string(final))
	t.Logf("retries per update: %.2f unhinted, %.2f hinted", plain, hinted)
	require.Less(t, hinted, plain/2, "a hinted hot record is locked at its first read")
}
