package wallets_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/walletauth"
	"github.com/paygrid/payments/walletauth/passkeytest"
)

// Outside the sandbox, wallet OTP codes are random and delivered through
// the CodeSender after commit, and the legacy literals are refused.
func TestWallet_ProductionOTPAndLiterals(t *testing.T) {
	box := &enginetest.CodeBox{}
	e := enginetest.NewEnv(t, func(c *payments.Config) { c.Codes, c.Sandbox = box, false })
	w := wallet(t, e, func(in *payments.CustomerInput) { in.Email = "jane@example.com" })
	assert.Equal(t, payments.EmbeddedWallet, w.Type)
	creds, err := e.Eng.Wallets.Credentials(ctx, w.ID)
	require.NoError(t, err)
	require.Len(t, creds, 1)

	_, err = e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{EmbeddedWalletConfig: []byte(`{"otpLength":8,"alphanumeric":true}`)})
	require.NoError(t, err)
	ch, err := e.Eng.Wallets.Challenge(ctx, creds[0].ID, payments.ChallengeRequest{})
	require.NoError(t, err)
	sent := box.Messages()
	require.Len(t, sent, 1)
	assert.Len(t, sent[0].Code, 8, "the platform's otpLength")
	assert.Equal(t, "jane@example.com", sent[0].To)
	assert.Equal(t, payments.ChannelEmail, sent[0].Channel)

	tek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	pub, _ := walletauth.CompressedKey(&tek.PublicKey)
	seal := func(code string) payments.VerifyRequest {
		b, err := walletauth.SealOTP(ch.OtpEncryptionTargetBundle, walletauth.OTPAttempt{Code: code, PublicKey: pub})
		require.NoError(t, err)
		return payments.VerifyRequest{Type: payments.CredentialEmailOTP, EncryptedOtpBundle: b}
	}
	if sent[0].Code != payments.SandboxOTPCode {
		_, _, err = e.Eng.Wallets.Verify(ctx, creds[0].ID, seal(payments.SandboxOTPCode), payments.Signature{})
		enginetest.RequireCode(t, err, payments.CodeUnauthorized)
	}
	req := seal(sent[0].Code)
	_, sc, err := e.Eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{})
	require.NoError(t, err)
	require.NotNil(t, sc)
	_, _, err = e.Eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{Stamp: payments.LegacyWalletSignature, RequestID: sc.RequestID})
	enginetest.RequireCode(t, err, payments.CodeWalletSignatureMalformed)
	stamp, err := walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
	require.NoError(t, err)
	s, _, err := e.Eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
	require.NoError(t, err)
	assert.Equal(t, w.ID, s.AccountID)
	sessions, err := e.Eng.Wallets.Sessions(ctx, w.ID)
	require.NoError(t, err)
	require.Len(t, sessions, 1)
	e.Clock.Advance(payments.WalletSessionTTL)
	sessions, err = e.Eng.Wallets.Sessions(ctx, w.ID)
	require.NoError(t, err)
	assert.Empty(t, sessions, "sessions expire")
}

// OAuth outside the sandbox needs the issuers' keys; with them the token's
// signature is verified.
func TestWallet_OAuthSignatures(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	keys := func(iss, kid string) (crypto.PublicKey, error) { return &key.PublicKey, nil }
	for _, tc := range []struct {
		name    string
		sandbox bool
		keys    walletauth.OIDCKeys
		signed  bool
		want    payments.Code
	}{
		{"production without keys", false, nil, true, payments.CodeUnauthorized},
		{"production, dummy signature", false, keys, false, payments.CodeUnauthorized},
		{"production, signed", false, keys, true, ""},
		{"sandbox, dummy signature", true, nil, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := enginetest.NewEnv(t, func(c *payments.Config) { c.Sandbox, c.OIDCKeys = tc.sandbox, tc.keys })
			w := wallet(t, e, func(in *payments.CustomerInput) { in.PhoneNumber = "+14155550123" })
			now := e.Clock.Now()
			claims := jwt.MapClaims{"iss": "https://accounts.google.com", "aud": "app", "sub": "u-1", "iat": now.Unix(), "exp": now.Unix() + 600}
			tok, _ := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(key)
			if !tc.signed {
				tok = tok[:strings.LastIndex(tok, ".")] + ".sandbox-signature"
			}
			m, _, err := e.Eng.Wallets.CreateCredential(ctx, payments.CreateCredentialRequest{Type: payments.CredentialOAuth, AccountID: w.ID, OidcToken: tok}, payments.Signature{})
			if tc.want != "" {
				enginetest.RequireCode(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "u-1", m.Nickname)
		})
	}
}

