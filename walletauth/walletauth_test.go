package walletauth_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/mr-tron/base58"
	"github.com/paygrid/payments/walletauth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEIP191_PublishedVector(t *testing.T) {
	// The well-known test key 0x4c08...da9 (address 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23,
	// used by web3.js's docs) signing "Some data".
	key, _ := hex.DecodeString("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	priv := secp256k1.PrivKeyFromBytes(key)
	addr := "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	assert.Equal(t, "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23", walletauth.EVMAddress(priv.PubKey()))
	sig := walletauth.SignEIP191(priv, []byte("Some data"))
	assert.Equal(t, "0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c", sig)
	require.NoError(t, walletauth.VerifyEIP191(addr, []byte("Some data"), sig))
}

func TestEIP191_Negative(t *testing.T) {
	priv, err := secp256k1.GeneratePrivateKey()
	require.NoError(t, err)
	addr := walletauth.EVMAddress(priv.PubKey())
	msg := []byte("Verify ownership: nonce 42")
	sig := walletauth.SignEIP191(priv, msg)
	require.NoError(t, walletauth.VerifyEIP191(addr, msg, sig))

	raw, _ := hex.DecodeString(sig[2:])
	flipped := append([]byte{}, raw...)
	flipped[10] ^= 1
	assert.Error(t, walletauth.VerifyEIP191(addr, msg, "0x"+hex.EncodeToString(flipped)), "flipped bit")
	assert.ErrorIs(t, walletauth.VerifyEIP191(addr, []byte("other message"), sig), walletauth.ErrMismatch)
	other, _ := secp256k1.GeneratePrivateKey()
	assert.ErrorIs(t, walletauth.VerifyEIP191(walletauth.EVMAddress(other.PubKey()), msg, sig), walletauth.ErrMismatch, "wrong address")
	assert.ErrorIs(t, walletauth.VerifyEIP191(addr, msg, "0x1234"), walletauth.ErrMalformed)

	// The same signature with S replaced by N-S (and v flipped) is valid
	// ECDSA but not canonical.
	s := new(big.Int).SetBytes(raw[32:64])
	highS := new(big.Int).Sub(secp256k1.Params().N, s).FillBytes(make([]byte, 32))
	mall := append(append(append([]byte{}, raw[:32]...), highS...), 55-raw[64]) // 27 <-> 28
	assert.ErrorIs(t, walletauth.VerifyEIP191(addr, msg, "0x"+hex.EncodeToString(mall)), walletauth.ErrHighS)
}

func TestBitcoinMessage(t *testing.T) {
	priv, err := secp256k1.GeneratePrivateKey()
	require.NoError(t, err)
	pub := priv.PubKey().SerializeCompressed()
	msg := []byte("Verify ownership: nonce 7")
	sig := walletauth.SignBitcoin(priv, msg)
	require.NoError(t, walletauth.VerifyBitcoinKey(pub, msg, sig, walletauth.SchemeBIP137))
	require.NoError(t, walletauth.VerifyBitcoinKey(pub, msg, sig, walletauth.SchemeElectrum))

	raw, _ := base64.StdEncoding.DecodeString(sig)
	segwit := append([]byte{raw[0] + 8}, raw[1:]...) // header 39-42: P2WPKH
	require.NoError(t, walletauth.VerifyBitcoinKey(pub, msg, base64.StdEncoding.EncodeToString(segwit), walletauth.SchemeBIP137))
	assert.ErrorIs(t, walletauth.VerifyBitcoinKey(pub, msg, base64.StdEncoding.EncodeToString(segwit), walletauth.SchemeElectrum), walletauth.ErrMalformed)

	bad := append([]byte{}, raw...)
	bad[40] ^= 1
	assert.Error(t, walletauth.VerifyBitcoinKey(pub, msg, base64.StdEncoding.EncodeToString(bad), walletauth.SchemeBIP137))
	assert.ErrorIs(t, walletauth.VerifyBitcoinKey(pub, []byte("x"), sig, walletauth.SchemeBIP137), walletauth.ErrMismatch)
	assert.ErrorIs(t, walletauth.VerifyBitcoinKey(pub, msg, "not base64!", walletauth.SchemeBIP137), walletauth.ErrMalformed)
}

func TestSolana(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	addr := base58.Encode(pub)
	msg := []byte("Verify ownership: nonce 9")
	sig := base58.Encode(ed25519.Sign(priv, msg))
	require.NoError(t, walletauth.VerifySolana(addr, msg, sig))
	assert.ErrorIs(t, walletauth.VerifySolana(addr, []byte("y"), sig), walletauth.ErrMismatch)
	assert.ErrorIs(t, walletauth.VerifySolana(addr, msg, "abc"), walletauth.ErrMalformed)
	other, _, _ := ed25519.GenerateKey(nil)
	assert.ErrorIs(t, walletauth.VerifySolana(base58.Encode(other), msg, sig), walletauth.ErrMismatch)
}
