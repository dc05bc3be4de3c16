package walletauth_test

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments/walletauth"
)

// The RFC 6979 A.2.5 P-256 key: its public point is published there, so the
// compressed encoding below is checked against an outside source.
const (
	rfcScalar     = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	rfcCompressed = "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
	// A stamp over "payload" by that key, made once and kept: the layout
	// (base64url without padding of {"publicKey","scheme","signature"} in
	// that order) and the verification must not drift.
	katStamp = "eyJwdWJsaWNLZXkiOiIwMzYwZmVkNGJhMjU1YTlkMzFjOTYxZWI3NGM2MzU2ZDY4YzA0OWI4OTIzYjYxZmE2Y2U2Njk2MjJlNjBmMjlmYjYiLCJzY2hlbWUiOiJTSUdOQVRVUkVfU0NIRU1FX1RLX0FQSV9QMjU2Iiwic2lnbmF0dXJlIjoiMzA0NTAyMjEwMGVkOGM0Y2UxOGRhMTlhNmE1ZTRmNGY5MjczZDkwNGZkZGNjZjhlZWRmNmYzNTkwODI1MjE3NjUwZTQ0NWUwNTIwMjIwN2IyOTMxZWIwNzJjM2Y5NDExN2ZjNDgyZWRlMmRhY2E4ZWI2Y2I4MmFiNDM5YjBiZGRiMGY5YTk4NGUyZTFlMiJ9"
	// An HPKE message to that key (as recipient), sealed once and kept.
	katEnc       = "04d43d8b1047a31552990052e4c4167ab484d29260621556bef62900475db03032f189b4ccc55edc75194cef9a1c4989c853c93a0665114c33111bf3716a62ab3b"
	katCT        = "43d331fa67339b3464b0d76dd023e5d13d1a44bd5afb52d2329ec19f1b8b5e7f909b3533260bc8c485c8ea605ce7c1c3244f52f71177"
	katPlaintext = `{"otp_code":"000000","public_key":"x"}`
)

func rfcKeys(t *testing.T) (*ecdsa.PrivateKey, *ecdh.PrivateKey) {
	d, _ := hex.DecodeString(rfcScalar)
	k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
	require.NoError(t, err)
	ek, err := ecdh.P256().NewPrivateKey(d)
	require.NoError(t, err)
	return k, ek
}

func TestStampKnownAnswer(t *testing.T) {
	k, _ := rfcKeys(t)
	pub, err := walletauth.CompressedKey(&k.PublicKey)
	require.NoError(t, err)
	assert.Equal(t, rfcCompressed, pub)

	raw, err := base64.RawURLEncoding.DecodeString(katStamp)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(raw), `{"publicKey":"`+rfcCompressed+`","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"30`), string(raw))
	s, err := walletauth.ParseStamp(katStamp)
	require.NoError(t, err)
	assert.Equal(t, rfcCompressed, s.PublicKey)
	require.NoError(t, s.Verify([]byte("payload")))
	assert.ErrorIs(t, s.Verify([]byte("payload ")), walletauth.ErrStampInvalid)

	// A fresh stamp by the same key parses to the same key and verifies.
	fresh, err := walletauth.SignStamp(k, []byte("another payload"))
	require.NoError(t, err)
	s, err = walletauth.ParseStamp(fresh)
	require.NoError(t, err)
	require.NoError(t, s.Verify([]byte("another payload")))
}

func TestStampMalformed(t *testing.T) {
	var sig struct {
		PublicKey, Scheme, Signature string
	}
	raw, _ := base64.RawURLEncoding.DecodeString(katStamp)
	require.NoError(t, json.Unmarshal(raw, &sig))
	enc := func(pub, scheme, s string) string {
		b, _ := json.Marshal(map[string]string{"publicKey": pub, "scheme": scheme, "signature": s})
		return base64.RawURLEncoding.EncodeToString(b)
	}
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	uncompressed, _ := k.PublicKey.Bytes()
	for name, h := range map[string]string{
		"not base64":        "!!!",
		"not json":          base64.RawURLEncoding.EncodeToString([]byte("nope")),
		"other scheme":      enc(sig.PublicKey, "SIGNATURE_SCHEME_TK_API_ED25519", sig.Signature),
		"uncompressed key":  enc(hex.EncodeToString(uncompressed), walletauth.StampScheme, sig.Signature),
		"off-curve key":     enc("02"+strings.Repeat("ff", 32), walletauth.StampScheme, sig.Signature),
		"signature not hex": enc(sig.PublicKey, walletauth.StampScheme, "zz"),
		"empty signature":   enc(sig.PublicKey, walletauth.StampScheme, ""),
	} {
		_, err := walletauth.ParseStamp(h)
		assert.ErrorIs(t, err, walletauth.ErrStampMalformed, name)
	}
}

