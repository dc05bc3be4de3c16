package wallets

import (
	"context"
	"crypto/ecdh"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
	"github.com/paygrid/payments/walletauth"
)

// CreateCredentialRequest registers a credential on an embedded wallet
// (reference AuthCredentialCreateRequestOneOf). The members a type needs
// are named beside them; an OTP credential needs none, since it is tied to
// the customer's own email or phone.
type CreateCredentialRequest struct {
	Type        string                  `json:"type"`
	AccountID   string                  `json:"accountId"`
	OidcToken   string                  `json:"oidcToken,omitempty"`   // OAUTH
	Nickname    string                  `json:"nickname,omitempty"`    // PASSKEY
	Challenge   string                  `json:"challenge,omitempty"`   // PASSKEY: base64url
	Attestation *walletauth.Attestation `json:"attestation,omitempty"` // PASSKEY
}

// CredentialTypes are the credential types, as the strings
// validate.Errors.Enum takes.
var CredentialTypes = []string{CredentialOAuth, CredentialEmailOTP, CredentialSmsOTP, CredentialPasskey}

// check lists every invalid member of req at once (INVALID_INPUT), and
// trims the nickname it keeps.
func (req *CreateCredentialRequest) check() error {
	var fe validate.Errors
	if fe.Required("type", req.Type) {
		fe.Enum("type", req.Type, CredentialTypes...)
	}
	fe.Required("accountId", req.AccountID)
	switch req.Type {
	case CredentialOAuth:
		fe.Required("oidcToken", req.OidcToken)
	case CredentialPasskey:
		req.Nickname = strings.TrimSpace(req.Nickname)
		if fe.Required("nickname", req.Nickname) {
			fe.MaxLen("nickname", req.Nickname, 100)
		}
		if fe.Required("challenge", req.Challenge) {
			if _, err := decode64url(req.Challenge); err != nil {
				fe.Add("challenge", nil, "challenge must be base64url")
			}
		}
		if a := req.Attestation; a == nil {
			fe.Add("attestation", nil, "attestation is required")
		} else {
			fe.Required("attestation.credentialId", a.CredentialID)
			fe.Required("attestation.clientDataJson", a.ClientDataJSON)
			fe.Required("attestation.attestationObject", a.AttestationObject)
			for i, tr := range a.Transports {
				fe.Enum("attestation.transports."+strconv.Itoa(i), tr, "usb", "nfc", "ble", "internal", "hybrid")
			}
		}
	}
	return engine.Invalid(fe.Err())
}

