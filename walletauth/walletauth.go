// Package walletauth verifies wallet signatures over bytes and keys, pure
// and without I/O: EIP-191 personal_sign for EVM chains, Bitcoin message
// signatures (BIP-137 and Electrum) and Ed25519 for Solana. The engine uses
// them to prove the ownership of self-custody wallets (the challenge and
// verify operations of external accounts).
package walletauth

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math/big"
	"strconv"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/mr-tron/base58"
	"golang.org/x/crypto/sha3"
)

// Errors; the messages are safe to show to clients.
var (
	ErrMalformed = errors.New("walletauth: the signature cannot be decoded")
	ErrHighS     = errors.New("walletauth: the signature is not canonical (high S)")
	ErrMismatch  = errors.New("walletauth: the signature was not made by this wallet's key")
)

var halfN = new(big.Int).Rsh(secp256k1.Params().N, 1)

func keccak(b ...[]byte) []byte {
	h := sha3.NewLegacyKeccak256()
	for _, p := range b {
		h.Write(p)
	}
	return h.Sum(nil)
}

// EIP191Hash is the personal_sign digest of message.
func EIP191Hash(message []byte) []byte {
	return keccak([]byte("\x19Ethereum Signed Message:\n"+strconv.Itoa(len(message))), message)
}

// EVMAddress returns the lower-case 0x address of a public key.
func EVMAddress(pub *secp256k1.PublicKey) string {
	return "0x" + hex.EncodeToString(keccak(pub.SerializeUncompressed()[1:])[12:])
}

// VerifyEIP191 checks a personal_sign signature (0x-hex r||s||v, v 27/28 or
// 0/1) over message against an EVM address (any case). High-S signatures
// are refused.
func VerifyEIP191(address string, message []byte, signature string) error {
	sig, err := hex.DecodeString(strings.TrimPrefix(signature, "0x"))
	if err != nil || len(sig) != 65 {
		return ErrMalformed
	}
	v := sig[64]
	if v >= 27 {
		v -= 27
	}
	if v > 1 {
		return ErrMalformed
	}
	if new(big.Int).SetBytes(sig[32:64]).Cmp(halfN) > 0 {
		return ErrHighS
	}
	compact := append([]byte{27 + 4 + v}, sig[:64]...)
	pub, _, err := ecdsa.RecoverCompact(compact, EIP191Hash(message))
	if err != nil {
		return ErrMismatch
	}
	if EVMAddress(pub) != strings.ToLower(address) {
		return ErrMismatch
	}
	return nil
}

// SignEIP191 signs message with key the way personal_sign does (for tests
// and tooling): 0x-hex r||s||v with v 27/28.
func SignEIP191(key *secp256k1.PrivateKey, message []byte) string {
	c := ecdsa.SignCompact(key, EIP191Hash(message), false)
	return "0x" + hex.EncodeToString(append(c[1:], c[0]))
}

// BitcoinMessageHash is the double SHA-256 digest of a Bitcoin signed message.
func BitcoinMessageHash(message []byte) []byte {
	var b bytes.Buffer
	writeVarString(&b, []byte("Bitcoin Signed Message:\n"))
	writeVarString(&b, message)
	h := sha256.Sum256(b.Bytes())
	h = sha256.Sum256(h[:])
	return h[:]
}

func writeVarString(b *bytes.Buffer, s []byte) {
	n := len(s)
	switch {
	case n < 0xfd:
		b.WriteByte(byte(n))
	case n <= 0xffff:
		b.Write([]byte{0xfd, byte(n), byte(n >> 8)})
	default:
		b.Write([]byte{0xfe, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)})
	}
	b.Write(s)
}

// Bitcoin signature schemes.
const (
	SchemeBIP137   = "bip137"
	SchemeElectrum = "electrum"
)

// VerifyBitcoinKey checks a base64 Bitcoin message signature over message
// against a compressed secp256k1 public key. BIP-137 headers 27-42 are
// accepted (segwit headers 35-42 recover like 31-34); the electrum scheme
// accepts 27-34, as Electrum and Sparrow write them. High-S is refused.
func VerifyBitcoinKey(pub []byte, message []byte, signature, scheme string) error {
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil || len(sig) != 65 {
		return ErrMalformed
	}
	h := sig[0]
	max := byte(42)
	if scheme == SchemeElectrum {
		max = 34
	}
	if h < 27 || h > max {
		return ErrMalformed
	}
	if h > 34 {
		h = 31 + (h-35)%4
	}
	if new(big.Int).SetBytes(sig[33:]).Cmp(halfN) > 0 {
		return ErrHighS
	}
	got, _, err := ecdsa.RecoverCompact(append([]byte{h}, sig[1:]...), BitcoinMessageHash(message))
	if err != nil {
		return ErrMismatch
	}
	if !bytes.Equal(got.SerializeCompressed(), pub) {
		return ErrMismatch
	}
	return nil
}

// SignBitcoin signs message with key as a BIP-137 compressed-key signature
// (base64), for tests and tooling.
func SignBitcoin(key *secp256k1.PrivateKey, message []byte) string {
	return base64.StdEncoding.EncodeToString(ecdsa.SignCompact(key, BitcoinMessageHash(message), true))
}

// VerifySolana checks a base58 Ed25519 signature over message against a
// base58 Solana address (the public key).
func VerifySolana(address string, message []byte, signature string) error {
	pub, err := base58.Decode(address)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return ErrMismatch
	}
	sig, err := base58.Decode(signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return ErrMalformed
	}
	if !ed25519.Verify(pub, message, sig) {
		return ErrMismatch
	}
	return nil
}
