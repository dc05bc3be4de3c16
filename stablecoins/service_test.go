package stablecoins_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/stablecoins"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// issuer links a provider account, registers ACME and mints 100 dollars'
// worth into its reserve; it returns the stablecoin and a USD payout
// account.
func issuer(t testing.TB, e *enginetest.Env) (coin, bank string) {
	t.Helper()
	s := e.Eng.Stablecoins
	_, err := s.LinkProviderAccount(ctx, stablecoins.LinkRequest{Provider: "BRALE", APIClientID: "c", APIClientSecret: "sandbox-secret"})
	require.NoError(t, err)
	c, err := s.Register(ctx, stablecoins.RegisterRequest{ProviderTokenIdentifier: "ACME", NetworkTokenIdentifier: "btkn1acme", Network: "SPARK"})
	require.NoError(t, err)
	info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "123456789", "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "BUSINESS", "legalName": "Issuer Inc"}})
	b, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{Currency: "USD", AccountInfo: info}, payments.PlatformScope)
	require.NoError(t, err)
	op, err := s.Mint(ctx, c.ID, stablecoins.MintRequest{Amount: "100000000", FundingSource: stablecoins.Source{Type: "ACH_DEBIT", ExternalAccountID: b.ID},
		Destination: stablecoins.Destination{AccountID: sparkWallet(t, e)}})
	require.NoError(t, err)
	for range 3 {
		e.Clock.Advance(10 * time.Minute)
		_, err = e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
	}
	got, err := s.Operation(ctx, op.ID)
	require.NoError(t, err)
	require.Equal(t, stablecoins.OpCompleted, got.Status)
	return c.ID, b.ID
}

func sparkWallet(t testing.TB, e *enginetest.Env) string {
	t.Helper()
	k, err := secp256k1.GeneratePrivateKey()
	require.NoError(t, err)
	data, err := bech32.ConvertBits(append([]byte{0x0a, 33}, k.PubKey().SerializeCompressed()...), 8, 5, true)
	require.NoError(t, err)
	addr, err := bech32.EncodeM("spark", data)
	require.NoError(t, err)
	info, _ := json.Marshal(map[string]any{"accountType": "SPARK_WALLET", "address": addr})
	w, err := e.Eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{Currency: "BTC", AccountInfo: info}, payments.PlatformScope)
	require.NoError(t, err)
	return w.ID
}

// TestStablecoins_ConcurrentBurns: burns racing for one reserve never take
// it below zero, on every store (the retrying one runs every transaction function twice).
func TestStablecoins_ConcurrentBurns(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.NewEnv(t, store, func(c *payments.Config) { c.Stablecoins, c.Rail = sandbox.Stablecoins{}, sandbox.Rail{} })
			coin, bank := issuer(t, e)
			codes := enginetest.Concurrently(8, func() error {
				_, err := e.Eng.Stablecoins.Burn(ctx, coin, stablecoins.BurnRequest{Amount: "40000000", Source: stablecoins.Source{Type: "PROVIDER_INTERNAL_BALANCE"},
					Destination: stablecoins.BurnDestination{Type: "EXTERNAL_ACCOUNT", ExternalAccountID: bank, Rail: "WIRE"}})
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 2, payments.CodeInsufficientFunds: 6}, codes, "100 dollars cover two 40-dollar burns")
			avail, held, err := e.Eng.Stablecoins.Reserve(ctx, coin)
			require.NoError(t, err)
			assert.EqualValues(t, 2_000, avail)
			assert.EqualValues(t, 8_000, held)
			require.NoError(t, payments.CheckLedger(ctx, e.Store))
		})
	}
}

// Example_stablecoins links a provider account, registers a token and
// shows why a mint amount must be whole cents.
func Example_stablecoins() {
	eng, _, err := sandbox.New()
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	s := eng.Stablecoins
	link, _ := s.LinkProviderAccount(ctx, stablecoins.LinkRequest{Provider: "BRALE", APIClientID: "issuer", APIClientSecret: "sandbox-secret"})
	coin, _ := s.Register(ctx, stablecoins.RegisterRequest{ProviderTokenIdentifier: "ACME", NetworkTokenIdentifier: "btkn1acme", Network: "SPARK"})
	fmt.Println(link.Status, coin.Symbol, coin.Decimals, coin.ServiceOperationsStatus)
	_, err = s.Mint(ctx, coin.ID, stablecoins.MintRequest{Amount: "1234567", FundingSource: stablecoins.Source{Type: "WIRE"},
		Destination: stablecoins.Destination{AccountID: "ExternalAccount:x"}})
	fmt.Println(payments.CodeOf(err))
	// Output:
	// ACTIVE ACME 6 NOT_ENABLED
	// STABLECOIN_AMOUNT_NOT_REPRESENTABLE
}