func TestBundleKnownAnswer(t *testing.T) {
	_, ek := rfcKeys(t)
	enc, _ := hex.DecodeString(katEnc)
	ct, _ := hex.DecodeString(katCT)
	pt, err := walletauth.Open(ek, enc, ct)
	require.NoError(t, err)
	assert.Equal(t, katPlaintext, string(pt))
	// The additional data binds the recipient: another key cannot open it,
	// nor can a flipped ciphertext.
	other, _ := walletauth.NewTargetKey()
	_, err = walletauth.Open(other, enc, ct)
	assert.ErrorIs(t, err, walletauth.ErrBundle)
	ct[0] ^= 1
	_, err = walletauth.Open(ek, enc, ct)
	assert.ErrorIs(t, err, walletauth.ErrBundle)

	// The target bundle's layout: a v1.0.0 envelope whose data is the hex of
	// {"targetPublic": <uncompressed hex>}, signature fields empty.
	b := walletauth.TargetBundle(ek.PublicKey())
	var env map[string]string
	require.NoError(t, json.Unmarshal([]byte(b), &env))
	assert.Equal(t, "v1.0.0", env["version"])
	assert.Equal(t, "", env["dataSignature"])
	data, _ := hex.DecodeString(env["data"])
	assert.JSONEq(t, `{"targetPublic":"`+hex.EncodeToString(ek.PublicKey().Bytes())+`"}`, string(data))
}

func TestOTPBundleRoundTrip(t *testing.T) {
	target, _ := walletauth.NewTargetKey()
	tek, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub, _ := walletauth.CompressedKey(&tek.PublicKey)
	sealed, err := walletauth.SealOTP(walletauth.TargetBundle(target.PublicKey()), walletauth.OTPAttempt{Code: "000000", PublicKey: pub})
	require.NoError(t, err)
	got, err := walletauth.OpenOTP(target, sealed)
	require.NoError(t, err)
	assert.Equal(t, walletauth.OTPAttempt{Code: "000000", PublicKey: pub}, got)

	other, _ := walletauth.NewTargetKey()
	_, err = walletauth.OpenOTP(other, sealed)
	assert.ErrorIs(t, err, walletauth.ErrBundle)
	bad, _ := walletauth.SealOTP(walletauth.TargetBundle(target.PublicKey()), walletauth.OTPAttempt{Code: "000000", PublicKey: "04ab"})
	_, err = walletauth.OpenOTP(target, bad)
	assert.ErrorIs(t, err, walletauth.ErrBundle, "the attempt must carry a compressed key")
}

func TestExportAndSessionKeyRoundTrip(t *testing.T) {
	client, _ := walletauth.NewTargetKey()
	b, err := walletauth.SealExport(client.PublicKey().Bytes(), "org_1", []byte("secret words"))
	require.NoError(t, err)
	pt, err := walletauth.OpenExport(client, b)
	require.NoError(t, err)
	assert.Equal(t, "secret words", string(pt))

	scalar := make([]byte, 32)
	scalar[31] = 7
	s, err := walletauth.SealSessionKey(client.PublicKey().Bytes(), scalar)
	require.NoError(t, err)
	pt, err = walletauth.OpenSessionKey(client, s)
	require.NoError(t, err)
	assert.Equal(t, scalar, pt)
	last := "1"
	if strings.HasSuffix(s, last) {
		last = "2" // a different last character, whatever s ends with
	}
	_, err = walletauth.OpenSessionKey(client, s[:len(s)-1]+last)
	assert.Error(t, err)
}

