package accounts_test

import (
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/paygrid/payments/accounts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The two first examples of BOLT #11 ("Examples" section), signed by the
// spec's node key 03e7156a...d9ad.
const (
	specDonation = "lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql"
	specCoffee   = "lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh"
	specPayee    = "03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad"
	specHash     = "0001020304050607080900010203040506070809000102030405060708090102"
)

func TestParseBOLT11_PublishedVectors(t *testing.T) {
	inv, err := accounts.ParseBOLT11(specDonation)
	require.NoError(t, err)
	assert.Equal(t, "bc", inv.Network)
	assert.Zero(t, inv.AmountMsat)
	assert.Equal(t, int64(1496314658), inv.Timestamp.Unix())
	assert.Equal(t, time.Hour, inv.Expiry, "default expiry")
	assert.Equal(t, specHash, hex.EncodeToString(inv.PaymentHash[:]))
	assert.Equal(t, "Please consider supporting this project", inv.Description)
	assert.Equal(t, specPayee, hex.EncodeToString(inv.Payee))

	inv, err = accounts.ParseBOLT11("LIGHTNING:" + strings.ToUpper(specCoffee))
	require.NoError(t, err)
	assert.Equal(t, int64(250_000_000), inv.AmountMsat, "2500u = 250,000 sat")
	assert.Equal(t, "1 cup coffee", inv.Description)
	assert.Equal(t, time.Minute, inv.Expiry)
	assert.Equal(t, inv.Timestamp.Add(time.Minute), inv.ExpiresAt())
	assert.Equal(t, specPayee, hex.EncodeToString(inv.Payee))
}

// signInvoice builds a BOLT11 invoice over the given tagged fields (each a
// type word and 8-bit data), signed by key.
func signInvoice(t testing.TB, key *secp256k1.PrivateKey, hrp string, ts int64, fields ...[]byte) string {
	words := make([]byte, 7)
	for i := range 7 {
		words[6-i] = byte(ts>>(5*i)) & 31
	}
	for _, f := range fields {
		w, err := bech32.ConvertBits(f[1:], 8, 5, true)
		require.NoError(t, err)
		words = append(words, f[0], byte(len(w)>>5), byte(len(w)&31))
		words = append(words, w...)
	}
	padded, err := bech32.ConvertBits(words, 5, 8, true)
	require.NoError(t, err)
	hash := sha256.Sum256(append([]byte(hrp), padded...))
	c := ecdsa.SignCompact(key, hash[:], true)
	sig, err := bech32.ConvertBits(append(c[1:], c[0]-31), 8, 5, true)
	require.NoError(t, err)
	s, err := bech32.Encode(hrp, append(words, sig...))
	require.NoError(t, err)
	return s
}

func field(typ byte, data []byte) []byte { return append([]byte{typ}, data...) }

func TestParseBOLT11_GeneratedKeys(t *testing.T) {
	key, err := secp256k1.GeneratePrivateKey()
	require.NoError(t, err)
	pub := key.PubKey().SerializeCompressed()
	hash := make([]byte, 32)
	hash[0] = 7
	p, n := field(1, hash), field(19, pub)

	for hrp, want := range map[string]int64{"lnbcrt10m": 1_000_000_000, "lntbs1n": 100, "lntb20p": 2, "lnsb1": 100_000_000_000} {
		inv, err := accounts.ParseBOLT11(signInvoice(t, key, hrp, 1_700_000_000, p, n))
		require.NoError(t, err, hrp)
		assert.Equal(t, want, inv.AmountMsat, hrp)
		assert.Equal(t, pub, inv.Payee)
	}

	t.Run("ErrBadPrefix", func(t *testing.T) {
		for _, hrp := range []string{"lnxx", "bc1", "lnbc15p", "lnbc0", "lnbc1x", "lnbc99999999999999999999"} {
			assert.ErrorIs(t, accounts.BOLT11(signInvoice(t, key, hrp, 1, p)), accounts.ErrFormat, hrp)
		}
	})
	t.Run("ErrNoPaymentHash", func(t *testing.T) {
		assert.ErrorIs(t, accounts.BOLT11(signInvoice(t, key, "lnbc", 1, n)), accounts.ErrFormat)
		// A p field of the wrong length is skipped, so it counts as absent.
		assert.ErrorIs(t, accounts.BOLT11(signInvoice(t, key, "lnbc", 1, field(1, hash[:31]))), accounts.ErrFormat)
	})
	t.Run("ErrWrongPayee", func(t *testing.T) {
		other, _ := secp256k1.GeneratePrivateKey()
		inv := signInvoice(t, other, "lnbc", 1, p, n)
		assert.ErrorIs(t, accounts.BOLT11(inv), accounts.ErrChecksum, "signed by a key other than n")
	})
	t.Run("ErrFlippedBit", func(t *testing.T) {
		// Change one data bit and recompute the bech32 checksum: only the
		// signature can notice.
		hrp, words, err := bech32.DecodeNoLimit(signInvoice(t, key, "lnbc", 1, p, n))
		require.NoError(t, err)
		words[10] ^= 1
		s, err := bech32.Encode(hrp, words)
		require.NoError(t, err)
		assert.ErrorIs(t, accounts.BOLT11(s), accounts.ErrChecksum)
	})
	t.Run("ErrHighS", func(t *testing.T) {
		hrp, words, err := bech32.DecodeNoLimit(signInvoice(t, key, "lnbc", 1, p, n))
		require.NoError(t, err)
		sig, err := bech32.ConvertBits(words[len(words)-104:], 5, 8, false)
		require.NoError(t, err)
		s := new(big.Int).SetBytes(sig[32:64])
		new(big.Int).Sub(secp256k1.Params().N, s).FillBytes(sig[32:64])
		sig[64] ^= 1
		w, err := bech32.ConvertBits(sig, 8, 5, true)
		require.NoError(t, err)
		out, err := bech32.Encode(hrp, append(words[:len(words)-104], w...))
		require.NoError(t, err)
		assert.ErrorIs(t, accounts.BOLT11(out), accounts.ErrChecksum)
	})
	t.Run("ErrTruncatedField", func(t *testing.T) {
		hrp, words, err := bech32.DecodeNoLimit(signInvoice(t, key, "lnbc", 1, p))
		require.NoError(t, err)
		words[8], words[9] = 31, 31 // p claims 1023 words
		s, err := bech32.Encode(hrp, words)
		require.NoError(t, err)
		assert.ErrorIs(t, accounts.BOLT11(s), accounts.ErrFormat)
	})
	t.Run("ErrMixedCase", func(t *testing.T) {
		assert.ErrorIs(t, accounts.BOLT11("lnBC"+specDonation[4:]), accounts.ErrFormat)
		assert.NoError(t, accounts.BOLT11("Lightning:"+specDonation))
	})
	t.Run("ErrBech32m", func(t *testing.T) {
		_, words, err := bech32.DecodeNoLimit(signInvoice(t, key, "lnbc", 1, p))
		require.NoError(t, err)
		s, err := bech32.EncodeM("lnbc", words)
		require.NoError(t, err)
		assert.ErrorIs(t, accounts.BOLT11(s), accounts.ErrFormat)
	})
}
