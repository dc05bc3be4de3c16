package wallets

import (
	"context"
	"crypto/ecdh"
	"encoding/hex"
	"errors"
	"time"

	"github.com/paygrid/payments/customers"
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
// clientPublicKey, the key the session will sign with. OTP challenges take
// no body: their client key travels sealed in the attempt.
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
// SHA-256 is the WebAuthn challenge. OAUTH has no challenge step
// (INVALID_INPUT). AUTH_METHOD_NOT_FOUND for an unknown credential.
//
// The code, its target key and the limit counters are written in one
// transaction, so concurrent challenges of one credential are all counted
// and the last one committed is the one outstanding.
//
// With an idempotency key a retry replays the first challenge (the same
// target or requestId) before anything is drawn, and no code is issued or
// sent again.
func (w Service) Challenge(ctx context.Context, id string, req ChallengeRequest) (*CredentialChallenge, error) {
	return engine.Run(ctx, w.e, challengeCredential, walletCall[ChallengeRequest]{id: id, body: req, fp: []any{id, req}})
}

// challengeCredential is Service.Challenge's operation; the wallet's
// random draws are made in Prefetch.
var challengeCredential = engine.Op[walletCall[ChallengeRequest], *CredentialChallenge, *walletDraws]{Area: "wallets", Name: "Challenge",
	Prefetch: prefetchDraws[ChallengeRequest],
	Decide: func(t *engine.Txn, in *walletCall[ChallengeRequest], f **walletDraws) (out *CredentialChallenge, err error) {
		id, req, d := in.id, in.body, *f
		err = func() error {
			out = nil
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
			cust, err := customers.Get(t, c.CustomerID)
			if err != nil {
				return err
			}
			out.OtpEncryptionTargetBundle, err = issueOTP(t, c, d, cust)
			out.UpdatedAt = c.UpdatedAt
			return err
		}()
		return out, err
	}}

// VerifyRequest completes a credential's authentication (reference
// AuthCredentialVerifyRequestOneOf).
type VerifyRequest struct {
	Type               string                `json:"type"`
	EncryptedOtpBundle string                `json:"encryptedOtpBundle,omitempty"`
	OidcToken          string                `json:"oidcToken,omitempty"`
	ClientPublicKey    string                `json:"clientPublicKey,omitempty"`
	Assertion          *walletauth.Assertion `json:"assertion,omitempty"`
}

// check lists every invalid member of req for its type at once
// (INVALID_INPUT).
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
//
// UNAUTHORIZED for a wrong OTP code (counted, and committed), an OTP with
// no outstanding challenge, an OIDC identity other than the registered
// one, or a passkey assertion that does not verify; RATE_LIMITED once the
// credential is locked (WalletOTPAttempts); REQUEST_ID_MISSING for a
// passkey verification without the challenge's requestId; INVALID_INPUT
// for a bad body, a type other than the credential's, or an
// encryptedOtpBundle that does not open; AUTH_METHOD_NOT_FOUND for an
// unknown credential.
//
// With an idempotency key each leg records its answer, a wrong code's
// refusal included, and a retry of the leg replays it before the token is
// checked again: the same challenge, or the same session (its sealed key
// included: it is sealed before the transaction, to the client key the
// request names).
func (w Service) Verify(ctx context.Context, id string, req VerifyRequest, sig Signature) (*AuthSession, *SignedChallenge, error) {
	out, err := engine.Run(ctx, w.e, verifyCredential, walletCall[VerifyRequest]{id: id, body: req, sig: sig, fp: []any{id, req, sig.leg()}})
	return out.Session, out.Challenge, err
}

// verified is what a verification gathers before its transaction: the
// OIDC token's identity and the wallet's draws, the session key sealed.
type verified struct {
	identity walletauth.Identity
	d        *walletDraws
}

// verifyCredential is Service.Verify's operation. A wrong OTP is answered
// as a kept refusal while its count commits.
var verifyCredential = engine.Op[walletCall[VerifyRequest], sessionAnswer, verified]{Area: "wallets", Name: "Verify",
	Validate: func(in *walletCall[VerifyRequest]) error {
		if err := in.body.check(); err != nil {
			return err
		}
		if in.body.Type == CredentialPasskey && in.sig.RequestID == "" {
			return engine.Errorf(CodeRequestIDMissing, "a passkey verification needs the Request-Id header with the challenge's requestId")
		}
		return nil
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, in *walletCall[VerifyRequest], f *verified, _ error) (err error) {
		req := in.body
		if req.Type == CredentialOAuth {
			if f.identity, err = checkOIDC(e, req.OidcToken, req.ClientPublicKey); err != nil {
				return err
			}
		}
		if f.d, err = drawWallet(e); err != nil {
			return err
		}
		switch req.Type {
		case CredentialOAuth:
			return f.d.sealFor(req.ClientPublicKey)
		case CredentialPasskey:
			return sealForLogin(ctx, e, f.d, in.sig.RequestID)
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *walletCall[VerifyRequest], f *verified) (out sessionAnswer, err error) {
		id, req, sig, identity, d := in.id, in.body, in.sig, f.identity, f.d
		var failure error
		err = func() error {
			out = sessionAnswer{}
			c, err := credential(t, id)
			if err != nil {
				return err
			}
			if c.Type != req.Type {
				return engine.Invalid(validate.Errors{{Field: "type", Message: "credential " + id + " is " + c.Type}})
			}
			var clientKey string
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
					out.Challenge, failure, err = otpAttempt(t, c, req)
					return err
				}
				_, p, err := signed(t, sig, signedOp{op: "otp.login", target: c.ID, body: req})
				if err != nil {
					return err
				}
				clientKey = p.Signer
			}
			s, err := openClientSession(t, c, clientKey, d)
			if err != nil {
				return err
			}
			return out.set(s, clientKey, d)
		}()
		if err == nil && failure != nil {
			err = engine.Keep(failure)
		}
		return out, err
	},
	Answer: answerSession[VerifyRequest, verified]}