// jwtOf builds an unsigned-looking JWT with a dummy signature segment.
func jwtOf(claims map[string]any) string {
	h := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`))
	c, _ := json.Marshal(claims)
	return h + "." + base64.RawURLEncoding.EncodeToString(c) + ".sandbox-signature"
}

func TestCheckOIDC(t *testing.T) {
	now := time.Date(2026, 4, 8, 15, 30, 0, 0, time.UTC)
	key := "02" + strings.Repeat("ab", 32)
	good := func() map[string]any {
		return map[string]any{"iss": "https://accounts.google.com", "aud": "app", "sub": "u1", "email": "a@b.co",
			"iat": now.Unix() - 10, "exp": now.Unix() + 600, "nonce": walletauth.Nonce(key)}
	}
	id, err := walletauth.CheckOIDC(jwtOf(good()), now, key)
	require.NoError(t, err)
	assert.Equal(t, walletauth.Identity{Issuer: "https://accounts.google.com", Audience: "app", Subject: "u1", Email: "a@b.co"}, id)
	c := good()
	c["aud"] = []any{"app"}
	_, err = walletauth.CheckOIDC(jwtOf(c), now, key)
	require.NoError(t, err, "a one-element aud array")

	for name, tc := range map[string]struct {
		set       func(map[string]any)
		malformed bool
	}{
		"issuer":        {func(c map[string]any) { c["iss"] = "https://evil.example" }, true},
		"no sub":        {func(c map[string]any) { delete(c, "sub") }, false},
		"two audiences": {func(c map[string]any) { c["aud"] = []any{"a", "b"} }, false},
		"empty aud":     {func(c map[string]any) { c["aud"] = "" }, false},
		"old iat":       {func(c map[string]any) { c["iat"] = now.Unix() - 66 }, false},
		"future iat":    {func(c map[string]any) { c["iat"] = now.Unix() + 6 }, false},
		"iat string":    {func(c map[string]any) { c["iat"] = "1" }, true},
		"expired":       {func(c map[string]any) { c["exp"] = now.Unix() }, false},
		"nonce":         {func(c map[string]any) { c["nonce"] = walletauth.Nonce("03" + key[2:]) }, false},
	} {
		c := good()
		tc.set(c)
		_, err := walletauth.CheckOIDC(jwtOf(c), now, key)
		var te *walletauth.TokenError
		if tc.malformed {
			assert.True(t, errors.Is(err, walletauth.ErrTokenMalformed) || errors.As(err, &te), name)
			continue
		}
		assert.True(t, errors.As(err, &te), "%s: %v", name, err)
	}
	c = good()
	c["iat"] = now.Unix() - 64
	_, err = walletauth.CheckOIDC(jwtOf(c), now, key)
	assert.NoError(t, err, "5 seconds of skew past 60")
	_, err = walletauth.CheckOIDC("sandbox-valid-oidc-token", now, "")
	assert.ErrorIs(t, err, walletauth.ErrTokenMalformed, "the legacy literal is refused")
}

func TestVerifyOIDCSignature(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	claims := jwt.MapClaims{"iss": "https://accounts.google.com", "sub": "u", "aud": "a"}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = "k1"
	signed, err := tok.SignedString(key)
	require.NoError(t, err)
	keys := func(iss, kid string) (crypto.PublicKey, error) {
		if iss != "https://accounts.google.com" || kid != "k1" {
			return nil, errors.New("unknown key")
		}
		return &key.PublicKey, nil
	}
	require.NoError(t, walletauth.VerifyOIDCSignature(signed, keys))
	bySomeoneElse, _ := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(other)
	var te *walletauth.TokenError
	assert.ErrorAs(t, walletauth.VerifyOIDCSignature(bySomeoneElse, keys), &te)
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	assert.ErrorAs(t, walletauth.VerifyOIDCSignature(none, keys), &te, "alg none is refused")
	assert.ErrorAs(t, walletauth.VerifyOIDCSignature(jwtOf(map[string]any{"iss": "https://accounts.google.com"}), keys), &te, "a dummy signature")
}
