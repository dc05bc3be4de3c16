package payments

import (
	"context"
	"crypto/ecdh"
	"encoding/hex"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
	"github.com/paygrid/payments/walletauth"
)

// CredentialChallenge answers POST /auth/credentials/{id}/challenge: for
// OTP credentials the AuthMethod with a fresh otpEncryptionTargetBundle,
// for passkeys the WebAuthn challenge with its requestId (reference
// AuthCredentialResponseOneOf).
type CredentialChallenge struct {
	AuthMethod
	OtpEncryptionTargetBundle string     `json:"otpEncryptionTargetBundle,omitempty"`
	Challenge                 string     `json:"challenge,omitempty"`
	RequestID                 string     `json:"requestId,omitempty"`
	ExpiresAt                 *time.Time `json:"expiresAt,omitempty"`
}

// ChallengeRequest is the body of a credential challenge: a passkey's
// clientPublicKey, the key the session will sign with.
type ChallengeRequest struct {
	ClientPublicKey string `json:"clientPublicKey,omitempty"`
}

// checkClientKey validates a clientPublicKey: a compressed (02/03) or, for
// the legacy flow, uncompressed (04) P-256 key in hex.
func checkClientKey(fe *validate.Errors, field, key string) bool {
	if !fe.Required(field, key) {
		return false
	}
	if _, _, err := walletauth.ParsePublicKey(key); err != nil {
		fe.Add(field, &validate.Constraint{Pattern: "^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$"}, "%s must be a P-256 public key in SEC1 hex, compressed (02/03) or uncompressed (04)", field)
		return false
	}
	return true
}

// Challenge starts the authentication of a credential. OTP: a new code
// (sent, or the sandbox's fixed one) and the HPKE target to seal it to;
// refused with 429 RATE_LIMITED (details.retryAfterSeconds) while the
// credential is locked after wrong codes (WalletOTPAttempts) or when
// challenges come too often (WalletOTPResendInterval,
// WalletOTPChallengesPerHour).
// PASSKEY: the session-creation payload for clientPublicKey, whose hex
// SHA-256 is the WebAuthn challenge. OAUTH has no challenge step.
func (w Wallets) Challenge(ctx context.Context, id string, req ChallengeRequest) (*CredentialChallenge, error) {
	e := w.e
	d, err := drawWallet(e)
	if err != nil {
		return nil, err
	}
	var out *CredentialChallenge
	err = e.Update(ctx, func(t *engine.Txn) error {
		c, err := credential(t, id)
		if err != nil {
			return err
		}
		out = &CredentialChallenge{AuthMethod: c.AuthMethod}
		switch c.Type {
		case CredentialOAuth:
			return engine.Invalid(validate.Errors{{Field: "id", Message: "OAUTH credentials have no challenge step; verify with a fresh oidcToken"}})
		case CredentialPasskey:
			var fe validate.Errors
			if !checkClientKey(&fe, "clientPublicKey", req.ClientPublicKey) {
				return engine.Invalid(fe)
			}
			ch, _, err := challenge(t, signedOp{op: "passkey.login", target: c.ID, accountID: c.AccountID, body: nil,
				activity: "CREATE_READ_WRITE_SESSION_V2", params: map[string]any{"targetPublicKey": req.ClientPublicKey,
					"expirationSeconds": int(WalletSessionTTL.Seconds())}, data: map[string]string{"clientPublicKey": req.ClientPublicKey}})
			if err != nil {
				return err
			}
			out.Challenge, out.RequestID, out.ExpiresAt = walletauth.Digest([]byte(ch.PayloadToSign)), ch.RequestID, &ch.ExpiresAt
			return nil
		}
		if err := otpLocked(t, c); err != nil {
			return err
		}
		if err := countOTPChallenge(t, c); err != nil {
			return err
		}
		cust, err := customer(t, c.CustomerID)
		if err != nil {
			return err
		}
		out.OtpEncryptionTargetBundle, err = issueOTP(t, c, d, cust)
		out.UpdatedAt = c.UpdatedAt
		return err
	})
	return out, err
}

