package payments

import (
	"context"
	"crypto/ecdh"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
	"github.com/paygrid/payments/walletauth"
)

// CreateCredentialRequest registers a credential on an embedded wallet
// (reference AuthCredentialCreateRequestOneOf).
type CreateCredentialRequest struct {
	Type        string                  `json:"type"`
	AccountID   string                  `json:"accountId"`
	OidcToken   string                  `json:"oidcToken,omitempty"`   // OAUTH
	Nickname    string                  `json:"nickname,omitempty"`    // PASSKEY
	Challenge   string                  `json:"challenge,omitempty"`   // PASSKEY: base64url
	Attestation *walletauth.Attestation `json:"attestation,omitempty"` // PASSKEY
}

// CredentialTypes are the credential types.
var CredentialTypes = []string{CredentialOAuth, CredentialEmailOTP, CredentialSmsOTP, CredentialPasskey}

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

func decode64url(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// checkOIDC checks an OIDC token by the sandbox's claim rules and, with
// Config.OIDCKeys, its signature; outside the sandbox a signature must be
// verifiable.
func checkOIDC(e *engine.Handle, token, clientKey string) (walletauth.Identity, error) {
	id, err := walletauth.CheckOIDC(token, e.Now(), clientKey)
	if err != nil {
		return id, oidcError(err, "oidcToken")
	}
	switch {
	case walletsSlot.Of(e).oidc != nil:
		if err := walletauth.VerifyOIDCSignature(token, walletsSlot.Of(e).oidc); err != nil {
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
// the engine's relying party; OAuth tokens by the sandbox rules (spec 5).
func (w Wallets) CreateCredential(ctx context.Context, req CreateCredentialRequest, sig Signature) (*AuthMethodResponse, *SignedChallenge, error) {
	e := w.e
	if err := req.check(); err != nil {
		return nil, nil, err
	}
	c := &credentialRecord{AuthMethod: AuthMethod{Type: req.Type, Nickname: req.Nickname}}
	var params map[string]any
	var activityType string
	switch req.Type {
	case CredentialOAuth:
		id, err := checkOIDC(e, req.OidcToken, "")
		if err != nil {
			return nil, nil, err
		}
		c.Identity, c.Nickname = &id, id.Email
		if c.Nickname == "" {
			c.Nickname = id.Subject
		}
		activityType, params = "CREATE_OAUTH_PROVIDERS", map[string]any{"oauthProviders": []any{map[string]any{"oidcToken": req.OidcToken, "providerName": id.Issuer}}}
	case CredentialPasskey:
		challenge, _ := decode64url(req.Challenge)
		pk, err := walletRelyingParty(e).Register(challenge, *req.Attestation)
		if err != nil {
			return nil, nil, passkeyRefused("attestation", err)
		}
		c.Passkey, c.CredentialID = &pk, pk.IDString()
		activityType, params = "CREATE_AUTHENTICATORS_V2", map[string]any{"authenticators": []any{map[string]any{
			"attestation": req.Attestation, "authenticatorName": req.Nickname, "challenge": req.Challenge}}}
	}
	d, err := drawWallet(e)
	if err != nil {
		return nil, nil, err
	}
	var out *AuthMethodResponse
	var ch *SignedChallenge
	err = e.Update(ctx, func(t *engine.Txn) error {
		out, ch = nil, nil
		a, err := walletAccount(t, req.AccountID)
		if err != nil {
			return err
		}
		cust, err := customer(t, a.CustomerID)
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
			if params == nil { // OTP: the contact it ties
				activityType, params = otpActivity(cc.Type, cc.Contact)
			}
			ch, _, err = signed(t, sig, signedOp{op: "credential.create", target: a.ID, accountID: a.ID, body: req,
				activity: activityType, params: params, typ: req.Type})
			if ch != nil || err != nil {
				return err
			}
		}
		rec, err := addCredential(t, a, cust, &cc)
		if err != nil {
			return err
		}
		out = &AuthMethodResponse{AuthMethod: rec.AuthMethod}
		if rec.Passkey != nil {
			if err := t.Insert(tableWalletPasskeyChallenges, req.Challenge, []byte(rec.ID)); err != nil {
				return err
			}
		}
		if rec.isOTP() {
			out.OtpEncryptionTargetBundle, err = issueOTP(t, rec, d, cust)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, ch, nil
}

func otpActivity(typ, contact string) (string, map[string]any) {
	if typ == CredentialEmailOTP {
		return "UPDATE_USER_EMAIL", map[string]any{"userEmail": contact}
	}
	return "UPDATE_USER_PHONE_NUMBER", map[string]any{"userPhoneNumber": contact}
}

func (c *credentialRecord) isOTP() bool {
	return c.Type == CredentialEmailOTP || c.Type == CredentialSmsOTP
}

// checkNewCredential applies the uniqueness rules of spec 7 and 8 to c, to
// be added to a wallet that has existing: one EMAIL_OTP and one SMS_OTP per
// wallet, tied to the customer's email or phone, which no other wallet's
// OTP credential may hold; a WebAuthn credential id and a registration
// challenge once; one passkey per customer.
func checkNewCredential(t *engine.Txn, c *credentialRecord, cust *Customer, existing []*credentialRecord, challenge string) error {
	for _, x := range existing {
		if x.Type == c.Type && c.Type == CredentialEmailOTP {
			return engine.Errorf(engine.CodeEmailOtpCredentialAlreadyExists, "the wallet already has an EMAIL_OTP credential")
		}
		if x.Type == c.Type && c.Type == CredentialSmsOTP {
			return engine.Errorf(engine.CodeSmsOtpCredentialAlreadyExists, "the wallet already has an SMS_OTP credential")
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
			return engine.Errorf(engine.CodePasskeyCredentialAlreadyExists, "passkey %s is already registered", c.CredentialID)
		}
		if _, err := t.Get(tableWalletPasskeyChallenges, challenge); err == nil {
			return engine.Invalid(validate.Errors{{Field: "challenge", Message: "the registration challenge was already used"}})
		}
		if has, err := customerHasPasskey(t, cust.ID); err != nil || has {
			return firstErr(err, engine.Errorf(engine.CodePasskeyAlreadyEnrolled, "the customer already has a passkey; one per customer (spec 8)"))
		}
	}
	return nil
}

// addCredential stores c on wallet a with its claims.
func addCredential(t *engine.Txn, a *InternalAccount, cust *Customer, c *credentialRecord) (*credentialRecord, error) {
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

// claim is the unique entry a credential holds.
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
// sent.
func issueOTP(t *engine.Txn, c *credentialRecord, d *walletDraws, cust *Customer) (string, error) {
	target, err := ecdh.P256().NewPrivateKey(d.target)
	if err != nil {
		return "", err
	}
	p, err := platform(t)
	if err != nil {
		return "", err
	}
	ttl := WalletOTPTTL
	if w := p.EmbeddedWalletConfig; w != nil && w.ExpirationSeconds > 0 {
		ttl = time.Duration(w.ExpirationSeconds) * time.Second
	}
	code := d.otpCode(t.Handle.Config.Sandbox, p.EmbeddedWalletConfig)
	c.OTP = &otpChallenge{TargetKey: d.target, CodeHash: hashSecret(code), ExpiresAt: t.Now.Add(ttl)}
	c.UpdatedAt = t.Now
	if err := engine.PutJSON(t, tableWalletCredentials, c.ID, c); err != nil {
		return "", err
	}
	if !t.Handle.Config.Sandbox {
		channel := ChannelEmail
		if c.Type == CredentialSmsOTP {
			channel = ChannelPhone
		}
		if err := intendCode(t, CodeMessage{ID: c.ID + ":" + t.NewID("Code"), CustomerID: cust.ID, Channel: channel,
			To: c.Contact, Code: code, Purpose: "WALLET_LOGIN"}); err != nil {
			return "", err
		}
	}
	return walletauth.TargetBundle(target.PublicKey()), nil
}

// Credentials lists a wallet's credentials, oldest first; an unknown
// account has none.
func (w Wallets) Credentials(ctx context.Context, accountID string) ([]AuthMethod, error) {
	if accountID == "" {
		return nil, engine.Invalid(validate.Errors{{Field: "accountId", Message: "accountId is required"}})
	}
	out := []AuthMethod{}
	err := w.e.View(ctx, func(t *engine.Txn) error {
		out = out[:0]
		cs, err := credentials(t, accountID)
		for _, c := range cs {
			out = append(out, c.AuthMethod)
		}
		return err
	})
	return out, err
}

// RevokeCredential revokes a credential and ends its sessions, a signed
// flow that a session of another credential of the wallet signs. The last
// credential cannot be revoked. The challenge is nil once revoked.
func (w Wallets) RevokeCredential(ctx context.Context, id string, sig Signature) (*SignedChallenge, error) {
	var ch *SignedChallenge
	err := w.e.Update(ctx, func(t *engine.Txn) error {
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
		ch, _, err = signed(t, sig, signedOp{op: "credential.revoke", target: id, accountID: c.AccountID, activity: "DELETE_AUTHENTICATORS",
			params: map[string]any{"authenticatorIds": []string{id}}, typ: c.Type, exclude: id})
		if ch != nil || err != nil {
			return err
		}
		return removeCredential(t, c)
	})
	return ch, err
}

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

// constantEqual compares secrets in constant time.
func constantEqual(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// customerHasPasskey reports whether any wallet of the customer has a
// passkey credential.
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