// sessionAnswer is the answer of a login or refresh as its operation
// records it: the session opened, or the challenge of a first leg.
// AuthMethodID keeps the session's AuthMethod.ID, which the session's own
// id hides in JSON.
type sessionAnswer struct {
	Session      *AuthSession     `json:"session,omitempty"`
	AuthMethodID string           `json:"authMethodId,omitempty"`
	Challenge    *SignedChallenge `json:"challenge,omitempty"`
}

// set answers the session s opened for clientKey; in the legacy flow it
// carries the session key sealed to clientKey before the transaction
// (walletDraws.sealFor: HPKE draws randomness, and a transaction function
// must not).
func (a *sessionAnswer) set(s *sessionRecord, clientKey string, d *walletDraws) error {
	out := s.AuthSession
	if legacy(clientKey) {
		if d.sealedTo != clientKey {
			return errors.New("wallets: the session key was not sealed to the login's client key")
		}
		out.EncryptedSessionSigningKey = d.sealed
	}
	a.Session, a.AuthMethodID = &out, s.AuthMethod.ID
	return nil
}

// answerSession is the Answer of a login or refresh (Verify,
// RefreshSession): nothing but the error when there is one, else the
// answer with the session's AuthMethod id restored.
func answerSession[B, F any](_ *engine.Handle, _ *walletCall[B], _ *F, a sessionAnswer, err error) (sessionAnswer, error) {
	if err != nil {
		return sessionAnswer{}, err
	}
	if a.Session != nil {
		a.Session.AuthMethod.ID = a.AuthMethodID
	}
	return a, nil
}

// sealFor seals the session key drawn in d to clientKey when that key
// selects the legacy flow, for sessionAnswer.set.
func (d *walletDraws) sealFor(clientKey string) error {
	if !legacy(clientKey) {
		return nil
	}
	sealed, err := sealSessionKey(clientKey, d.session)
	d.sealedTo, d.sealed = clientKey, sealed
	return err
}

// sealForLogin seals d's session key for the passkey login requestID,
// to the client key its challenge stored. A pending request never changes,
// so the transaction finds the same key, or finds the request gone and
// refuses; an unknown request seals nothing, and is refused there too.
func sealForLogin(ctx context.Context, e *engine.Handle, d *walletDraws, requestID string) error {
	var p pendingRequest
	err := e.View(ctx, func(t *engine.Txn) error {
		if err := engine.GetJSON(t, tableWalletRequests, requestID, &p); !errors.Is(err, engine.ErrNotFound) {
			return err
		}
		return nil
	})
	if err != nil || p.Op != "passkey.login" {
		return err
	}
	return d.sealFor(p.Data["clientPublicKey"])
}

