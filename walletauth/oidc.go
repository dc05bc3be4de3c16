package walletauth

import (
	"crypto"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// OIDC tokens are checked as the hosted sandbox does: the token must be
// JWT-shaped (its signature segment is not verified), from a supported
// issuer, with a non-empty sub, an aud that is a non-empty string or a
// one-element array, an iat at most OIDCMaxAge before now (OIDCSkew of
// clock skew), and an exp after now.

// OIDC freshness rules.
const (
	OIDCMaxAge = 60 * time.Second
	OIDCSkew   = 5 * time.Second
)

// OIDCIssuers are the supported issuers.
var OIDCIssuers = []string{"https://accounts.google.com", "accounts.google.com", "https://appleid.apple.com"}

// ErrTokenMalformed: not a JWT, or from an unsupported issuer; the request is
// refused before authentication (400).
var ErrTokenMalformed = errors.New("walletauth: the OIDC token is malformed or its issuer is not supported")

// TokenError is a failed check of a well-formed token (401); Reason names it.
type TokenError struct{ Reason string }

func (e *TokenError) Error() string { return "walletauth: " + e.Reason }

// Identity is the registered identity of an OAuth credential.
type Identity struct {
	Issuer   string `json:"iss"`
	Audience string `json:"aud"`
	Subject  string `json:"sub"`
	Email    string `json:"email,omitempty"`
}

// CheckOIDC checks token at now and returns its identity. A non-empty
// clientPublicKey also requires nonce == hex(SHA-256(clientPublicKey)).
func CheckOIDC(token string, now time.Time, clientPublicKey string) (Identity, error) {
	var id Identity
	claims := jwt.MapClaims{}
	// The signature segment may be anything (even not base64url): only the
	// header and the claims are parsed.
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return id, ErrTokenMalformed
	}
	if _, _, err := jwt.NewParser().ParseUnverified(parts[0]+"."+parts[1]+".", claims); err != nil {
		return id, ErrTokenMalformed
	}
	iss, _ := claims["iss"].(string)
	if !supportedIssuer(iss) {
		return id, ErrTokenMalformed
	}
	id.Issuer = iss
	id.Email, _ = claims["email"].(string)
	if id.Subject, _ = claims["sub"].(string); id.Subject == "" {
		return id, &TokenError{"the OIDC token has no sub"}
	}
	switch aud := claims["aud"].(type) {
	case string:
		id.Audience = aud
	case []any:
		if len(aud) == 1 {
			id.Audience, _ = aud[0].(string)
		}
	}
	if id.Audience == "" {
		return id, &TokenError{"the OIDC token's aud must be a non-empty string or a one-element array"}
	}
	iat, ok := claims["iat"].(float64)
	if !ok {
		return id, &TokenError{"the OIDC token has no numeric iat"}
	}
	issued := time.Unix(0, int64(iat*1e9))
	if issued.After(now.Add(OIDCSkew)) || now.Sub(issued) > OIDCMaxAge+OIDCSkew {
		return id, &TokenError{fmt.Sprintf("the OIDC token's iat must be within %d seconds before the request", int(OIDCMaxAge.Seconds()))}
	}
	exp, ok := claims["exp"].(float64)
	if !ok || !time.Unix(0, int64(exp*1e9)).After(now) {
		return id, &TokenError{"the OIDC token is expired (exp)"}
	}
	if clientPublicKey != "" {
		nonce, _ := claims["nonce"].(string)
		if nonce != Nonce(clientPublicKey) {
			return id, &TokenError{"the OIDC token's nonce is not the SHA-256 of clientPublicKey"}
		}
	}
	return id, nil
}

// Nonce is the nonce an OIDC token must carry for clientPublicKey: the hex
// SHA-256 of the key's hex string as sent.
func Nonce(clientPublicKey string) string {
	h := sha256.Sum256([]byte(clientPublicKey))
	return hex.EncodeToString(h[:])
}

func supportedIssuer(iss string) bool {
	for _, s := range OIDCIssuers {
		if s == iss {
			return true
		}
	}
	return false
}

// OIDCKeys finds an issuer's public key by the token header's kid (a JWKS
// lookup, typically cached by the caller).
type OIDCKeys func(issuer, kid string) (crypto.PublicKey, error)

// VerifyOIDCSignature checks a token's signature (RS256 or ES256) with the
// key keys finds for its issuer and kid. Any failure is a TokenError.
func VerifyOIDCSignature(token string, keys OIDCKeys) error {
	p := jwt.NewParser(jwt.WithValidMethods([]string{"RS256", "ES256"}), jwt.WithoutClaimsValidation())
	_, err := p.Parse(token, func(tk *jwt.Token) (any, error) {
		iss, _ := tk.Claims.(jwt.MapClaims)["iss"].(string)
		kid, _ := tk.Header["kid"].(string)
		return keys(iss, kid)
	})
	if err != nil {
		return &TokenError{"the OIDC token's signature does not verify with the issuer's key"}
	}
	return nil
}
