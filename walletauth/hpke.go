package walletauth

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hpke"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"

	"github.com/mr-tron/base58"
)

// HPKE as the reference uses it for OTP bundles and wallet exports: RFC 9180 base mode with
// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-256-GCM, info
// "turnkey_hpke", and as additional data the encapsulated key followed by
// the recipient's key, both 65-byte uncompressed points; one message per
// context.

// HPKEInfo is the info string of every sealed bundle.
const HPKEInfo = "turnkey_hpke"

// BundleVersion is the version of target and export bundles.
const BundleVersion = "v1.0.0"

// ErrBundle: a bundle cannot be decoded or does not open with the key.
var ErrBundle = errors.New("walletauth: the encrypted bundle cannot be decoded or opened")

// suite is the KDF and AEAD; the KEM, DHKEM(P-256, HKDF-SHA256), follows
// from the P-256 keys.
func suite() (hpke.KDF, hpke.AEAD) {
	return hpke.HKDFSHA256(), hpke.AES256GCM()
}

// NewTargetKey draws a fresh P-256 key to receive sealed bundles.
func NewTargetKey() (*ecdh.PrivateKey, error) { return ecdh.P256().GenerateKey(rand.Reader) }

// Seal encrypts plaintext to the uncompressed P-256 point recipient and
// returns the encapsulated key (65 bytes) and the ciphertext with its tag.
func Seal(recipient []byte, plaintext []byte) (enc, ciphertext []byte, err error) {
	pub, err := ecdh.P256().NewPublicKey(recipient)
	if err != nil {
		return nil, nil, ErrKey
	}
	kdf, aead := suite()
	pk, err := hpke.NewDHKEMPublicKey(pub)
	if err != nil {
		return nil, nil, ErrKey
	}
	enc, s, err := hpke.NewSender(pk, kdf, aead, []byte(HPKEInfo))
	if err != nil {
		return nil, nil, err
	}
	ct, err := s.Seal(aad(enc, recipient), plaintext)
	return enc, ct, err
}

// Open decrypts what Seal produced for key.
func Open(key *ecdh.PrivateKey, enc, ciphertext []byte) ([]byte, error) {
	kdf, aead := suite()
	sk, err := hpke.NewDHKEMPrivateKey(key)
	if err != nil {
		return nil, ErrBundle
	}
	r, err := hpke.NewRecipient(enc, sk, kdf, aead, []byte(HPKEInfo))
	if err != nil {
		return nil, ErrBundle
	}
	pt, err := r.Open(aad(enc, key.PublicKey().Bytes()), ciphertext)
	if err != nil {
		return nil, ErrBundle
	}
	return pt, nil
}

func aad(enc, recipient []byte) []byte {
	return append(append(make([]byte, 0, len(enc)+len(recipient)), enc...), recipient...)
}

// signedBundle is the envelope of target and export bundles. In the
// sandbox dataSignature and enclaveQuorumPublic are empty strings.
type signedBundle struct {
	Version             string `json:"version"`
	Data                string `json:"data"`
	DataSignature       string `json:"dataSignature"`
	EnclaveQuorumPublic string `json:"enclaveQuorumPublic"`
}

func envelope(data any) string {
	b, _ := json.Marshal(data)
	out, _ := json.Marshal(signedBundle{Version: BundleVersion, Data: hex.EncodeToString(b)})
	return string(out)
}

// TargetBundle is the otpEncryptionTargetBundle for target's public key:
// {"version","data":hex(JSON {"targetPublic": <uncompressed hex>}),
// "dataSignature":"","enclaveQuorumPublic":""}.
func TargetBundle(target *ecdh.PublicKey) string {
	return envelope(map[string]string{"targetPublic": hex.EncodeToString(target.Bytes())})
}

// ParseTargetBundle returns the uncompressed target key of a target bundle.
func ParseTargetBundle(bundle string) ([]byte, error) {
	var d struct {
		TargetPublic string `json:"targetPublic"`
	}
	if err := openEnvelope(bundle, &d); err != nil {
		return nil, err
	}
	k, err := hex.DecodeString(d.TargetPublic)
	if err != nil || len(k) != 65 {
		return nil, ErrBundle
	}
	return k, nil
}

func openEnvelope(bundle string, v any) error {
	var b signedBundle
	if err := json.Unmarshal([]byte(bundle), &b); err != nil || b.Version != BundleVersion {
		return ErrBundle
	}
	data, err := hex.DecodeString(b.Data)
	if err != nil || json.Unmarshal(data, v) != nil {
		return ErrBundle
	}
	return nil
}