// firstErr returns the first non-nil error of errs.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// legacy reports whether a client key selects the legacy flow: an
// uncompressed P-256 key (04, then 128 hex digits) rather than a
// compressed one.
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
//
// It returns the challenge, the client's refusal of a wrong code
// (failure: its count commits, and the operation keeps it as its answer)
// and an error that rolls back: a refusal that writes nothing (a locked
// credential, no outstanding challenge, a bundle that does not open) is
// one, so with an idempotency key a retry runs again rather than replay
// it.
func otpAttempt(t *engine.Txn, c *credentialRecord, req VerifyRequest) (*SignedChallenge, error, error) {
	if err := otpLocked(t, c); err != nil {
		return nil, nil, err
	}
	o := c.OTP
	if o == nil || !t.Now.Before(o.ExpiresAt) {
		return nil, nil, engine.Errorf(engine.CodeUnauthorized, "no OTP challenge is outstanding for this credential; request one with /challenge")
	}
	target, err := ecdh.P256().NewPrivateKey(o.TargetKey)
	if err != nil {
		return nil, nil, err
	}
	att, err := walletauth.OpenOTP(target, req.EncryptedOtpBundle)
	if err != nil {
		return nil, nil, engine.Invalid(validate.Errors{{Field: "encryptedOtpBundle", Message: "encryptedOtpBundle does not open with the current otpEncryptionTargetBundle"}})
	}
	if !constantEqual(engine.HashSecret(att.Code), o.CodeHash) {
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

// Sessions lists a wallet's active sessions (revoked and expired ones are
// left out); an unknown account has none. INVALID_INPUT without an
// account id.
func (w Service) Sessions(ctx context.Context, accountID string) ([]AuthSession, error) {
	return engine.Run(ctx, w.e, listSessions, accountID)
}

// listSessions is Service.Sessions's operation.
var listSessions = engine.Op[string, []AuthSession, struct{}]{Area: "wallets", Name: "Sessions", Access: engine.Read,
	Validate: needAccountID,
	Decide: func(t *engine.Txn, accountID *string, _ *struct{}) ([]AuthSession, error) {
		out := []AuthSession{}
		ss, err := sessions(t, *accountID)
		for _, s := range ss {
			out = append(out, s.AuthSession)
		}
		return out, err
	}}

// RevokeSession ends a session, a signed flow any active session of the
// wallet signs (itself included). SESSION_NOT_FOUND when it is not active.
func (w Service) RevokeSession(ctx context.Context, id string, sig Signature) (*SignedChallenge, error) {
	return engine.Run(ctx, w.e, revokeSession, walletCall[struct{}]{id: id, sig: sig, fp: []any{id, sig.leg()}})
}

// revokeSession is Service.RevokeSession's operation.
var revokeSession = engine.Op[walletCall[struct{}], *SignedChallenge, struct{}]{Area: "wallets", Name: "RevokeSession",
	Decide: func(t *engine.Txn, in *walletCall[struct{}], _ *struct{}) (out *SignedChallenge, err error) {
		id, sig := in.id, in.sig
		err = func() error {
			out = nil
			s, err := session(t, id)
			if err != nil {
				return err
			}
			out, _, err = signed(t, sig, signedOp{op: "session.revoke", target: id, accountID: s.AccountID, activity: "DELETE_API_KEYS",
				params: map[string]any{"apiKeyIds": []string{id}}, typ: s.Type})
			if out != nil || err != nil {
				return err
			}
			return endSession(t, s)
		}()
		return out, err
	}}

// endSession revokes s: it stays stored, inactive, and no longer signs.
func endSession(t *engine.Txn, s *sessionRecord) error {
	s.Revoked, s.UpdatedAt = true, t.Now
	return engine.PutJSON(t, tableWalletSessions, s.ID, s)
}

// RefreshRequest is the body of a session refresh: the key the new session
// signs with (compressed, or uncompressed for the legacy flow).
type RefreshRequest struct {
	ClientPublicKey string `json:"clientPublicKey"`
}

// RefreshSession opens a new session for clientPublicKey, a signed flow
// the session being refreshed signs; it must be active on both legs
// (SESSION_NOT_FOUND otherwise). The old session stays active until it
// expires or is revoked. INVALID_INPUT for a bad key; the signed-retry
// codes. With an idempotency key each leg records its answer, and a retry
// of the leg replays it (the new session's sealed key included).
func (w Service) RefreshSession(ctx context.Context, id string, req RefreshRequest, sig Signature) (*AuthSession, *SignedChallenge, error) {
	out, err := engine.Run(ctx, w.e, refreshSession, walletCall[RefreshRequest]{id: id, body: req, sig: sig, fp: []any{id, req, sig.leg()}})
	return out.Session, out.Challenge, err
}

// refreshSession is Service.RefreshSession's operation; only a signed
// retry opens the session, so only its Prefetch seals the session key.
var refreshSession = engine.Op[walletCall[RefreshRequest], sessionAnswer, *walletDraws]{Area: "wallets", Name: "RefreshSession",
	Validate: func(in *walletCall[RefreshRequest]) error {
		var fe validate.Errors
		if !checkClientKey(&fe, "clientPublicKey", in.body.ClientPublicKey) {
			return engine.Invalid(fe)
		}
		return nil
	},
	Prefetch: func(_ context.Context, e *engine.Handle, in *walletCall[RefreshRequest], d **walletDraws, _ error) (err error) {
		if *d, err = drawWallet(e); err != nil {
			return err
		}
		if in.sig.Stamp != "" {
			return (*d).sealFor(in.body.ClientPublicKey)
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *walletCall[RefreshRequest], f **walletDraws) (out sessionAnswer, err error) {
		id, req, sig, d := in.id, in.body, in.sig, *f
		err = func() error {
			out = sessionAnswer{}
			s, err := session(t, id)
			if err != nil {
				return err
			}
			out.Challenge, _, err = signed(t, sig, signedOp{op: "session.refresh", target: id, accountID: s.AccountID, body: req,
				activity: "CREATE_READ_WRITE_SESSION_V2", params: map[string]any{"targetPublicKey": req.ClientPublicKey}, signer: s.PublicKey})
			if out.Challenge != nil || err != nil {
				return err
			}
			c, err := credential(t, s.AuthMethodID)
			if err != nil {
				return err
			}
			ns, err := openClientSession(t, c, req.ClientPublicKey, d)
			if err != nil {
				return err
			}
			return out.set(ns, req.ClientPublicKey, d)
		}()
		return out, err
	},
	Answer: answerSession[RefreshRequest, *walletDraws]}