// VerifyRequest completes a credential's authentication (reference
// AuthCredentialVerifyRequestOneOf).
type VerifyRequest struct {
	Type               string                `json:"type"`
	EncryptedOtpBundle string                `json:"encryptedOtpBundle,omitempty"`
	OidcToken          string                `json:"oidcToken,omitempty"`
	ClientPublicKey    string                `json:"clientPublicKey,omitempty"`
	Assertion          *walletauth.Assertion `json:"assertion,omitempty"`
}

func (req *VerifyRequest) check() error {
	var fe validate.Errors
	if fe.Required("type", req.Type) && fe.Enum("type", req.Type, CredentialTypes...) {
		switch req.Type {
		case CredentialEmailOTP, CredentialSmsOTP:
			fe.Required("encryptedOtpBundle", req.EncryptedOtpBundle)
		case CredentialOAuth:
			fe.Required("oidcToken", req.OidcToken)
			checkClientKey(&fe, "clientPublicKey", req.ClientPublicKey)
		case CredentialPasskey:
			if a := req.Assertion; a == nil {
				fe.Add("assertion", nil, "assertion is required")
			} else {
				fe.Required("assertion.credentialId", a.CredentialID)
				fe.Required("assertion.clientDataJson", a.ClientDataJSON)
				fe.Required("assertion.authenticatorData", a.AuthenticatorData)
				fe.Required("assertion.signature", a.Signature)
			}
		}
	}
	return engine.Invalid(fe.Err())
}

// Verify completes a credential's authentication and opens a session.
// OTP is two legs: the sealed attempt answers a challenge (the session is
// nil) whose payload the client's key (the TEK sealed in the attempt)
// signs; the signed retry opens the session with that key. PASSKEY: the
// assertion over the challenge's hex digest, with the challenge's
// requestId as Request-Id. OAUTH: a fresh token whose iss, aud and sub are
// the registered ones and whose nonce is the SHA-256 of clientPublicKey.
// An uncompressed clientPublicKey selects the legacy flow: the session key
// is made here and sealed to it (encryptedSessionSigningKey).
func (w Wallets) Verify(ctx context.Context, id string, req VerifyRequest, sig Signature) (*AuthSession, *SignedChallenge, error) {
	e := w.e
	if err := req.check(); err != nil {
		return nil, nil, err
	}
	var identity walletauth.Identity
	if req.Type == CredentialOAuth {
		var err error
		if identity, err = checkOIDC(e, req.OidcToken, req.ClientPublicKey); err != nil {
			return nil, nil, err
		}
	}
	if req.Type == CredentialPasskey && sig.RequestID == "" {
		return nil, nil, engine.Errorf(engine.CodeRequestIDMissing, "a passkey verification needs the Request-Id header with the challenge's requestId")
	}
	d, err := drawWallet(e)
	if err != nil {
		return nil, nil, err
	}
	var s *sessionRecord
	var ch *SignedChallenge
	var clientKey string
	var failure error
	// A wrong OTP is answered as failure while its count commits.
	err = e.Update(ctx, func(t *engine.Txn) error {
		s, ch, clientKey, failure = nil, nil, "", nil
		c, err := credential(t, id)
		if err != nil {
			return err
		}
		if c.Type != req.Type {
			return engine.Invalid(validate.Errors{{Field: "type", Message: "credential " + id + " is " + c.Type}})
		}
		switch c.Type {
		case CredentialOAuth:
			if c.Identity == nil || c.Identity.Issuer != identity.Issuer || c.Identity.Audience != identity.Audience || c.Identity.Subject != identity.Subject {
				return engine.Errorf(engine.CodeUnauthorized, "the OIDC token's iss, aud and sub are not the credential's")
			}
			clientKey = req.ClientPublicKey
		case CredentialPasskey:
			if clientKey, err = assertPasskey(t, c, req.Assertion, sig.RequestID); err != nil {
				return err
			}
		default:
			if sig.Stamp == "" && sig.RequestID == "" {
				ch, failure, err = otpAttempt(t, c, req)
				return err
			}
			_, p, err := signed(t, sig, signedOp{op: "otp.login", target: c.ID, body: req})
			if err != nil {
				return err
			}
			clientKey = p.Signer
		}
		s, err = openClientSession(t, c, clientKey, d)
		return err
	})
	if err != nil || failure != nil || ch != nil {
		return nil, ch, firstErr(err, failure)
	}
	return sessionAnswer(s, clientKey, d)
}

