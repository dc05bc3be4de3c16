package platform_test

import (
	"context"
	"math"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/require"
)

// TestAuthenticate_UnknownClientCostsTheSame: an unknown client id does
// the same store work as a known one with a wrong secret, so timing does
// not reveal which client ids exist.
func TestAuthenticate_UnknownClientCostsTheSame(t *testing.T) {
	store := &enginetest.Probe{Store: memstore.New()}
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true})
	require.NoError(t, err)
	defer eng.Close()
	tok, err := eng.Platform.CreateToken(context.Background(), payments.CreateTokenRequest{Name: "t", Permissions: []payments.Permission{payments.PermView}})
	require.NoError(t, err)
	// cost counts the reads of one failed authentication: the least of
	// three tries, as the engine's background workers read the store too
	// (only ever adding to a count).
	cost := func(user, secret string) int64 {
		least := int64(math.MaxInt64)
		for range 3 {
			before := store.ViewGets.Load()
			_, err := eng.Platform.Authenticate(context.Background(), user, secret)
			require.Equal(t, payments.CodeUnauthorized, payments.CodeOf(err))
			least = min(least, store.ViewGets.Load()-before)
		}
		return least
	}
	known := cost(tok.ClientID, "wrong-secret-000000")
	require.EqualValues(t, 2, known, "the client id, then its token record")
	require.Equal(t, known, cost("unknown-client-id", "wrong-secret-000000"))
	require.Equal(t, cost(tok.ID, "wrong-secret-000000"), cost("Token:unknown", "wrong-secret-000000"))
}
