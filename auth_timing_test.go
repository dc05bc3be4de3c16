package payments_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/require"
)

// countingStore counts the reads of View transactions.
type countingStore struct {
	payments.Store
	gets atomic.Int64
}

func (s *countingStore) View(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.View(ctx, func(tx payments.Tx) error { return fn(countingTx{tx, s}) })
}

type countingTx struct {
	payments.Tx
	s *countingStore
}

func (t countingTx) Get(table, key string) ([]byte, error) {
	t.s.gets.Add(1)
	return t.Tx.Get(table, key)
}

// TestAuthenticate_UnknownClientCostsTheSame: an unknown client id does
// the same store work as a known one with a wrong secret, so timing does
// not reveal which client ids exist.
func TestAuthenticate_UnknownClientCostsTheSame(t *testing.T) {
	store := &countingStore{Store: memstore.New()}
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true})
	require.NoError(t, err)
	defer eng.Close()
	tok, err := eng.Platform.CreateToken(context.Background(), payments.CreateTokenRequest{Name: "t", Permissions: []payments.Permission{payments.PermView}})
	require.NoError(t, err)
	cost := func(user, secret string) int64 {
		before := store.gets.Load()
		_, err := eng.Platform.Authenticate(context.Background(), user, secret)
		require.Equal(t, payments.CodeUnauthorized, payments.CodeOf(err))
		return store.gets.Load() - before
	}
	known := cost(tok.ClientID, "wrong-secret-000000")
	require.EqualValues(t, 2, known, "the client id, then its token record")
	require.Equal(t, known, cost("unknown-client-id", "wrong-secret-000000"))
	require.Equal(t, cost(tok.ID, "wrong-secret-000000"), cost("Token:unknown", "wrong-secret-000000"))
}
