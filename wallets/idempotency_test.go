package wallets_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/storetest"
	"github.com/paygrid/payments/walletauth"
)

// keyed returns e's handle for one request with idempotency key k in
// scope.
func keyed(t *testing.T, e *enginetest.Env, scope, k string) *payments.Engine {
	t.Helper()
	h, err := e.Eng.WithIdempotency(payments.Idempotency{Scope: scope, Key: k})
	require.NoError(t, err)
	return h
}

// An idempotent retry never provisions anything twice: a retried
// Provision answers the wallet the first call opened.
func TestWallet_IdempotentProvision(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.NewEnv(t, store)
			in := enginetest.FullIndividual("Jane Doe")
			in.Email = "jane@example.com"
			c, err := e.Eng.Customers.Create(ctx, in)
			require.NoError(t, err)
			wallets := func() int {
				page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID, Type: payments.EmbeddedWallet},
					payments.CustomerScope, payments.ListParams{})
				require.NoError(t, err)
				return len(page.Data)
			}
			require.Zero(t, wallets())

			h := keyed(t, e, "", "open-wallet")
			first, err := h.Wallets.Provision(ctx, c.ID, "USD")
			require.NoError(t, err)
			assert.False(t, h.Replayed())
			h = keyed(t, e, "", "open-wallet")
			again, err := h.Wallets.Provision(ctx, c.ID, "USD")
			require.NoError(t, err)
			assert.True(t, h.Replayed())
			a, _ := json.Marshal(first)
			b, _ := json.Marshal(again)
			assert.JSONEq(t, string(a), string(b))
			assert.Equal(t, 1, wallets(), "one wallet")
			creds, err := e.Eng.Wallets.Credentials(ctx, first.ID)
			require.NoError(t, err)
			assert.Len(t, creds, 1)

			_, err = keyed(t, e, "", "open-wallet").Wallets.Provision(ctx, c.ID, "EUR")
			enginetest.RequireCode(t, err, payments.CodeConflict)
			_, err = e.Eng.Wallets.Provision(ctx, c.ID, "USD")
			require.NoError(t, err)
			assert.Equal(t, 2, wallets(), "without a key each call opens one")
		})
	}
}