// A signed retry is consumed once: of concurrent retries of one challenge
// exactly one opens a session; concurrent wrong codes are all counted.
func TestWallet_ConcurrentRetries(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.NewEnv(t, store)
			w := wallet(t, e, func(in *payments.CustomerInput) { in.Email = "jane@example.com" })
			creds, err := e.Eng.Wallets.Credentials(ctx, w.ID)
			require.NoError(t, err)
			cred := creds[0].ID
			tek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			require.NoError(t, err)
			pub, _ := walletauth.CompressedKey(&tek.PublicKey)
			attempt := func(code string) payments.VerifyRequest {
				ch, err := e.Eng.Wallets.Challenge(ctx, cred, payments.ChallengeRequest{})
				require.NoError(t, err)
				b, err := walletauth.SealOTP(ch.OtpEncryptionTargetBundle, walletauth.OTPAttempt{Code: code, PublicKey: pub})
				require.NoError(t, err)
				return payments.VerifyRequest{Type: payments.CredentialEmailOTP, EncryptedOtpBundle: b}
			}

			req := attempt(payments.SandboxOTPCode)
			_, sc, err := e.Eng.Wallets.Verify(ctx, cred, req, payments.Signature{})
			require.NoError(t, err)
			stamp, err := walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
			require.NoError(t, err)
			codes := enginetest.Concurrently(16, func() error {
				_, _, err := e.Eng.Wallets.Verify(ctx, cred, req, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeUnauthorized: 15}, codes)
			sessions, err := e.Eng.Wallets.Sessions(ctx, w.ID)
			require.NoError(t, err)
			assert.Len(t, sessions, 1)

			wrong := attempt("999999")
			codes = enginetest.Concurrently(16, func() error {
				_, _, err := e.Eng.Wallets.Verify(ctx, cred, wrong, payments.Signature{})
				return err
			})
			assert.Equal(t, payments.WalletOTPAttempts-1, codes[payments.CodeUnauthorized], "%v", codes)
			assert.Equal(t, 16-(payments.WalletOTPAttempts-1), codes[payments.CodeRateLimited], "%v", codes)
		})
	}
}

// wallet creates "Jane Doe" (adjusted by mutate) and provisions her USD
// embedded wallet.
func wallet(t *testing.T, e *enginetest.Env, mutate func(*payments.CustomerInput)) *payments.InternalAccountView {
	t.Helper()
	in := enginetest.FullIndividual("Jane Doe")
	mutate(&in)
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	w, err := e.Eng.Wallets.Provision(ctx, c.ID, "USD")
	require.NoError(t, err)
	return w
}

// retryAfter is the retryAfterSeconds of a 429.
func retryAfter(t *testing.T, err error) time.Duration {
	t.Helper()
	enginetest.RequireCode(t, err, payments.CodeRateLimited)
	var pe *payments.Error
	require.ErrorAs(t, err, &pe)
	secs, ok := pe.Details["retryAfterSeconds"].(int)
	require.True(t, ok, "%v", pe.Details)
	return time.Duration(secs) * time.Second
}

