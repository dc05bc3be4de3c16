package payments_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/walletauth"
)

// Outside the sandbox, wallet OTP codes are random and delivered through
// the CodeSender after commit, and the legacy literals are refused.
func TestWallet_ProductionOTPAndLiterals(t *testing.T) {
	box := &codeBox{}
	e := newEnv(t, func(c *payments.Config) { c.Codes, c.Sandbox = box, false })
	w := e.wallet(t, func(in *payments.CustomerInput) { in.Email = "jane@example.com" })
	assert.Equal(t, payments.EmbeddedWallet, w.Type)
	creds, err := e.eng.Wallets.Credentials(ctx, w.ID)
	require.NoError(t, err)
	require.Len(t, creds, 1)

	_, err = e.eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{EmbeddedWalletConfig: []byte(`{"otpLength":8,"alphanumeric":true}`)})
	require.NoError(t, err)
	ch, err := e.eng.Wallets.Challenge(ctx, creds[0].ID, payments.ChallengeRequest{})
	require.NoError(t, err)
	sent := box.messages()
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
		_, _, err = e.eng.Wallets.Verify(ctx, creds[0].ID, seal(payments.SandboxOTPCode), payments.Signature{})
		requireCode(t, err, payments.CodeUnauthorized)
	}
	req := seal(sent[0].Code)
	_, sc, err := e.eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{})
	require.NoError(t, err)
	require.NotNil(t, sc)
	_, _, err = e.eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{Stamp: payments.LegacyWalletSignature, RequestID: sc.RequestID})
	requireCode(t, err, payments.CodeWalletSignatureMalformed)
	stamp, err := walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
	require.NoError(t, err)
	s, _, err := e.eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
	require.NoError(t, err)
	assert.Equal(t, w.ID, s.AccountID)
	sessions, err := e.eng.Wallets.Sessions(ctx, w.ID)
	require.NoError(t, err)
	require.Len(t, sessions, 1)
	e.clock.Advance(payments.WalletSessionTTL)
	sessions, err = e.eng.Wallets.Sessions(ctx, w.ID)
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
			e := newEnv(t, func(c *payments.Config) { c.Sandbox, c.OIDCKeys = tc.sandbox, tc.keys })
			w := e.wallet(t, func(in *payments.CustomerInput) { in.PhoneNumber = "+14155550123" })
			now := e.clock.Now()
			claims := jwt.MapClaims{"iss": "https://accounts.google.com", "aud": "app", "sub": "u-1", "iat": now.Unix(), "exp": now.Unix() + 600}
			tok, _ := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(key)
			if !tc.signed {
				tok = tok[:strings.LastIndex(tok, ".")] + ".sandbox-signature"
			}
			m, _, err := e.eng.Wallets.CreateCredential(ctx, payments.CreateCredentialRequest{Type: payments.CredentialOAuth, AccountID: w.ID, OidcToken: tok}, payments.Signature{})
			if tc.want != "" {
				requireCode(t, err, tc.want)
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
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, store)
			w := e.wallet(t, func(in *payments.CustomerInput) { in.Email = "jane@example.com" })
			creds, err := e.eng.Wallets.Credentials(ctx, w.ID)
			require.NoError(t, err)
			cred := creds[0].ID
			tek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			require.NoError(t, err)
			pub, _ := walletauth.CompressedKey(&tek.PublicKey)
			attempt := func(code string) payments.VerifyRequest {
				ch, err := e.eng.Wallets.Challenge(ctx, cred, payments.ChallengeRequest{})
				require.NoError(t, err)
				b, err := walletauth.SealOTP(ch.OtpEncryptionTargetBundle, walletauth.OTPAttempt{Code: code, PublicKey: pub})
				require.NoError(t, err)
				return payments.VerifyRequest{Type: payments.CredentialEmailOTP, EncryptedOtpBundle: b}
			}

			req := attempt(payments.SandboxOTPCode)
			_, sc, err := e.eng.Wallets.Verify(ctx, cred, req, payments.Signature{})
			require.NoError(t, err)
			stamp, err := walletauth.SignStamp(tek, []byte(sc.PayloadToSign))
			require.NoError(t, err)
			codes := concurrently(16, func() error {
				_, _, err := e.eng.Wallets.Verify(ctx, cred, req, payments.Signature{Stamp: stamp, RequestID: sc.RequestID})
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 1, payments.CodeUnauthorized: 15}, codes)
			sessions, err := e.eng.Wallets.Sessions(ctx, w.ID)
			require.NoError(t, err)
			assert.Len(t, sessions, 1)

			wrong := attempt("999999")
			codes = concurrently(16, func() error {
				_, _, err := e.eng.Wallets.Verify(ctx, cred, wrong, payments.Signature{})
				return err
			})
			assert.Equal(t, payments.WalletOTPAttempts-1, codes[payments.CodeUnauthorized], "%v", codes)
			assert.Equal(t, 16-(payments.WalletOTPAttempts-1), codes[payments.CodeRateLimited], "%v", codes)
		})
	}
}

// wallet creates "Jane Doe" (adjusted by mutate) and provisions her USD
// embedded wallet.
func (e *env) wallet(t *testing.T, mutate func(*payments.CustomerInput)) *payments.InternalAccountView {
	t.Helper()
	in := fullIndividual("Jane Doe")
	mutate(&in)
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	w, err := e.eng.Wallets.Provision(ctx, c.ID, "USD")
	require.NoError(t, err)
	return w
}

// TestWallet_GlobalAccount: on a platform whose currencies include USDB,
// a customer gets its USDB as the Global Account (an EMBEDDED_WALLET with
// its EMAIL_OTP credential and Spark funding instructions) next to its
// other internal accounts, and no INTERNAL_CRYPTO USDB account; the
// sandbox quotes USDB at par with USD.
func TestWallet_GlobalAccount(t *testing.T) {
	e := moneyEnv(t, func(c *payments.Config) { c.Platform.Currencies = []string{"USD", "USDB"} })
	rates, err := e.eng.Quotes.ExchangeRates(ctx, payments.RateQuery{Source: "USDB", Destinations: []string{"USD"}, SendingAmount: 2_500_000})
	require.NoError(t, err)
	require.Len(t, rates, 1)
	assert.EqualValues(t, 250, rates[0].ReceivingAmount, "2.5 USDB is 250 cents")

	in := fullIndividual("Jane Doe")
	in.Email = "jane@example.com"
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	types := map[string]payments.AccountType{}
	for _, a := range page.Data {
		types[a.Currency] = a.Type
	}
	assert.Equal(t, map[string]payments.AccountType{"USD": payments.InternalFiat, "USDB": payments.EmbeddedWallet}, types)
	w, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID, Type: payments.EmbeddedWallet}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, w.Data, 1)
	assert.Equal(t, "USDB", w.Data[0].Currency)
	info := w.Data[0].FundingPaymentInstructions[0].AccountOrWalletInfo
	assert.Equal(t, "SPARK_WALLET", info["accountType"])
	assert.Equal(t, "USDB", info["assetType"])
	creds, err := e.eng.Wallets.Credentials(ctx, w.Data[0].ID)
	require.NoError(t, err)
	require.Len(t, creds, 1)
	assert.Equal(t, payments.CredentialEmailOTP, creds[0].Type)
	assert.Equal(t, "jane@example.com", creds[0].Nickname)
}