// Through the engine API each leg of a signed flow is its own request: a
// key reused on the challenge's scope is CONFLICT, and on a scope of its
// own the signed leg runs once and replays its answer, sealed secrets
// included (sealed before the transaction, recorded in it).
func TestWallet_IdempotentSignedLegs(t *testing.T) {
	e := enginetest.NewEnv(t, func(c *payments.Config) { c.Store = storetest.Twice(c.Store) })
	w := wallet(t, e, func(in *payments.CustomerInput) { in.Email = "jane@example.com" })
	creds, err := e.Eng.Wallets.Credentials(ctx, w.ID)
	require.NoError(t, err)
	se, key := otpLogin(t, e, creds[0].ID)
	sign := func(ch *payments.SignedChallenge) payments.Signature {
		stamp, err := walletauth.SignStamp(key, []byte(ch.PayloadToSign))
		require.NoError(t, err)
		return payments.Signature{Stamp: stamp, RequestID: ch.RequestID}
	}

	// Export: the same sealed secret on a replay.
	client := newKey(t)
	req := payments.ExportRequest{ClientPublicKey: uncompressedHex(t, client)}
	_, ch, err := keyed(t, e, "export", "x").Wallets.Export(ctx, w.ID, req, payments.Signature{})
	require.NoError(t, err)
	require.NotNil(t, ch)
	h := keyed(t, e, "export", "x")
	_, ch2, err := h.Wallets.Export(ctx, w.ID, req, payments.Signature{})
	require.NoError(t, err)
	assert.True(t, h.Replayed())
	assert.Equal(t, ch.RequestID, ch2.RequestID, "the same challenge")
	_, _, err = keyed(t, e, "export", "x").Wallets.Export(ctx, w.ID, req, sign(ch))
	enginetest.RequireCode(t, err, payments.CodeConflict)
	x, _, err := keyed(t, e, "export signed", "x").Wallets.Export(ctx, w.ID, req, sign(ch))
	require.NoError(t, err)
	h = keyed(t, e, "export signed", "x")
	x2, _, err := h.Wallets.Export(ctx, w.ID, req, sign(ch))
	require.NoError(t, err)
	assert.True(t, h.Replayed())
	assert.Equal(t, x, x2)
	ek, err := client.ECDH()
	require.NoError(t, err)
	secret, err := walletauth.OpenExport(ek, x.EncryptedWalletCredentials)
	require.NoError(t, err)
	assert.Len(t, secret, 32)

	// A legacy refresh: the same session and sealed key on a replay.
	legacy := newKey(t)
	rreq := payments.RefreshRequest{ClientPublicKey: uncompressedHex(t, legacy)}
	_, ch, err = keyed(t, e, "refresh", "r").Wallets.RefreshSession(ctx, se, rreq, payments.Signature{})
	require.NoError(t, err)
	s1, _, err := keyed(t, e, "refresh signed", "r").Wallets.RefreshSession(ctx, se, rreq, sign(ch))
	require.NoError(t, err)
	require.NotEmpty(t, s1.EncryptedSessionSigningKey)
	h = keyed(t, e, "refresh signed", "r")
	s2, _, err := h.Wallets.RefreshSession(ctx, se, rreq, sign(ch))
	require.NoError(t, err)
	assert.True(t, h.Replayed())
	assert.Equal(t, s1.ID, s2.ID)
	assert.Equal(t, s1.AuthMethod.ID, s2.AuthMethod.ID)
	assert.Equal(t, creds[0].ID, s2.AuthMethod.ID)
	assert.Equal(t, s1.EncryptedSessionSigningKey, s2.EncryptedSessionSigningKey)
	lk, err := legacy.ECDH()
	require.NoError(t, err)
	scalar, err := walletauth.OpenSessionKey(lk, s2.EncryptedSessionSigningKey)
	require.NoError(t, err)
	assert.Len(t, scalar, 32)
	sessions, err := e.Eng.Wallets.Sessions(ctx, w.ID)
	require.NoError(t, err)
	assert.Len(t, sessions, 2, "the login's and one refresh")
}

// otpLogin logs in with the sandbox code on OTP credential cred and
// returns the session's id and key.
func otpLogin(t *testing.T, e *enginetest.Env, cred string) (string, *ecdsa.PrivateKey) {
	t.Helper()
	ch, err := e.Eng.Wallets.Challenge(ctx, cred, payments.ChallengeRequest{})
	require.NoError(t, err)
	tek := newKey(t)
	pub, _ := walletauth.CompressedKey(&tek.PublicKey)
	b, err := walletauth.SealOTP(ch.OtpEncryptionTargetBundle, walletauth.OTPAttempt{Code: payments.SandboxOTPCode, PublicKey: pub})
	require.NoError(t, err)
	req := payments.VerifyRequest{Type: payments.CredentialEmailOTP, EncryptedOtpBundle: b}
	_, sc, err := e.Eng.Wallets.Verify(ctx, cred, req, payments.Signature{})
	require.NoError(t, err)
	stamp, err := walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
	require.NoError(t, err)
	s, _, err := e.Eng.Wallets.Verify(ctx, cred, req, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
	require.NoError(t, err)
	return s.ID, tek
}

// newKey makes a P-256 key pair.
func newKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	return k
}

// uncompressedHex is k's public key, uncompressed hex (the legacy flow's
// client key, and an export's).
func uncompressedHex(t *testing.T, k *ecdsa.PrivateKey) string {
	b, err := k.PublicKey.Bytes()
	require.NoError(t, err)
	return hex.EncodeToString(b)
}