// Wrong OTP codes count per credential, across challenges: of 10
// challenges answered with 4 wrong codes each, the 5th wrong code locks the
// credential (429), and the right code is refused until the window passes;
// then the login works.
func TestWallet_OTPWrongCodesLockAcrossChallenges(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.NewEnv(t, store)
			w := wallet(t, e, func(in *payments.CustomerInput) { in.Email = "jane@example.com" })
			creds, err := e.Eng.Wallets.Credentials(ctx, w.ID)
			require.NoError(t, err)
			cred := creds[0].ID
			tek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			require.NoError(t, err)
			pub, _ := walletauth.CompressedKey(&tek.PublicKey)
			seal := func(target, code string) payments.VerifyRequest {
				b, err := walletauth.SealOTP(target, walletauth.OTPAttempt{Code: code, PublicKey: pub})
				require.NoError(t, err)
				return payments.VerifyRequest{Type: payments.CredentialEmailOTP, EncryptedOtpBundle: b}
			}

			codes := map[payments.Code]int{}
			var target string
			for range 10 {
				e.Clock.Advance(payments.WalletOTPResendInterval)
				ch, err := e.Eng.Wallets.Challenge(ctx, cred, payments.ChallengeRequest{})
				if err != nil {
					codes["challenge "+payments.CodeOf(err)]++
					continue
				}
				target = ch.OtpEncryptionTargetBundle
				for range 4 {
					_, _, err := e.Eng.Wallets.Verify(ctx, cred, seal(target, "999999"), payments.Signature{})
					codes[payments.CodeOf(err)]++
				}
			}
			assert.Equal(t, map[payments.Code]int{payments.CodeUnauthorized: payments.WalletOTPAttempts - 1,
				payments.CodeRateLimited: 8 - (payments.WalletOTPAttempts - 1), "challenge RATE_LIMITED": 8}, codes)

			_, _, err = e.Eng.Wallets.Verify(ctx, cred, seal(target, payments.SandboxOTPCode), payments.Signature{})
			wait := retryAfter(t, err)
			// The first wrong code came 30 s in, the clock is at 5 min: the lock
			// lasts until that code leaves the window.
			assert.Equal(t, 30*time.Second+payments.WalletOTPLockout-5*time.Minute, wait)
			e.Clock.Advance(wait - time.Second)
			_, err = e.Eng.Wallets.Challenge(ctx, cred, payments.ChallengeRequest{})
			enginetest.RequireCode(t, err, payments.CodeRateLimited)

			e.Clock.Advance(time.Second)
			ch, err := e.Eng.Wallets.Challenge(ctx, cred, payments.ChallengeRequest{})
			require.NoError(t, err)
			req := seal(ch.OtpEncryptionTargetBundle, payments.SandboxOTPCode)
			_, sc, err := e.Eng.Wallets.Verify(ctx, cred, req, payments.Signature{})
			require.NoError(t, err)
			require.NotNil(t, sc)
			stamp, err := walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
			require.NoError(t, err)
			s, _, err := e.Eng.Wallets.Verify(ctx, cred, req, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
			require.NoError(t, err)
			assert.Equal(t, w.ID, s.AccountID)
		})
	}
}