// sealedBundle is an encryptedOtpBundle: hex of the 65-byte encapsulated
// key and of the ciphertext with its tag.
type sealedBundle struct {
	EncappedPublic string `json:"encappedPublic"`
	Ciphertext     string `json:"ciphertext"`
}

// OTPAttempt is the plaintext of an encryptedOtpBundle.
type OTPAttempt struct {
	Code      string `json:"otp_code"`
	PublicKey string `json:"public_key"` // the client's compressed key (TEK)
}

// SealOTP builds an encryptedOtpBundle for a target bundle (the client's
// side, for tests and tools).
func SealOTP(targetBundle string, a OTPAttempt) (string, error) {
	target, err := ParseTargetBundle(targetBundle)
	if err != nil {
		return "", err
	}
	pt, _ := json.Marshal(a)
	enc, ct, err := Seal(target, pt)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(sealedBundle{hex.EncodeToString(enc), hex.EncodeToString(ct)})
	return string(b), nil
}

// OpenOTP decrypts an encryptedOtpBundle with the target key. A bundle that
// does not decode or open, or whose attempt lacks a valid compressed key,
// is ErrBundle.
func OpenOTP(target *ecdh.PrivateKey, bundle string) (OTPAttempt, error) {
	var a OTPAttempt
	enc, ct, err := decodeSealed([]byte(bundle))
	if err != nil {
		return a, err
	}
	pt, err := Open(target, enc, ct)
	if err != nil {
		return a, err
	}
	if json.Unmarshal(pt, &a) != nil {
		return a, ErrBundle
	}
	if _, compressed, err := ParsePublicKey(a.PublicKey); err != nil || !compressed {
		return a, ErrBundle
	}
	return a, nil
}

func decodeSealed(b []byte) (enc, ct []byte, err error) {
	var s sealedBundle
	if json.Unmarshal(b, &s) != nil {
		return nil, nil, ErrBundle
	}
	enc, err1 := hex.DecodeString(s.EncappedPublic)
	ct, err2 := hex.DecodeString(s.Ciphertext)
	if err1 != nil || err2 != nil || len(enc) != 65 || len(ct) < 16 {
		return nil, nil, ErrBundle
	}
	return enc, ct, nil
}

// SealExport builds encryptedWalletCredentials: the secret sealed to the
// client's uncompressed key, in the signed envelope whose data is
// hex(JSON {encappedPublic, ciphertext, organizationId}).
func SealExport(recipient []byte, organizationID string, secret []byte) (string, error) {
	enc, ct, err := Seal(recipient, secret)
	if err != nil {
		return "", err
	}
	return envelope(struct {
		EncappedPublic string `json:"encappedPublic"`
		Ciphertext     string `json:"ciphertext"`
		OrganizationID string `json:"organizationId"`
	}{hex.EncodeToString(enc), hex.EncodeToString(ct), organizationID}), nil
}

// OpenExport decrypts encryptedWalletCredentials with the client's key.
func OpenExport(key *ecdh.PrivateKey, bundle string) ([]byte, error) {
	var d json.RawMessage
	if err := openEnvelope(bundle, &d); err != nil {
		return nil, err
	}
	enc, ct, err := decodeSealed(d)
	if err != nil {
		return nil, err
	}
	return Open(key, enc, ct)
}

// SealSessionKey is the legacy encryptedSessionSigningKey: base58check
// (no version byte) of the 33-byte compressed encapsulated key followed by
// the ciphertext of the 32-byte session private scalar.
func SealSessionKey(recipient []byte, scalar []byte) (string, error) {
	enc, ct, err := Seal(recipient, scalar)
	if err != nil {
		return "", err
	}
	return base58Check(append(CompressPoint(enc), ct...)), nil
}

// OpenSessionKey decrypts a legacy encryptedSessionSigningKey.
func OpenSessionKey(key *ecdh.PrivateKey, sealed string) ([]byte, error) {
	b, err := base58.Decode(sealed)
	if err != nil || len(b) < 4+33+16 {
		return nil, ErrBundle
	}
	payload, sum := b[:len(b)-4], b[len(b)-4:]
	if !bytes.Equal(checksum(payload), sum) {
		return nil, ErrBundle
	}
	pub, _, err := ParsePublicKey(hex.EncodeToString(payload[:33]))
	if err != nil {
		return nil, ErrBundle
	}
	enc, _ := pub.Bytes()
	return Open(key, enc, payload[33:])
}

func checksum(b []byte) []byte {
	h := sha256.Sum256(b)
	h = sha256.Sum256(h[:])
	return h[:4]
}

func base58Check(b []byte) string { return base58.Encode(append(b, checksum(b)...)) }