// decode64url decodes base64url with or without padding, as clients send
// WebAuthn challenges either way.
func decode64url(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// checkOIDC checks an OIDC token by the sandbox's claim rules and, with
// Options.OIDCKeys, its signature; outside the sandbox a signature must be
// verifiable. It reads no store, and runs before the operation's
// transaction. clientKey, when set, must be what the token's nonce commits
// to (a login; a registration passes "").
func checkOIDC(e *engine.Handle, token, clientKey string) (walletauth.Identity, error) {
	id, err := walletauth.CheckOIDC(token, e.Now(), clientKey)
	if err != nil {
		return id, oidcError(err, "oidcToken")
	}
	switch {
	case walletsSlot.Of(e).OIDCKeys != nil:
		if err := walletauth.VerifyOIDCSignature(token, walletsSlot.Of(e).OIDCKeys); err != nil {
			return id, oidcError(err, "oidcToken")
		}
	case !e.Config.Sandbox:
		return id, engine.Errorf(engine.CodeUnauthorized, "the OIDC token's signature cannot be verified: the service has no issuer keys (Config.OIDCKeys)")
	}
	return id, nil
}

// oidcError maps a token check failure: malformed or an unsupported issuer
// is 400 on field, any other failed check 401 naming it.
func oidcError(err error, field string) error {
	var te *walletauth.TokenError
	if errors.As(err, &te) {
		return engine.Errorf(engine.CodeUnauthorized, "%s", strings.TrimPrefix(te.Reason, "walletauth: "))
	}
	return engine.Invalid(validate.Errors{{Field: field, Message: "the OIDC token is not a JWT from a supported issuer"}})
}

// CreateCredential registers a credential. The wallet's first credential
// is registered at once; any further one is a signed flow: the first call
// answers the challenge (the AuthMethod is nil), the signed retry
// registers it. OTP credentials start an OTP challenge
// (otpEncryptionTargetBundle). Passkeys are verified with WebAuthn against
// the engine's relying party; OAuth tokens by the hosted sandbox's rules
// (walletauth.CheckOIDC).
//
// INVALID_INPUT for a bad body, a customer without the contact an OTP
// credential needs, or a passkey challenge already used;
// ACCOUNT_NOT_FOUND when the account is not an embedded wallet;
// UNAUTHORIZED for a passkey or OIDC token that does not verify;
// EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS, SMS_OTP_CREDENTIAL_ALREADY_EXISTS
// (one of each per wallet), EMAIL_OTP_EMAIL_ALREADY_EXISTS,
// SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS, PASSKEY_CREDENTIAL_ALREADY_EXISTS
// and PASSKEY_ALREADY_ENROLLED (one passkey per customer); and the
// signed-retry codes. The uniqueness checks and the claims that keep them
// are in the registering transaction, so two concurrent registrations of
// one contact or passkey cannot both succeed.
//
// With an idempotency key each leg records its answer in its transaction,
// and a retry of the leg replays it before the token or passkey is checked
// again (Signature.leg tells the legs apart).
func (w Service) CreateCredential(ctx context.Context, req CreateCredentialRequest, sig Signature) (*AuthMethodResponse, *SignedChallenge, error) {
	out, err := engine.Run(ctx, w.e, createCredential, walletCall[CreateCredentialRequest]{body: req, sig: sig, fp: []any{req, sig.leg()}})
	return out.Result, out.Challenge, err
}

// credentialDraft is what a credential registration gathers before its
// transaction: the credential checked (an OIDC token's identity, a
// passkey's attestation), the activity its payloadToSign binds, and the
// wallet's random draws.
type credentialDraft struct {
	c            *credentialRecord
	params       map[string]any
	activityType string
	d            *walletDraws
}

// createCredential is Service.CreateCredential's operation. Every run of
// Decide starts from nothing it set before: a store may run it more than
// once.
var createCredential = engine.Op[walletCall[CreateCredentialRequest], signedAnswer[AuthMethodResponse], credentialDraft]{Area: "wallets", Name: "CreateCredential",
	Validate: func(in *walletCall[CreateCredentialRequest]) error { return in.body.check() },
	Prefetch: func(_ context.Context, e *engine.Handle, in *walletCall[CreateCredentialRequest], f *credentialDraft, _ error) error {
		req := in.body
		c := &credentialRecord{AuthMethod: AuthMethod{Type: req.Type, Nickname: req.Nickname}}
		switch req.Type {
		case CredentialOAuth:
			id, err := checkOIDC(e, req.OidcToken, "")
			if err != nil {
				return err
			}
			c.Identity, c.Nickname = &id, id.Email
			if c.Nickname == "" {
				c.Nickname = id.Subject
			}
			f.activityType, f.params = "CREATE_OAUTH_PROVIDERS", map[string]any{"oauthProviders": []any{map[string]any{"oidcToken": req.OidcToken, "providerName": id.Issuer}}}
		case CredentialPasskey:
			challenge, _ := decode64url(req.Challenge)
			pk, err := walletRelyingParty(e).Register(challenge, *req.Attestation)
			if err != nil {
				return passkeyRefused("attestation", err)
			}
			c.Passkey, c.CredentialID = &pk, pk.IDString()
			f.activityType, f.params = "CREATE_AUTHENTICATORS_V2", map[string]any{"authenticators": []any{map[string]any{
				"attestation": req.Attestation, "authenticatorName": req.Nickname, "challenge": req.Challenge}}}
		}
		f.c = c
		var err error
		f.d, err = drawWallet(e)
		return err
	},
	Decide: func(t *engine.Txn, in *walletCall[CreateCredentialRequest], f *credentialDraft) (out signedAnswer[AuthMethodResponse], err error) {
		req, sig, c, params, activityType, d := in.body, in.sig, f.c, f.params, f.activityType, f.d
		err = func() error {
			out = signedAnswer[AuthMethodResponse]{}
			a, err := walletAccount(t, req.AccountID)
			if err != nil {
				return err
			}
			cust, err := customers.Get(t, a.CustomerID)
			if err != nil {
				return err
			}
			existing, err := credentials(t, a.ID)
			if err != nil {
				return err
			}
			cc := *c
			if err := checkNewCredential(t, &cc, cust, existing, req.Challenge); err != nil {
				return err
			}
			if len(existing) > 0 {
				activityType, params := activityType, params
				if params == nil { // OTP: the contact it ties
					activityType, params = otpActivity(cc.Type, cc.Contact)
				}
				out.Challenge, _, err = signed(t, sig, signedOp{op: "credential.create", target: a.ID, accountID: a.ID, body: req,
					activity: activityType, params: params, typ: req.Type})
				if out.Challenge != nil || err != nil {
					return err
				}
			}
			rec, err := addCredential(t, a, cust, &cc)
			if err != nil {
				return err
			}
			m := &AuthMethodResponse{AuthMethod: rec.AuthMethod}
			if rec.Passkey != nil {
				if err := t.Insert(tableWalletPasskeyChallenges, req.Challenge, []byte(rec.ID)); err != nil {
					return err
				}
			}
			if rec.isOTP() {
				m.OtpEncryptionTargetBundle, err = issueOTP(t, rec, d, cust)
			}
			out.Result = m
			return err
		}()
		return out, err
	}}

// otpActivity is the activity type and parameters that a payloadToSign
// binds when an OTP credential is tied to contact.
func otpActivity(typ, contact string) (string, map[string]any) {
	if typ == CredentialEmailOTP {
		return "UPDATE_USER_EMAIL", map[string]any{"userEmail": contact}
	}
	return "UPDATE_USER_PHONE_NUMBER", map[string]any{"userPhoneNumber": contact}
}

// isOTP reports whether c is an EMAIL_OTP or SMS_OTP credential.
func (c *credentialRecord) isOTP() bool {
	return c.Type == CredentialEmailOTP || c.Type == CredentialSmsOTP
}

// checkNewCredential applies the credentials' uniqueness rules to c, to
// be added to a wallet that has existing: one EMAIL_OTP and one SMS_OTP per
// wallet, tied to the customer's email or phone, which no other wallet's
// OTP credential may hold; a WebAuthn credential id and a registration
// challenge once; one passkey per customer.
func checkNewCredential(t *engine.Txn, c *credentialRecord, cust *customers.Customer, existing []*credentialRecord, challenge string) error {
	for _, x := range existing {
		if x.Type == c.Type && c.Type == CredentialEmailOTP {
			return engine.Errorf(CodeEmailOtpCredentialAlreadyExists, "the wallet already has an EMAIL_OTP credential")
		}
		if x.Type == c.Type && c.Type == CredentialSmsOTP {
			return engine.Errorf(CodeSmsOtpCredentialAlreadyExists, "the wallet already has an SMS_OTP credential")
		}
	}
	var fe validate.Errors
	switch c.Type {
	case CredentialEmailOTP:
		if c.Contact, c.Nickname = cust.Email, cust.Email; c.Contact == "" {
			fe.Add("type", nil, "the customer has no email for an EMAIL_OTP credential")
			return engine.Invalid(fe)
		}
		if _, err := t.Get(tableWalletEmails, c.Contact); err == nil {
			return engine.Errorf(CodeEmailOtpEmailAlreadyExists, "email %s is already tied to an EMAIL_OTP credential", c.Contact)
		}
	case CredentialSmsOTP:
		if c.Contact, c.Nickname = cust.PhoneNumber, cust.PhoneNumber; c.Contact == "" {
			fe.Add("type", nil, "the customer has no phone number for an SMS_OTP credential")
			return engine.Invalid(fe)
		}
		if _, err := t.Get(tableWalletPhones, c.Contact); err == nil {
			return engine.Errorf(CodeSmsOtpPhoneNumberAlreadyExists, "phone number %s is already tied to an SMS_OTP credential", c.Contact)
		}
	case CredentialPasskey:
		if _, err := t.Get(tableWalletPasskeys, c.CredentialID); err == nil {
			return engine.Errorf(CodePasskeyCredentialAlreadyExists, "passkey %s is already registered", c.CredentialID)
		}
		if _, err := t.Get(tableWalletPasskeyChallenges, challenge); err == nil {
			return engine.Invalid(validate.Errors{{Field: "challenge", Message: "the registration challenge was already used"}})
		}
		if has, err := customerHasPasskey(t, cust.ID); err != nil || has {
			return firstErr(err, engine.Errorf(engine.CodePasskeyAlreadyEnrolled, "the customer already has a passkey; one per customer"))
		}
	}
	return nil
}

// addCredential stores c on wallet a with its claims. An EMAIL_OTP
// credential gets the customer's email when it has no contact yet (the
// one Provision opens). The claim is a Put: the caller checked it is free.
func addCredential(t *engine.Txn, a *accounts.InternalAccount, cust *customers.Customer, c *credentialRecord) (*credentialRecord, error) {
	if c.Type == CredentialEmailOTP && c.Contact == "" {
		c.Contact, c.Nickname = cust.Email, cust.Email
	}
	c.ID, c.AccountID, c.CustomerID, c.CreatedAt, c.UpdatedAt = t.NewID("AuthMethod"), a.ID, cust.ID, t.Now, t.Now
	if err := engine.PutJSON(t, tableWalletCredentials, c.ID, c); err != nil {
		return nil, err
	}
	if err := t.Put(tableWalletCredentialsByAcct, a.ID+"|"+c.ID, []byte(c.ID)); err != nil {
		return nil, err
	}
	if table, key := c.claim(); table != "" {
		if err := t.Put(table, key, []byte(c.ID)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// claim is the unique entry a credential holds: the email, phone or
// WebAuthn id no other credential may hold; "" for OAuth.
func (c *credentialRecord) claim() (table, key string) {
	switch c.Type {
	case CredentialEmailOTP:
		return tableWalletEmails, c.Contact
	case CredentialSmsOTP:
		return tableWalletPhones, c.Contact
	case CredentialPasskey:
		return tableWalletPasskeys, c.CredentialID
	}
	return "", ""
}

// issueOTP starts an OTP challenge on c and returns its target bundle. The
// code goes to the contact after commit; the sandbox's is fixed and not
// sent. Only the code's hash is stored; a new challenge replaces the
// previous one, whose code then no longer opens a session.
func issueOTP(t *engine.Txn, c *credentialRecord, d *walletDraws, cust *customers.Customer) (string, error) {
	target, err := ecdh.P256().NewPrivateKey(d.target)
	if err != nil {
		return "", err
	}
	p, err := platform.Load(t)
	if err != nil {
		return "", err
	}
	ttl := WalletOTPTTL
	if w := p.EmbeddedWalletConfig; w != nil && w.ExpirationSeconds > 0 {
		ttl = time.Duration(w.ExpirationSeconds) * time.Second
	}
	code := d.otpCode(t.Handle.Config.Sandbox, p.EmbeddedWalletConfig)
	c.OTP = &otpChallenge{TargetKey: d.target, CodeHash: engine.HashSecret(code), ExpiresAt: t.Now.Add(ttl)}
	c.UpdatedAt = t.Now
	if err := engine.PutJSON(t, tableWalletCredentials, c.ID, c); err != nil {
		return "", err
	}
	if !t.Handle.Config.Sandbox {
		channel := customers.ChannelEmail
		if c.Type == CredentialSmsOTP {
			channel = customers.ChannelPhone
		}
		if err := customers.IntendCode(t, customers.CodeMessage{ID: c.ID + ":" + t.NewID("Code"), CustomerID: cust.ID, Channel: channel,
			To: c.Contact, Code: code, Purpose: "WALLET_LOGIN"}); err != nil {
			return "", err
		}
	}
	return walletauth.TargetBundle(target.PublicKey()), nil
}

// Credentials lists a wallet's credentials, oldest first; an unknown
// account has none (an empty list, not NOT_FOUND). INVALID_INPUT without
// an account id.
func (w Service) Credentials(ctx context.Context, accountID string) ([]AuthMethod, error) {
	return engine.Run(ctx, w.e, listCredentials, accountID)
}

// listCredentials is Service.Credentials's operation.
var listCredentials = engine.Op[string, []AuthMethod, struct{}]{Area: "wallets", Name: "Credentials", Access: engine.Read,
	Validate: needAccountID,
	Decide: func(t *engine.Txn, accountID *string, _ *struct{}) ([]AuthMethod, error) {
		out := []AuthMethod{}
		cs, err := credentials(t, *accountID)
		for _, c := range cs {
			out = append(out, c.AuthMethod)
		}
		return out, err
	}}

// needAccountID refuses a listing without an account id (INVALID_INPUT).
func needAccountID(accountID *string) error {
	if *accountID == "" {
		return engine.Invalid(validate.Errors{{Field: "accountId", Message: "accountId is required"}})
	}
	return nil
}

// RevokeCredential revokes a credential and ends its sessions, a signed
// flow that a session of another credential of the wallet signs. The last
// credential cannot be revoked. The challenge is nil once revoked.
// AUTH_METHOD_NOT_FOUND for an unknown credential, INVALID_INPUT for the
// last one, and the signed-retry codes (WALLET_SIGNATURE_INVALID when the
// signing session is the credential's own).
func (w Service) RevokeCredential(ctx context.Context, id string, sig Signature) (*SignedChallenge, error) {
	return engine.Run(ctx, w.e, revokeCredential, walletCall[struct{}]{id: id, sig: sig, fp: []any{id, sig.leg()}})
}

// revokeCredential is Service.RevokeCredential's operation.
var revokeCredential = engine.Op[walletCall[struct{}], *SignedChallenge, struct{}]{Area: "wallets", Name: "RevokeCredential",
	Decide: func(t *engine.Txn, in *walletCall[struct{}], _ *struct{}) (out *SignedChallenge, err error) {
		id, sig := in.id, in.sig
		err = func() error {
			out = nil
			c, err := credential(t, id)
			if err != nil {
				return err
			}
			all, err := credentials(t, c.AccountID)
			if err != nil {
				return err
			}
			if len(all) < 2 {
				return engine.Invalid(validate.Errors{{Field: "id", Message: "the wallet's last credential cannot be revoked"}})
			}
			out, _, err = signed(t, sig, signedOp{op: "credential.revoke", target: id, accountID: c.AccountID, activity: "DELETE_AUTHENTICATORS",
				params: map[string]any{"authenticatorIds": []string{id}}, typ: c.Type, exclude: id})
			if out != nil || err != nil {
				return err
			}
			return removeCredential(t, c)
		}()
		return out, err
	}}

// removeCredential deletes c, its claim and its sessions.
func removeCredential(t *engine.Txn, c *credentialRecord) error {
	if err := t.Delete(tableWalletCredentials, c.ID); err != nil {
		return err
	}
	if err := t.Delete(tableWalletCredentialsByAcct, c.AccountID+"|"+c.ID); err != nil {
		return err
	}
	if table, key := c.claim(); table != "" {
		if err := t.Delete(table, key); err != nil {
			return err
		}
	}
	ss, err := sessions(t, c.AccountID)
	if err != nil {
		return err
	}
	for _, s := range ss {
		if s.AuthMethodID == c.ID {
			if err := endSession(t, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// constantEqual compares secrets (here, code hashes) in constant time.
func constantEqual(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// customerHasPasskey reports whether any wallet of the customer has a
// passkey credential (one passkey per customer, whichever wallet).
func customerHasPasskey(t *engine.Txn, customerID string) (bool, error) {
	wallets, err := customerWallets(t, customerID)
	for _, w := range wallets {
		cs, err := credentials(t, w)
		if err != nil {
			return false, err
		}
		for _, c := range cs {
			if c.Type == CredentialPasskey {
				return true, nil
			}
		}
	}
	return false, err
}