// Wallet passkeys register from the configured relying party's origins
// (Config.WalletRelyingParty) and from no other, and the refusal names the
// origin check.
func TestWallet_PasskeyOrigins(t *testing.T) {
	const devOrigin = "http://localhost:5173"
	e := enginetest.NewEnv(t, func(c *payments.Config) {
		c.WalletRelyingParty = walletauth.RelyingParty{ID: "localhost", Origins: []string{devOrigin}}
	})
	w := wallet(t, e, func(in *payments.CustomerInput) { in.Email = "jane@example.com" })
	creds, err := e.Eng.Wallets.Credentials(ctx, w.ID)
	require.NoError(t, err)
	// A session to sign the registration with: the sandbox OTP login.
	tek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	pub, _ := walletauth.CompressedKey(&tek.PublicKey)
	ch, err := e.Eng.Wallets.Challenge(ctx, creds[0].ID, payments.ChallengeRequest{})
	require.NoError(t, err)
	bundle, err := walletauth.SealOTP(ch.OtpEncryptionTargetBundle, walletauth.OTPAttempt{Code: payments.SandboxOTPCode, PublicKey: pub})
	require.NoError(t, err)
	login := payments.VerifyRequest{Type: payments.CredentialEmailOTP, EncryptedOtpBundle: bundle}
	_, sc, err := e.Eng.Wallets.Verify(ctx, creds[0].ID, login, payments.Signature{})
	require.NoError(t, err)
	stamp, err := walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
	require.NoError(t, err)
	_, _, err = e.Eng.Wallets.Verify(ctx, creds[0].ID, login, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
	require.NoError(t, err)

	challenge := []byte("registration-challenge-0123456789")
	register := func(origin string) payments.CreateCredentialRequest {
		att := passkeytest.New("localhost").Create(challenge, origin)
		return payments.CreateCredentialRequest{Type: payments.CredentialPasskey, AccountID: w.ID, Nickname: "laptop",
			Challenge: base64.RawURLEncoding.EncodeToString(challenge), Attestation: &att}
	}

	_, _, err = e.Eng.Wallets.CreateCredential(ctx, register("http://localhost:8080"), payments.Signature{})
	enginetest.RequireCode(t, err, payments.CodeUnauthorized)
	assert.Contains(t, payments.MessageOf(err),
		"the passkey's origin http://localhost:8080 is not one of the relying party's origins ("+devOrigin+")")

	req := register(devOrigin)
	_, sc, err = e.Eng.Wallets.CreateCredential(ctx, req, payments.Signature{})
	require.NoError(t, err)
	require.NotNil(t, sc, "the registration is signed by the wallet's session")
	stamp, err = walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
	require.NoError(t, err)
	m, _, err := e.Eng.Wallets.CreateCredential(ctx, req, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
	require.NoError(t, err)
	assert.Equal(t, req.Attestation.CredentialID, m.CredentialID)
}

// TestWallet_GlobalAccount: on a platform whose currencies include USDB,
// a customer gets its USDB as the Global Account (an EMBEDDED_WALLET with
// its EMAIL_OTP credential and Spark funding instructions) next to its
// other internal accounts, and no INTERNAL_CRYPTO USDB account; the
// sandbox quotes USDB at par with USD.
func TestWallet_GlobalAccount(t *testing.T) {
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Platform.Currencies = []string{"USD", "USDB"} })
	rates, err := e.Eng.Quotes.ExchangeRates(ctx, payments.RateQuery{Source: "USDB", Destinations: []string{"USD"}, SendingAmount: 2_500_000})
	require.NoError(t, err)
	require.Len(t, rates, 1)
	assert.EqualValues(t, 250, rates[0].ReceivingAmount, "2.5 USDB is 250 cents")

	in := enginetest.FullIndividual("Jane Doe")
	in.Email = "jane@example.com"
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	types := map[string]payments.AccountType{}
	for _, a := range page.Data {
		types[a.Currency] = a.Type
	}
	assert.Equal(t, map[string]payments.AccountType{"USD": payments.InternalFiat, "USDB": payments.EmbeddedWallet}, types)
	w, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID, Type: payments.EmbeddedWallet}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, w.Data, 1)
	assert.Equal(t, "USDB", w.Data[0].Currency)
	info := w.Data[0].FundingPaymentInstructions[0].AccountOrWalletInfo
	assert.Equal(t, "SPARK_WALLET", info["accountType"])
	assert.Equal(t, "USDB", info["assetType"])
	creds, err := e.Eng.Wallets.Credentials(ctx, w.Data[0].ID)
	require.NoError(t, err)
	require.Len(t, creds, 1)
	assert.Equal(t, payments.CredentialEmailOTP, creds[0].Type)
	assert.Equal(t, "jane@example.com", creds[0].Nickname)
}
