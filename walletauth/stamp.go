package walletauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
)

// The wallet-signature header (Service-Wallet-Signature) carries an
// API-key stamp: base64url, without padding, of the JSON
// {"publicKey","scheme","signature"} where publicKey is the signer's
// compressed P-256 key in lowercase hex, scheme is StampScheme and
// signature the hex DER ECDSA signature over SHA-256 of the exact
// payloadToSign bytes.

// StampScheme is the only stamp scheme accepted.
const StampScheme = "SIGNATURE_SCHEME_TK_API_P256"

// Errors of stamps and client keys; the messages are safe to show to clients.
var (
	ErrStampMalformed = errors.New("walletauth: the wallet signature cannot be parsed")
	ErrStampInvalid   = errors.New("walletauth: the wallet signature does not verify over the payload")
	ErrKey            = errors.New("walletauth: the public key is not a P-256 point in SEC1 hex")
)

// Stamp is a parsed wallet-signature header.
type Stamp struct {
	PublicKey string `json:"publicKey"` // compressed, lowercase hex
	Scheme    string `json:"scheme"`
	Signature string `json:"signature"` // hex DER

	key *ecdsa.PublicKey
	sig []byte
}

// ParseStamp decodes a header value. Anything but a well-formed stamp of
// StampScheme with a valid compressed P-256 key and a hex signature is
// ErrStampMalformed.
func ParseStamp(header string) (*Stamp, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(header, "="))
	if err != nil {
		return nil, ErrStampMalformed
	}
	var s Stamp
	if err := json.Unmarshal(raw, &s); err != nil || s.Scheme != StampScheme {
		return nil, ErrStampMalformed
	}
	if len(s.PublicKey) != 66 {
		return nil, ErrStampMalformed
	}
	key, compressed, err := ParsePublicKey(s.PublicKey)
	if err != nil || !compressed {
		return nil, ErrStampMalformed
	}
	sig, err := hex.DecodeString(s.Signature)
	if err != nil || len(sig) == 0 || len(sig) > 80 {
		return nil, ErrStampMalformed
	}
	s.PublicKey, s.key, s.sig = strings.ToLower(s.PublicKey), key, sig
	return &s, nil
}

// Verify checks the stamp's signature over payload.
func (s *Stamp) Verify(payload []byte) error {
	h := sha256.Sum256(payload)
	if !ecdsa.VerifyASN1(s.key, h[:], s.sig) {
		return ErrStampInvalid
	}
	return nil
}

// SignStamp stamps payload with key: the header value a client sends.
func SignStamp(key *ecdsa.PrivateKey, payload []byte) (string, error) {
	h := sha256.Sum256(payload)
	sig, err := ecdsa.SignASN1(rand.Reader, key, h[:])
	if err != nil {
		return "", err
	}
	pub, err := CompressedKey(&key.PublicKey)
	if err != nil {
		return "", err
	}
	return EncodeStamp(pub, sig), nil
}

// EncodeStamp builds the header value from a compressed hex key and a DER
// signature, with the keys in the reference's order.
func EncodeStamp(compressedHex string, derSig []byte) string {
	b, _ := json.Marshal(struct {
		PublicKey string `json:"publicKey"`
		Scheme    string `json:"scheme"`
		Signature string `json:"signature"`
	}{compressedHex, StampScheme, hex.EncodeToString(derSig)})
	return base64.RawURLEncoding.EncodeToString(b)
}

// CompressedKey is the lowercase hex SEC1 compressed form of pub (66 chars).
func CompressedKey(pub *ecdsa.PublicKey) (string, error) {
	b, err := pub.Bytes()
	if err != nil {
		return "", ErrKey
	}
	return hex.EncodeToString(CompressPoint(b)), nil
}

// CompressPoint turns a 65-byte uncompressed P-256 point into its 33-byte
// compressed form.
func CompressPoint(u []byte) []byte {
	out := make([]byte, 33)
	out[0] = 2 | u[64]&1
	copy(out[1:], u[1:33])
	return out
}

// ParsePublicKey parses a SEC1 hex P-256 key, compressed (66 hex, 02/03) or
// uncompressed (130 hex, 04), and says which form it was.
func ParsePublicKey(s string) (key *ecdsa.PublicKey, compressed bool, err error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, false, ErrKey
	}
	switch {
	case len(b) == 33 && (b[0] == 2 || b[0] == 3):
		x, y := elliptic.UnmarshalCompressed(elliptic.P256(), b)
		if x == nil {
			return nil, false, ErrKey
		}
		u := make([]byte, 65)
		u[0] = 4
		x.FillBytes(u[1:33])
		y.FillBytes(u[33:])
		b, compressed = u, true
	case len(b) != 65:
		return nil, false, ErrKey
	}
	key, err = ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b)
	if err != nil {
		return nil, false, ErrKey
	}
	return key, compressed, nil
}