// sessionAnswer is the session a login or refresh opened; in the legacy
// flow it carries the session key sealed to the client's key (sealed after
// commit: HPKE draws randomness).
func sessionAnswer(s *sessionRecord, clientKey string, d *walletDraws) (*AuthSession, *SignedChallenge, error) {
	out := s.AuthSession
	if legacy(clientKey) {
		var err error
		if out.EncryptedSessionSigningKey, err = sealSessionKey(clientKey, d.session); err != nil {
			return nil, nil, err
		}
	}
	return &out, nil, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// legacy reports whether a client key selects the legacy flow.
func legacy(clientKey string) bool { return len(clientKey) == 130 }

// openClientSession opens a session for c: signed by clientKey, or in the
// legacy flow by the session key drawn in d.
func openClientSession(t *engine.Txn, c *credentialRecord, clientKey string, d *walletDraws) (*sessionRecord, error) {
	key := clientKey
	if legacy(clientKey) {
		sk, err := ecdh.P256().NewPrivateKey(d.session)
		if err != nil {
			return nil, err
		}
		key = hex.EncodeToString(walletauth.CompressPoint(sk.PublicKey().Bytes()))
	} else if pub, _, err := walletauth.ParsePublicKey(clientKey); err == nil {
		key, _ = walletauth.CompressedKey(pub)
	}
	return openSession(t, c, key)
}

// sealSessionKey seals a legacy session's private scalar to the client's
// uncompressed key.
func sealSessionKey(clientKey string, scalar []byte) (string, error) {
	pub, err := hex.DecodeString(clientKey)
	if err != nil {
		return "", err
	}
	return walletauth.SealSessionKey(pub, scalar)
}

// otpAttempt checks the first leg of an OTP login: the sealed attempt
// opens with the challenge's target key, has not expired, and carries the
// code. A right code ends the challenge, clears the credential's count of
// wrong codes and issues the signed retry bound to the attempt's key; a
// wrong one counts against the credential, across challenges, and may lock
// it (otpWrongCode; failure, committed).
func otpAttempt(t *engine.Txn, c *credentialRecord, req VerifyRequest) (*SignedChallenge, error, error) {
	if err := otpLocked(t, c); err != nil {
		return nil, err, nil
	}
	o := c.OTP
	if o == nil || !t.Now.Before(o.ExpiresAt) {
		return nil, engine.Errorf(engine.CodeUnauthorized, "no OTP challenge is outstanding for this credential; request one with /challenge"), nil
	}
	target, err := ecdh.P256().NewPrivateKey(o.TargetKey)
	if err != nil {
		return nil, nil, err
	}
	att, err := walletauth.OpenOTP(target, req.EncryptedOtpBundle)
	if err != nil {
		return nil, engine.Invalid(validate.Errors{{Field: "encryptedOtpBundle", Message: "encryptedOtpBundle does not open with the current otpEncryptionTargetBundle"}}), nil
	}
	if !constantEqual(hashSecret(att.Code), o.CodeHash) {
		failure := otpWrongCode(t, c)
		return nil, failure, engine.PutJSON(t, tableWalletCredentials, c.ID, c)
	}
	c.OTP, c.Failures = nil, nil
	if err := engine.PutJSON(t, tableWalletCredentials, c.ID, c); err != nil {
		return nil, nil, err
	}
	key, _, _ := walletauth.ParsePublicKey(att.PublicKey)
	tek, _ := walletauth.CompressedKey(key)
	ch, _, err := challenge(t, signedOp{op: "otp.login", target: c.ID, accountID: c.AccountID, body: req, activity: "OTP_LOGIN",
		params: map[string]any{"publicKey": tek, "credentialId": c.ID}, typ: c.Type, signer: tek})
	return ch, nil, err
}

// assertPasskey checks a passkey assertion against the pending login
// requestID and returns the login's client key. The sandbox still accepts
// the legacy literal signature.
func assertPasskey(t *engine.Txn, c *credentialRecord, a *walletauth.Assertion, requestID string) (string, error) {
	var p pendingRequest
	if err := engine.GetJSON(t, tableWalletRequests, requestID, &p); err != nil || p.Op != "passkey.login" || p.Target != c.ID || !t.Now.Before(p.ExpiresAt) {
		return "", engine.Errorf(engine.CodeUnauthorized, "Request-Id %q does not match an unexpired passkey challenge of this credential", requestID)
	}
	if !(t.Handle.Config.Sandbox && a.Signature == LegacyPasskeySignature) {
		if a.CredentialID != c.CredentialID {
			return "", engine.Errorf(engine.CodeUnauthorized, "the assertion is for another passkey")
		}
		count, err := walletRelyingParty(t.Handle).Assert(*c.Passkey, []byte(walletauth.Digest([]byte(p.Payload))), *a)
		if err != nil {
			return "", passkeyRefused("assertion", err)
		}
		c.Passkey.SignCount, c.UpdatedAt = count, t.Now
		if err := engine.PutJSON(t, tableWalletCredentials, c.ID, c); err != nil {
			return "", err
		}
	}
	return p.Data["clientPublicKey"], t.Delete(tableWalletRequests, p.ID)
}

// Sessions lists a wallet's active sessions; an unknown account has none.
func (w Wallets) Sessions(ctx context.Context, accountID string) ([]AuthSession, error) {
	if accountID == "" {
		return nil, engine.Invalid(validate.Errors{{Field: "accountId", Message: "accountId is required"}})
	}
	out := []AuthSession{}
	err := w.e.View(ctx, func(t *engine.Txn) error {
		out = out[:0]
		ss, err := sessions(t, accountID)
		for _, s := range ss {
			out = append(out, s.AuthSession)
		}
		return err
	})
	return out, err
}

// RevokeSession ends a session, a signed flow any active session of the
// wallet signs (itself included). SESSION_NOT_FOUND when it is not active.
func (w Wallets) RevokeSession(ctx context.Context, id string, sig Signature) (*SignedChallenge, error) {
	var ch *SignedChallenge
	err := w.e.Update(ctx, func(t *engine.Txn) error {
		s, err := session(t, id)
		if err != nil {
			return err
		}
		ch, _, err = signed(t, sig, signedOp{op: "session.revoke", target: id, accountID: s.AccountID, activity: "DELETE_API_KEYS",
			params: map[string]any{"apiKeyIds": []string{id}}, typ: s.Type})
		if ch != nil || err != nil {
			return err
		}
		return endSession(t, s)
	})
	return ch, err
}

func endSession(t *engine.Txn, s *sessionRecord) error {
	s.Revoked, s.UpdatedAt = true, t.Now
	return engine.PutJSON(t, tableWalletSessions, s.ID, s)
}

// RefreshRequest is the body of a session refresh.
type RefreshRequest struct {
	ClientPublicKey string `json:"clientPublicKey"`
}

// RefreshSession opens a new session for clientPublicKey, a signed flow
// the session being refreshed signs; it must be active on both legs.
func (w Wallets) RefreshSession(ctx context.Context, id string, req RefreshRequest, sig Signature) (*AuthSession, *SignedChallenge, error) {
	e := w.e
	var fe validate.Errors
	if !checkClientKey(&fe, "clientPublicKey", req.ClientPublicKey) {
		return nil, nil, engine.Invalid(fe)
	}
	d, err := drawWallet(e)
	if err != nil {
		return nil, nil, err
	}
	var ns *sessionRecord
	var ch *SignedChallenge
	err = e.Update(ctx, func(t *engine.Txn) error {
		ns, ch = nil, nil
		s, err := session(t, id)
		if err != nil {
			return err
		}
		ch, _, err = signed(t, sig, signedOp{op: "session.refresh", target: id, accountID: s.AccountID, body: req,
			activity: "CREATE_READ_WRITE_SESSION_V2", params: map[string]any{"targetPublicKey": req.ClientPublicKey}, signer: s.PublicKey})
		if ch != nil || err != nil {
			return err
		}
		c, err := credential(t, s.AuthMethodID)
		if err != nil {
			return err
		}
		ns, err = openClientSession(t, c, req.ClientPublicKey, d)
		return err
	})
	if err != nil || ch != nil {
		return nil, ch, err
	}
	return sessionAnswer(ns, req.ClientPublicKey, d)
}
