// Package passkeytest is a software WebAuthn authenticator for tests: a real
// P-256 key pair that answers registration and authentication ceremonies the
// way a browser and a platform authenticator would, so tests exercise the
// whole verification path of walletauth.RelyingParty with real signatures.
package passkeytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
	"github.com/paygrid/payments/walletauth"
)

// Authenticator holds one credential for one relying party.
type Authenticator struct {
	rpID    string
	id      []byte
	key     *ecdsa.PrivateKey
	counter uint32
	// Flags are the authenticator data flags of the next ceremony; New sets
	// user present and user verified. Tests clear bits to probe refusals.
	Flags byte
	// StuckCounter keeps the sign counter from advancing (a cloned key).
	StuckCounter bool
}

// Flag bits of the authenticator data.
const (
	FlagUserPresent  = 0x01
	FlagUserVerified = 0x04
	flagAttested     = 0x40
)

// New returns an authenticator with a fresh key and a random 32-byte
// credential id, bound to rpID.
func New(rpID string) *Authenticator {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	id := make([]byte, 32)
	rand.Read(id)
	return &Authenticator{rpID: rpID, id: id, key: key, Flags: FlagUserPresent | FlagUserVerified}
}

// CredentialID is the credential id, base64url-encoded.
func (a *Authenticator) CredentialID() string { return b64(a.id) }

// Create answers navigator.credentials.create() for challenge at origin
// with a "none" attestation.
func (a *Authenticator) Create(challenge []byte, origin string) walletauth.Attestation {
	cdj := clientData("webauthn.create", challenge, origin)
	x, y := a.key.X.FillBytes(make([]byte, 32)), a.key.Y.FillBytes(make([]byte, 32))
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{
		PublicKeyData: webauthncose.PublicKeyData{KeyType: int64(webauthncose.EllipticKey), Algorithm: int64(webauthncose.AlgES256)},
		Curve:         int64(webauthncose.P256), XCoord: x, YCoord: y,
	})
	if err != nil {
		panic(err)
	}
	auth := a.authData(a.Flags | flagAttested)
	auth = append(auth, make([]byte, 16)...) // AAGUID: none
	auth = binary.BigEndian.AppendUint16(auth, uint16(len(a.id)))
	auth = append(append(auth, a.id...), cose...)
	obj, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": auth})
	if err != nil {
		panic(err)
	}
	return walletauth.Attestation{CredentialID: b64(a.id), ClientDataJSON: b64(cdj), AttestationObject: b64(obj), Transports: []string{"internal"}}
}

// Get answers navigator.credentials.get() for challenge at origin; the sign
// counter advances by one unless StuckCounter is set.
func (a *Authenticator) Get(challenge []byte, origin string) walletauth.Assertion {
	if !a.StuckCounter {
		a.counter++
	}
	cdj := clientData("webauthn.get", challenge, origin)
	auth := a.authData(a.Flags)
	sum := sha256.Sum256(cdj)
	digest := sha256.Sum256(append(append([]byte{}, auth...), sum[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		panic(err)
	}
	return walletauth.Assertion{CredentialID: b64(a.id), ClientDataJSON: b64(cdj), AuthenticatorData: b64(auth), Signature: b64(sig)}
}

// authData is the RP ID hash, flags and counter.
func (a *Authenticator) authData(flags byte) []byte {
	h := sha256.Sum256([]byte(a.rpID))
	return binary.BigEndian.AppendUint32(append(h[:], flags), a.counter)
}

func clientData(typ string, challenge []byte, origin string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": b64(challenge), "origin": origin, "crossOrigin": false})
	return b
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
