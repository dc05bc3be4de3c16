package walletauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
)

// ErrPasskey is wrapped by every refusal of a passkey ceremony: a response
// that does not decode, or one that decodes but does not verify. Its text is
// safe to show to clients; the wrapped detail is for logs. Refusals are
// *PasskeyError values, whose Reason names the check that failed.
var ErrPasskey = errors.New("walletauth: the passkey response does not verify")

// PasskeyError is a refused passkey ceremony. Reason names the failing
// check in words safe to show the client, which sent every value it quotes
// (for instance "the passkey's origin http://localhost:5173 is not one of
// the relying party's origins (http://localhost:8080)"); Err, when set, is
// go-webauthn's detail, for logs. It wraps ErrPasskey and Err.
type PasskeyError struct {
	Reason string
	Err    error
}

func (e *PasskeyError) Error() string { return ErrPasskey.Error() + ": " + e.Reason }

// Unwrap returns ErrPasskey and, when set, Err.
func (e *PasskeyError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrPasskey}
	}
	return []error{ErrPasskey, e.Err}
}

// refuse is a *PasskeyError with a formatted reason.
func refuse(format string, args ...any) error {
	return &PasskeyError{Reason: fmt.Sprintf(format, args...)}
}

// RelyingParty verifies WebAuthn ceremonies (registration and assertion) for
// one relying party with go-webauthn. It checks the ceremony type, the
// challenge, the origin, the RP ID hash, user presence and user
// verification, the credential's algorithm and signature, and the sign
// counter. Attestation statements are verified as far as their format
// allows without a trust store: "none" and self attestation are accepted,
// as browsers send for passkeys.
type RelyingParty struct {
	// ID is the RP ID, a host name such as "localhost" or "example.com".
	ID string
	// Origins are the accepted origins, such as "https://example.com".
	Origins []string
}

// Attestation is a registration response (navigator.credentials.create()),
// with every binary field base64url-encoded, as the reference carries it.
type Attestation struct {
	CredentialID      string   `json:"credentialId"`
	ClientDataJSON    string   `json:"clientDataJson"`
	AttestationObject string   `json:"attestationObject"`
	Transports        []string `json:"transports,omitempty"`
}

// Assertion is an authentication response (navigator.credentials.get()),
// with every binary field base64url-encoded.
type Assertion struct {
	CredentialID      string `json:"credentialId"`
	ClientDataJSON    string `json:"clientDataJson"`
	AuthenticatorData string `json:"authenticatorData"`
	Signature         string `json:"signature"`
	UserHandle        string `json:"userHandle,omitempty"`
}

// Passkey is a registered credential as the relying party stores it.
type Passkey struct {
	// ID is the WebAuthn credential id.
	ID []byte `json:"id"`
	// PublicKey is the credential's COSE key.
	PublicKey []byte `json:"publicKey"`
	// SignCount is the last sign counter seen.
	SignCount uint32 `json:"signCount"`
	// Transports are the transports the client reported at registration.
	Transports []string `json:"transports,omitempty"`
}

// IDString is the credential id base64url-encoded, as clients name it.
func (p Passkey) IDString() string { return base64.RawURLEncoding.EncodeToString(p.ID) }

// passkeyAlgorithms are the credential algorithms accepted at registration:
// ES256, EdDSA and RS256, the ones browsers offer by default.
var passkeyAlgorithms = []protocol.CredentialParameter{
	{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgES256},
	{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgEdDSA},
	{Type: protocol.PublicKeyCredentialType, Algorithm: webauthncose.AlgRS256},
}

// Register verifies a registration for challenge (the exact bytes the client
// gave navigator.credentials.create) and returns the credential to store.
// User presence and user verification are required.
func (rp RelyingParty) Register(challenge []byte, a Attestation) (Passkey, error) {
	raw, err := decode64(a.CredentialID, a.ClientDataJSON, a.AttestationObject)
	if err != nil {
		return Passkey{}, err
	}
	resp := protocol.CredentialCreationResponse{
		PublicKeyCredential: protocol.PublicKeyCredential{
			Credential: protocol.Credential{ID: base64.RawURLEncoding.EncodeToString(raw[0]), Type: string(protocol.PublicKeyCredentialType)},
			RawID:      raw[0],
		},
		AttestationResponse: protocol.AuthenticatorAttestationResponse{
			AuthenticatorResponse: protocol.AuthenticatorResponse{ClientDataJSON: raw[1]},
			AttestationObject:     raw[2],
			Transports:            a.Transports,
		},
	}
	parsed, err := resp.Parse()
	if err != nil {
		return Passkey{}, refused(err)
	}
	if err := rp.check(protocol.CreateCeremony, challenge, parsed.Response.CollectedClientData, parsed.Response.AttestationObject.AuthData); err != nil {
		return Passkey{}, err
	}
	if _, err := parsed.Verify(rp.challenge(challenge), rp.ID, rp.Origins, nil, nil, protocol.TopOriginExplicitVerificationMode,
		false, true, true, nil, passkeyAlgorithms, protocol.AttestationPolicy{}, protocol.SignaturePolicy{}); err != nil {
		return Passkey{}, refusedAs("the attestation does not verify", err)
	}
	auth := parsed.Response.AttestationObject.AuthData
	return Passkey{ID: auth.AttData.CredentialID, PublicKey: auth.AttData.CredentialPublicKey,
		SignCount: auth.Counter, Transports: a.Transports}, nil
}

// Assert verifies an assertion of p for challenge (the exact bytes the
// client gave navigator.credentials.get) and returns the new sign counter,
// which the caller stores. A counter that does not advance past the stored
// one is refused as a possible clone, unless both are zero (authenticators
// that keep no counter, such as synced passkeys, always send zero).
func (rp RelyingParty) Assert(p Passkey, challenge []byte, a Assertion) (uint32, error) {
	raw, err := decode64(a.CredentialID, a.ClientDataJSON, a.AuthenticatorData, a.Signature)
	if err != nil {
		return 0, err
	}
	if string(raw[0]) != string(p.ID) {
		return 0, refuse("the assertion names another credential")
	}
	var handle []byte
	if a.UserHandle != "" {
		if handle, err = decode1(a.UserHandle); err != nil {
			return 0, err
		}
	}
	resp := protocol.CredentialAssertionResponse{
		PublicKeyCredential: protocol.PublicKeyCredential{
			Credential: protocol.Credential{ID: base64.RawURLEncoding.EncodeToString(raw[0]), Type: string(protocol.PublicKeyCredentialType)},
			RawID:      raw[0],
		},
		AssertionResponse: protocol.AuthenticatorAssertionResponse{
			AuthenticatorResponse: protocol.AuthenticatorResponse{ClientDataJSON: raw[1]},
			AuthenticatorData:     raw[2],
			Signature:             raw[3],
			UserHandle:            handle,
		},
	}
	parsed, err := resp.Parse()
	if err != nil {
		return 0, refused(err)
	}
	if err := rp.check(protocol.AssertCeremony, challenge, parsed.Response.CollectedClientData, parsed.Response.AuthenticatorData); err != nil {
		return 0, err
	}
	if err := parsed.Verify(rp.challenge(challenge), rp.ID, "", rp.Origins, nil, nil, protocol.TopOriginExplicitVerificationMode,
		false, true, true, p.PublicKey, protocol.SignaturePolicy{}); err != nil {
		return 0, refusedAs("the assertion's signature does not verify with the registered passkey", err)
	}
	count := parsed.Response.AuthenticatorData.Counter
	if count <= p.SignCount && (count != 0 || p.SignCount != 0) {
		return 0, refuse("the sign counter did not advance (%d after %d): a possible cloned authenticator", count, p.SignCount)
	}
	return count, nil
}

// challenge is the form the client data carries the challenge in.
func (RelyingParty) challenge(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// check runs the checks of a ceremony that name what failed, before
// go-webauthn's Verify repeats them and checks the rest (attestation,
// algorithm, signature): the ceremony type, the challenge, the origin, the
// RP ID hash, user presence and user verification, in the order of the
// WebAuthn verification steps.
func (rp RelyingParty) check(ceremony protocol.CeremonyType, challenge []byte, c protocol.CollectedClientData, auth protocol.AuthenticatorData) error {
	switch {
	case c.Type != ceremony:
		return refuse("the client data is of a %q ceremony, not %q", c.Type, ceremony)
	case subtle.ConstantTimeCompare([]byte(c.Challenge), []byte(rp.challenge(challenge))) != 1:
		return refuse("the client data's challenge is not the challenge of this ceremony")
	case !protocol.IsOriginInHaystack(c.Origin, rp.Origins):
		return refuse("the passkey's origin %s is not one of the relying party's origins (%s)", c.Origin, strings.Join(rp.Origins, ", "))
	}
	if want := sha256.Sum256([]byte(rp.ID)); subtle.ConstantTimeCompare(auth.RPIDHash, want[:]) != 1 {
		return refuse("the authenticator data's RP ID hash is not that of the relying party ID %q (the passkey belongs to another relying party)", rp.ID)
	}
	switch {
	case !auth.Flags.UserPresent():
		return refuse("the authenticator did not report user presence")
	case !auth.Flags.UserVerified():
		return refuse("the authenticator did not report user verification")
	}
	return nil
}

// decode64 decodes base64url fields, padded or not; every field is required.
func decode64(fields ...string) ([][]byte, error) {
	out := make([][]byte, len(fields))
	for i, f := range fields {
		b, err := decode1(f)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func decode1(f string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(f, "="))
	if err != nil || len(b) == 0 {
		return nil, refuse("a field is not base64url")
	}
	return b, nil
}

// refused is a refusal for a go-webauthn error, named by its detail.
func refused(err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return &PasskeyError{Reason: "the response does not parse: " + pe.Details, Err: err}
	}
	return &PasskeyError{Reason: "the response does not parse", Err: err}
}

// refusedAs is a refusal for a go-webauthn error, with reason and the
// error's detail.
func refusedAs(reason string, err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		reason += " (" + pe.Details + ")"
	}
	return &PasskeyError{Reason: reason, Err: err}
}
