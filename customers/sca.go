package customers

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
	"github.com/paygrid/payments/walletauth"
)

// SCA tables: each SCA customer's state by customer id (SCARecord: one
// record, so every SCA operation of a customer serializes on it), and 2FA
// resets by reset id.
const (
	tableSCA       = "sca"
	tableSCAResets = "sca_resets"
)

// SCA timing and limits. An SMS code may be sent again ScaResendInterval
// after the last one, at most ScaMaxSends times per challenge (and per hour
// for login codes); a login opens a session of ScaSessionTTL. A started
// login must be completed within ScaLoginTTL, an enrollment confirmed
// within ScaEnrollTTL. A TOTP enrollment answers scaRecoveryCodes
// recovery codes.
const (
	ScaSessionTTL     = 15 * time.Minute
	ScaLoginTTL       = 5 * time.Minute
	ScaEnrollTTL      = 10 * time.Minute
	ScaResendInterval = 30 * time.Second
	ScaMaxSends       = 5
	scaSendWindow     = time.Hour
	scaRecoveryCodes  = 8
)

// SCA groups the customers area's Strong Customer Authentication
// operations (the reference's tag Strong Customer Authentication):
// factors and their reset, login sessions and security events. Every
// operation answers CONFLICT for a customer outside an SCA region
// (KYCProvider.SCARequired), INVALID_INPUT without a customer id, and
// CUSTOMER_NOT_FOUND or CUSTOMER_DELETED as Live does. The challenges of
// quotes are the quotes area's (quotes.Authorizations); the facade's
// eng.SCA (payments.SCA) joins both groups.
//
// Each operation runs in one transaction through engine.Once (idempotent
// by key); codes, challenges and secrets are drawn before it (SCADraw),
// and SMS codes leave as intents after commit.
type SCA struct{ e *engine.Handle }

// NewSCA returns the customers area's SCA group of h (payments.New embeds
// it in payments.SCA).
func NewSCA(h *engine.Handle) SCA { return SCA{h} }

// ScaFactorView is an enrolled factor (reference ScaFactorView).
type ScaFactorView struct {
	Factor       string `json:"factor"`
	CredentialID string `json:"credentialId,omitempty"`
	Name         string `json:"name,omitempty"`
}

// ScaFactorList lists a customer's factors (reference ScaFactorList).
type ScaFactorList struct {
	Factors []ScaFactorView `json:"factors"`
}

// ScaEnrollment is the material that finishes an enrollment (reference
// ScaFactorEnrollStartOneOf): a TOTP secret, or passkey registration options.
type ScaEnrollment struct {
	Type                string         `json:"type"`
	Secret              string         `json:"secret,omitempty"`
	SecretBase32Encoded string         `json:"secretBase32Encoded,omitempty"`
	TotpURI             string         `json:"totpUri,omitempty"`
	Options             map[string]any `json:"options,omitempty"`
	AllowedOrigins      []string       `json:"allowedOrigins,omitempty"`
	RelyingPartyID      string         `json:"relyingPartyId,omitempty"`
}

// ScaFactorConfirm finishes an enrollment (reference
// ScaFactorConfirmRequestOneOf): the TOTP secret and first code, or the
// passkey credential and the origin it was made for.
type ScaFactorConfirm struct {
	Type       string                  `json:"type"`
	Secret     string                  `json:"secret,omitempty"`
	Code       string                  `json:"code,omitempty"`
	Origin     string                  `json:"origin,omitempty"`
	Credential *walletauth.Attestation `json:"credential,omitempty"`
}

// ScaFactorConfirmed is an enrollment's result (reference
// ScaFactorConfirmResponseOneOf): TOTP recovery codes, shown once, or the
// enrolled passkey.
type ScaFactorConfirmed struct {
	Type          string         `json:"type"`
	RecoveryCodes []string       `json:"recoveryCodes,omitempty"`
	Factor        *ScaFactorView `json:"factor,omitempty"`
}

// ScaAuthorization is the proof of an SCA challenge (reference
// ScaAuthorization): a code (SMS_OTP, TOTP) or a passkey assertion with the
// origin it was made for.
type ScaAuthorization struct {
	Code             string                `json:"code,omitempty"`
	PasskeyAssertion *walletauth.Assertion `json:"passkeyAssertion,omitempty"`
	Origin           string                `json:"origin,omitempty"`
	EndUserIPAddress string                `json:"endUserIpAddress,omitempty"`
}

// ScaLoginStart is the material of a started login (reference ScaLoginStart).
type ScaLoginStart struct {
	Factor         string         `json:"factor"`
	ChallengeID    string         `json:"challengeId,omitempty"`
	ExpiresAt      *time.Time     `json:"expiresAt,omitempty"`
	PasskeyOptions map[string]any `json:"passkeyOptions,omitempty"`
	AllowedOrigins []string       `json:"allowedOrigins,omitempty"`
	RelyingPartyID string         `json:"relyingPartyId,omitempty"`
}

// ScaLoginComplete finishes a login (reference ScaLoginCompleteRequest).
type ScaLoginComplete struct {
	ScaAuthorization
	Factor      string `json:"factor"`
	ChallengeID string `json:"challengeId,omitempty"`
}

// ScaSession is a completed login (reference ScaLoginComplete).
type ScaSession struct {
	Status           string     `json:"status"`
	SessionExpiresAt *time.Time `json:"sessionExpiresAt,omitempty"`
}

// Security events (reference RecordSecurityEventRequest).
const (
	EventResetPasswordCompleted = "RESET_PASSWORD_COMPLETED"
	EventFailedLoginAttempt     = "FAILED_LOGIN_ATTEMPT"
)

// SecurityState is the login-security state after a recorded event
// (reference RecordSecurityEventResponse).
type SecurityState struct {
	EventType      string     `json:"eventType"`
	Suspended      bool       `json:"suspended"`
	LockedUntil    *time.Time `json:"lockedUntil"`
	FailedAttempts int        `json:"failedAttempts"`
}

// SCARecord is an SCA customer's state: its login security, session and
// factors, and the challenges outstanding. Secrets are kept hashed (codes,
// recovery codes, the offered TOTP secret) except the enrolled TOTP secret,
// which verifying a code needs in full. The quotes area reads and writes it
// for payout challenges (ForSCA, SaveSCA).
type SCARecord struct {
	Security         LoginSecurity        `json:"security"`
	SessionExpiresAt *time.Time           `json:"sessionExpiresAt,omitempty"`
	TOTPSecret       []byte               `json:"totpSecret,omitempty"`
	RecoveryHashes   []string             `json:"recoveryHashes,omitempty"`
	PendingTOTP      *SCAPending          `json:"pendingTotp,omitempty"` // CodeHash: the offered secret's hash
	Passkey          *scaPasskey          `json:"passkey,omitempty"`
	Registration     *SCAPending          `json:"registration,omitempty"` // an outstanding passkey registration
	Login            *SCAPending          `json:"login,omitempty"`
	Sends            []time.Time          `json:"sends,omitempty"`  // login codes sent (send limit)
	Resets           []time.Time          `json:"resets,omitempty"` // resets started (ResetsPerDay)
	EnrolledAt       map[string]time.Time `json:"enrolledAt,omitempty"`
}

// SCAPending is an outstanding challenge: its factor, the hash of its code
// or the WebAuthn challenge bytes, and its expiry.
type SCAPending struct {
	ID        string    `json:"id,omitempty"`
	Factor    string    `json:"factor"`
	CodeHash  string    `json:"codeHash,omitempty"`
	Nonce     []byte    `json:"nonce,omitempty"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// scaPasskey is an enrolled passkey.
type scaPasskey struct {
	walletauth.Passkey
	Name string `json:"name,omitempty"`
}

// SCADraw is what an SCA operation draws before its transaction: a
// one-time code, a WebAuthn challenge, a TOTP secret and the sandbox's fixed
// TOTP code (empty outside the sandbox). Drawing first keeps the
// transaction function deterministic: a store that runs it twice stores
// the same secrets. The quotes area fills Code and Nonce for its payout
// challenges; the zero value checks proofs without a sandbox code.
type SCADraw struct {
	Code, sandboxTOTP string
	Nonce, secret     []byte
	recovery          []string
}

// drawSCA draws everything an SCA operation of this area may need; each
// operation uses its part.
func drawSCA(e *engine.Handle) SCADraw {
	d := SCADraw{Code: customersSlot.Of(e).KYC.ContactCode("SCA"), Nonce: engine.RandomBytes(32), secret: engine.RandomBytes(20)}
	if e.Config.Sandbox {
		d.sandboxTOTP = customersSlot.Of(e).KYC.ContactCode("TOTP")
	}
	for range scaRecoveryCodes {
		s := Base32.EncodeToString(engine.RandomBytes(8))[:12]
		d.recovery = append(d.recovery, s[:4]+"-"+s[4:8]+"-"+s[8:])
	}
	return d
}

// b64url is WebAuthn's encoding of binary members (base64url, no padding).
func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// RelyingParty is the WebAuthn relying party of SCA passkeys
// (Options.SCAPasskeys), or RP ID "localhost" with the local origins when
// none was configured.
func RelyingParty(e *engine.Handle) walletauth.RelyingParty {
	rp := customersSlot.Of(e).SCAPasskeys
	if rp.ID == "" {
		rp = walletauth.RelyingParty{ID: "localhost", Origins: []string{"http://localhost:8080", "https://localhost"}}
	}
	return rp
}

// requiredEnum is INVALID_INPUT unless v, the request's field, is present
// and one of allowed.
func requiredEnum(field, v string, allowed ...string) error {
	var fe validate.Errors
	if fe.Required(field, v) {
		fe.Enum(field, v, allowed...)
	}
	return engine.Invalid(fe.Err())
}

// LockedError is the 423 ACCOUNT_LOCKED of a locked or suspended login,
// with the reference's details (suspended, failedAttempts, lockedUntil).
func LockedError(s LoginSecurity) error {
	d := map[string]any{"suspended": s.Suspended, "failedAttempts": s.FailedAttempts}
	msg := "the customer's login is suspended after too many failed attempts; a password reset lifts it"
	if s.LockedUntil != nil {
		d["lockedUntil"] = s.LockedUntil.UTC().Format(time.RFC3339)
		msg = "the customer's login is locked after too many failed attempts until " + d["lockedUntil"].(string)
	}
	return &engine.Error{Code: CodeAccountLocked, Message: msg, Details: d}
}

// RateLimited is the 429 of a send limit; the HTTP layer turns
// details.retryAfterSeconds into the Retry-After header.
func RateLimited(wait time.Duration, what string) error {
	secs := int(math.Ceil(wait.Seconds()))
	return &engine.Error{Code: engine.CodeRateLimited, Message: fmt.Sprintf("too many %s; retry in %d seconds", what, secs),
		Details: map[string]any{"retryAfterSeconds": secs}}
}

// ErrWrongProof is CheckProof's answer to a well-formed but wrong proof;
// the caller counts it (ProofFailed) and answers the client with a coded
// error, never with this one.
var ErrWrongProof = errors.New("wrong proof")

// spendRecovery consumes a TOTP recovery code: each works once.
func (st *SCARecord) spendRecovery(code string) bool {
	for i, h := range st.RecoveryHashes {
		if subtle.ConstantTimeCompare([]byte(engine.HashSecret(code)), []byte(h)) == 1 {
			st.RecoveryHashes = append(st.RecoveryHashes[:i:i], st.RecoveryHashes[i+1:]...)
			return true
		}
	}
	return false
}

// ProofField names the request field a wrong proof of factor is blamed on.
func ProofField(factor string) string {
	if factor == FactorPasskey {
		return "passkeyAssertion"
	}
	return "code"
}

// SessionActive reports whether the customer holds an SCA login session
// at now.
func (st *SCARecord) SessionActive(now time.Time) bool {
	return st.SessionExpiresAt != nil && now.Before(*st.SessionExpiresAt)
}

// Factors lists a customer's factors: SMS_OTP always (their verified
// phone), then TOTP and PASSKEY when enrolled. It reads only.
func (s SCA) Factors(ctx context.Context, customerID string) (*ScaFactorList, error) {
	return engine.Run(ctx, s.e, scaFactors, customerID)
}

// scaFactors is SCA.Factors's operation.
var scaFactors = engine.Op[string, *ScaFactorList, struct{}]{Area: "customers", Name: "SCA.Factors", Access: engine.Read,
	Decide: func(t *engine.Txn, customerID *string, _ *struct{}) (*ScaFactorList, error) {
		_, st, err := ForSCA(t, *customerID)
		if err != nil {
			return nil, err
		}
		return &ScaFactorList{Factors: st.factors()}, nil
	}}

// factors is the factor list of st, in the reference's order.
func (st *SCARecord) factors() []ScaFactorView {
	out := []ScaFactorView{{Factor: FactorSMS}}
	if st.TOTPSecret != nil {
		out = append(out, ScaFactorView{Factor: FactorTOTP})
	}
	if st.Passkey != nil {
		out = append(out, st.Passkey.view())
	}
	return out
}

// view is the enrolled passkey as the API shows it.
func (p *scaPasskey) view() ScaFactorView {
	return ScaFactorView{Factor: FactorPasskey, CredentialID: p.IDString(), Name: p.Name}
}

// Enroll starts enrolling a TOTP or PASSKEY factor (typ): a TOTP secret to
// confirm with the first code, or passkey registration options. A second
// passkey is PASSKEY_ALREADY_ENROLLED; a second TOTP CONFLICT; another
// type INVALID_INPUT. A new enrollment replaces an outstanding one of its
// type; only the offered TOTP secret's hash is kept until Confirm.
func (s SCA) Enroll(ctx context.Context, customerID, typ string) (*ScaEnrollment, error) {
	return engine.Run(ctx, s.e, scaEnroll, scaChoice{customerID, typ})
}

// scaChoice names a customer and one of its SCA factors (or an event).
type scaChoice struct{ customerID, typ string }

// drawFor draws the secrets an SCA operation may need before its
// transaction (drawSCA), for an engine.Op's Prefetch.
func drawFor[In any](_ context.Context, e *engine.Handle, _ *In, d *SCADraw, _ error) error {
	*d = drawSCA(e)
	return nil
}

// scaEnroll is SCA.Enroll's operation.
var scaEnroll = engine.Op[scaChoice, *ScaEnrollment, SCADraw]{Area: "customers", Name: "SCA.Enroll",
	Fingerprint: func(c *scaChoice) any { return []any{c.customerID, c.typ} },
	Validate:    func(c *scaChoice) error { return requiredEnum("type", c.typ, FactorTOTP, FactorPasskey) },
	Prefetch:    drawFor[scaChoice],
	Decide: func(t *engine.Txn, in *scaChoice, dp *SCADraw) (out *ScaEnrollment, err error) {
		customerID, typ, d := in.customerID, in.typ, *dp
		c, st, err := ForSCA(t, customerID)
		if err != nil {
			return out, err
		}
		exp := t.Now.Add(ScaEnrollTTL)
		if typ == FactorTOTP {
			if st.TOTPSecret != nil {
				return out, engine.Errorf(engine.CodeConflict, "customer %s already has a TOTP factor; reset it to enroll another", customerID)
			}
			st.PendingTOTP = &SCAPending{Factor: typ, CodeHash: engine.HashSecret(fmt.Sprintf("%x", d.secret)), ExpiresAt: exp}
			account := c.Email
			if account == "" {
				account = c.ID
			}
			out = &ScaEnrollment{Type: typ, Secret: fmt.Sprintf("%x", d.secret), SecretBase32Encoded: Base32.EncodeToString(d.secret),
				TotpURI: TOTPURI(d.secret, "Service", account)}
			return out, SaveSCA(t, customerID, st)
		}
		if st.Passkey != nil {
			return out, engine.Errorf(engine.CodePasskeyAlreadyEnrolled, "customer %s already has a passkey; delete it first", customerID)
		}
		st.Registration = &SCAPending{Factor: typ, Nonce: d.Nonce, ExpiresAt: exp}
		rp := RelyingParty(t.Handle)
		out = &ScaEnrollment{Type: typ, Options: registrationOptions(rp, &c.Customer, d.Nonce), AllowedOrigins: rp.Origins, RelyingPartyID: rp.ID}
		return out, SaveSCA(t, customerID, st)
	}}

// registrationOptions are the PublicKeyCredentialCreationOptions of a
// passkey enrollment: ES256, Ed25519 and RS256 keys, user verification
// required, no attestation.
func registrationOptions(rp walletauth.RelyingParty, c *Customer, nonce []byte) map[string]any {
	name := c.FullName
	if name == "" {
		name = c.ID
	}
	return map[string]any{
		"challenge": b64url(nonce),
		"rp":        map[string]any{"id": rp.ID, "name": rp.ID},
		"user":      map[string]any{"id": b64url([]byte(c.ID)), "name": c.ID, "displayName": name},
		"pubKeyCredParams": []map[string]any{{"type": "public-key", "alg": -7}, {"type": "public-key", "alg": -8},
			{"type": "public-key", "alg": -257}},
		"timeout":                int(ScaEnrollTTL / time.Millisecond),
		"attestation":            "none",
		"authenticatorSelection": map[string]any{"residentKey": "preferred", "userVerification": "required"},
	}
}

// AssertionOptions are the PublicKeyCredentialRequestOptions of a passkey
// challenge for p, the customer's enrolled passkey (SCARecord.Passkey),
// over nonce: the login's here, a payout's in the quotes area.
func AssertionOptions(rp walletauth.RelyingParty, p *scaPasskey, nonce []byte, ttl time.Duration) map[string]any {
	allow := map[string]any{"type": "public-key", "id": p.IDString()}
	if len(p.Transports) > 0 {
		allow["transports"] = p.Transports
	}
	return map[string]any{"challenge": b64url(nonce), "rpId": rp.ID, "allowCredentials": []map[string]any{allow},
		"userVerification": "required", "timeout": int(ttl / time.Millisecond)}
}

// Confirm finishes an enrollment: a TOTP factor with its secret and first
// code (answering recovery codes, shown once), or a passkey with the
// registration the device made. A wrong code or a registration that does
// not verify is INVALID_INPUT, as is a confirmation with no enrollment
// outstanding (or after ScaEnrollTTL); a second passkey
// PASSKEY_ALREADY_ENROLLED. Recovery codes are drawn before the
// transaction and stored hashed.
func (s SCA) Confirm(ctx context.Context, customerID string, in ScaFactorConfirm) (*ScaFactorConfirmed, error) {
	return engine.Run(ctx, s.e, scaConfirm, scaConfirmation{customerID, in})
}

// scaConfirmation is an SCA.Confirm request.
type scaConfirmation struct {
	customerID string
	in         ScaFactorConfirm
}

// scaConfirm is SCA.Confirm's operation.
var scaConfirm = engine.Op[scaConfirmation, *ScaFactorConfirmed, SCADraw]{Area: "customers", Name: "SCA.Confirm",
	Fingerprint: func(c *scaConfirmation) any { return []any{c.customerID, c.in} },
	Validate: func(c *scaConfirmation) error {
		in := c.in
		var fe validate.Errors
		if fe.Required("type", in.Type) && fe.Enum("type", in.Type, FactorTOTP, FactorPasskey) {
			if in.Type == FactorTOTP {
				fe.Required("secret", in.Secret)
				fe.Required("code", in.Code)
			} else {
				fe.Required("origin", in.Origin)
				if in.Credential == nil {
					fe.Missing("credential")
				}
			}
		}
		return engine.Invalid(fe.Err())
	},
	Prefetch: drawFor[scaConfirmation],
	Decide: func(t *engine.Txn, c *scaConfirmation, dp *SCADraw) (out *ScaFactorConfirmed, err error) {
		customerID, in, d := c.customerID, c.in, *dp
		_, st, err := ForSCA(t, customerID)
		if err != nil {
			return out, err
		}
		var fe validate.Errors
		if in.Type == FactorTOTP {
			err = confirmTOTP(t, customerID, st, in, d, &out)
			return out, err
		}
		if st.Passkey != nil {
			return out, engine.Errorf(engine.CodePasskeyAlreadyEnrolled, "customer %s already has a passkey; delete it first", customerID)
		}
		reg := st.Registration
		if reg == nil || t.Now.After(reg.ExpiresAt) {
			fe.Add("credential", nil, "no passkey enrollment is outstanding; start one with POST /sca/factors")
			return out, engine.Invalid(fe)
		}
		rp := RelyingParty(t.Handle)
		if !slices.Contains(rp.Origins, in.Origin) {
			fe.Add("origin", &validate.Constraint{Enum: rp.Origins}, "origin must be one of the allowed origins")
			return out, engine.Invalid(fe)
		}
		rp.Origins = []string{in.Origin}
		pk, err := rp.Register(reg.Nonce, *in.Credential)
		if err != nil {
			fe.Add("credential", nil, "%s", walletauth.ErrPasskey.Error())
			return out, engine.Invalid(fe)
		}
		st.Passkey, st.Registration = &scaPasskey{Passkey: pk}, nil
		st.enrolled(FactorPasskey, t.Now)
		v := st.Passkey.view()
		out = &ScaFactorConfirmed{Type: in.Type, Factor: &v}
		return out, SaveSCA(t, customerID, st)
	}}

// enrolled records when factor was enrolled (a 2FA reset's status compares
// it with the reset's completion).
func (st *SCARecord) enrolled(factor string, now time.Time) {
	if st.EnrolledAt == nil {
		st.EnrolledAt = map[string]time.Time{}
	}
	st.EnrolledAt[factor] = now
}

// confirmTOTP finishes a TOTP enrollment: the secret must be the one
// offered (by hash) and the code valid for it now. Enrolling replaces the
// recovery codes with new ones.
func confirmTOTP(t *engine.Txn, customerID string, st *SCARecord, in ScaFactorConfirm, d SCADraw, out **ScaFactorConfirmed) error {
	var fe validate.Errors
	p := st.PendingTOTP
	if p == nil || t.Now.After(p.ExpiresAt) || subtle.ConstantTimeCompare([]byte(engine.HashSecret(in.Secret)), []byte(p.CodeHash)) != 1 {
		fe.Add("secret", nil, "the secret is not that of an outstanding TOTP enrollment; start one with POST /sca/factors")
		return engine.Invalid(fe)
	}
	var secret []byte
	if _, err := fmt.Sscanf(in.Secret, "%x", &secret); err != nil {
		return err
	}
	if !TOTPValid(secret, in.Code, t.Now) && (d.sandboxTOTP == "" || in.Code != d.sandboxTOTP) {
		fe.Add("code", nil, "the code does not match the secret; enter the current code of the authenticator app")
		return engine.Invalid(fe)
	}
	st.TOTPSecret, st.PendingTOTP, st.RecoveryHashes = secret, nil, nil
	for _, c := range d.recovery {
		st.RecoveryHashes = append(st.RecoveryHashes, engine.HashSecret(c))
	}
	st.enrolled(FactorTOTP, t.Now)
	*out = &ScaFactorConfirmed{Type: FactorTOTP, RecoveryCodes: d.recovery}
	return SaveSCA(t, customerID, st)
}

// DeleteFactor removes the customer's passkey by credential id (the only
// factor with one): NOT_FOUND for any other id. A login started with the
// passkey is dropped with it.
func (s SCA) DeleteFactor(ctx context.Context, customerID, credentialID string) error {
	_, err := engine.Run(ctx, s.e, scaDeleteFactor, scaChoice{customerID, credentialID})
	return err
}

// scaDeleteFactor is SCA.DeleteFactor's operation (typ: the credential id).
var scaDeleteFactor = engine.Op[scaChoice, struct{}, struct{}]{Area: "customers", Name: "SCA.DeleteFactor",
	Fingerprint: func(c *scaChoice) any { return []any{c.customerID, c.typ} },
	Decide: func(t *engine.Txn, in *scaChoice, _ *struct{}) (out struct{}, err error) {
		customerID, credentialID := in.customerID, in.typ
		_, st, err := ForSCA(t, customerID)
		if err != nil {
			return out, err
		}
		if st.Passkey == nil || st.Passkey.IDString() != credentialID {
			return out, engine.Errorf(engine.CodeNotFound, "customer %s has no factor with credential id %s", customerID, credentialID)
		}
		st.Passkey = nil
		if st.Login != nil && st.Login.Factor == FactorPasskey {
			st.Login = nil
		}
		return out, SaveSCA(t, customerID, st)
	}}

// StartLogin begins an SCA login with factor: SMS_OTP sends a code (at most
// ScaMaxSends an hour, ScaResendInterval apart: RATE_LIMITED), TOTP needs
// nothing, PASSKEY answers assertion options. TOTP and PASSKEY must be
// enrolled (INVALID_INPUT on factor). A new login replaces an outstanding
// one. The SMS code is delivered after commit by the CodeSender (purpose
// LOGIN), to the customer's phone; a send refused by the limit writes
// nothing.
func (s SCA) StartLogin(ctx context.Context, customerID, factor string) (*ScaLoginStart, error) {
	return engine.Run(ctx, s.e, scaStartLogin, scaChoice{customerID, factor})
}

// scaStartLogin is SCA.StartLogin's operation (typ: the factor).
var scaStartLogin = engine.Op[scaChoice, *ScaLoginStart, SCADraw]{Area: "customers", Name: "SCA.StartLogin",
	Fingerprint: func(c *scaChoice) any { return []any{c.customerID, c.typ} },
	Validate:    func(c *scaChoice) error { return requiredEnum("factor", c.typ, Factors...) },
	Prefetch:    drawFor[scaChoice],
	Decide: func(t *engine.Txn, in *scaChoice, dp *SCADraw) (out *ScaLoginStart, err error) {
		customerID, factor, d := in.customerID, in.typ, *dp
		c, st, err := ForSCA(t, customerID)
		if err != nil {
			return out, err
		}
		if err := st.requireEnrolled(factor); err != nil {
			return out, err
		}
		exp := t.Now.Add(ScaLoginTTL)
		st.Login = &SCAPending{ID: t.NewID("ScaChallenge"), Factor: factor, ExpiresAt: exp}
		out = &ScaLoginStart{Factor: factor}
		switch factor {
		case FactorSMS:
			st.Sends = Recent(st.Sends, t.Now, scaSendWindow)
			if wait := SendWait(st.Sends, t.Now, ScaResendInterval, ScaMaxSends, scaSendWindow); wait > 0 {
				return out, RateLimited(wait, "login codes")
			}
			st.Sends = append(st.Sends, t.Now)
			st.Login.CodeHash = engine.HashSecret(d.Code)
			out.ChallengeID, out.ExpiresAt = st.Login.ID, &exp
			if err := IntendCode(t, CodeMessage{ID: st.Login.ID, CustomerID: c.ID, Channel: "SCA", To: c.PhoneNumber, Code: d.Code, Purpose: "LOGIN"}); err != nil {
				return out, err
			}
		case FactorPasskey:
			st.Login.Nonce = d.Nonce
			rp := RelyingParty(t.Handle)
			out.PasskeyOptions, out.AllowedOrigins, out.RelyingPartyID = AssertionOptions(rp, st.Passkey, d.Nonce, ScaLoginTTL), rp.Origins, rp.ID
		}
		return out, SaveSCA(t, customerID, st)
	}}

// Recent keeps the instants of list within window before now, so that a
// customer's send and reset history never grows beyond one window.
func Recent(list []time.Time, now time.Time, window time.Duration) []time.Time {
	var out []time.Time
	for _, x := range list {
		if now.Sub(x) < window {
			out = append(out, x)
		}
	}
	return out
}

// requireEnrolled refuses a TOTP or PASSKEY factor the customer lacks.
func (st *SCARecord) requireEnrolled(factor string) error {
	if (factor == FactorTOTP && st.TOTPSecret == nil) || (factor == FactorPasskey && st.Passkey == nil) {
		var fe validate.Errors
		fe.Add("factor", nil, "the customer has no %s factor enrolled", factor)
		return engine.Invalid(fe)
	}
	return nil
}

// CompleteLogin finishes the started login with its proof and opens an SCA
// session of ScaSessionTTL. A wrong proof counts as a failed attempt
// (LockSteps): INVALID_INPUT, or ACCOUNT_LOCKED once locked; a
// locked login is ACCOUNT_LOCKED before any check. Without an
// outstanding login (or after ScaLoginTTL), with another factor, or with
// another challengeId, INVALID_INPUT. A success clears the failed-login
// counter; a wrong proof's count commits with the error answer.
func (s SCA) CompleteLogin(ctx context.Context, customerID string, in ScaLoginComplete) (*ScaSession, error) {
	return engine.Run(ctx, s.e, scaCompleteLogin, scaLogin{customerID, in})
}

// scaLogin is an SCA.CompleteLogin request.
type scaLogin struct {
	customerID string
	in         ScaLoginComplete
}

// scaCompleteLogin is SCA.CompleteLogin's operation. A wrong proof is a
// kept refusal: the failed attempt counts.
var scaCompleteLogin = engine.Op[scaLogin, *ScaSession, SCADraw]{Area: "customers", Name: "SCA.CompleteLogin",
	Fingerprint: func(c *scaLogin) any { return []any{c.customerID, c.in} },
	Validate: func(c *scaLogin) error {
		in := c.in
		var fe validate.Errors
		if fe.Required("factor", in.Factor) {
			fe.Enum("factor", in.Factor, Factors...)
		}
		fe.Required("endUserIpAddress", in.EndUserIPAddress)
		return engine.Invalid(fe.Err())
	},
	Prefetch: drawFor[scaLogin],
	Decide: func(t *engine.Txn, c *scaLogin, dp *SCADraw) (out *ScaSession, err error) {
		customerID, in, d := c.customerID, c.in, *dp
		_, st, err := ForSCA(t, customerID)
		if err != nil {
			return out, err
		}
		if st.Security.Locked(t.Now) {
			return out, LockedError(st.Security)
		}
		var fe validate.Errors
		ch := st.Login
		switch {
		case ch == nil || t.Now.After(ch.ExpiresAt):
			fe.Add("factor", nil, "no login is outstanding (or it expired); start one with POST /sca/login/start")
		case ch.Factor != in.Factor:
			fe.Add("factor", &validate.Constraint{Enum: []string{ch.Factor}}, "the login was started with %s", ch.Factor)
		case ch.Factor == FactorSMS && in.ChallengeID != ch.ID:
			fe.Add("challengeId", nil, "challengeId must be that of the started login")
		}
		if len(fe) > 0 {
			return out, engine.Invalid(fe)
		}
		switch err := CheckProof(t, st, ch, in.ScaAuthorization, d); {
		case errors.Is(err, ErrWrongProof):
			failure := ProofFailed(t, st, ProofField(ch.Factor))
			return out, keepAfter(SaveSCA(t, customerID, st), failure)
		case err != nil:
			return out, err
		}
		exp := t.Now.Add(ScaSessionTTL)
		st.Login, st.SessionExpiresAt = nil, &exp
		st.Security.Clear()
		out = &ScaSession{Status: "SUCCESS", SessionExpiresAt: &exp}
		return out, SaveSCA(t, customerID, st)
	}}

// RecordEvent records a client-side security event: a completed password
// reset revokes the SCA session and clears the failed-login counter; a
// failed login counts towards the lockout (LockSteps). Another eventType
// is INVALID_INPUT. The answer is the state after the event.
func (s SCA) RecordEvent(ctx context.Context, customerID, eventType string) (*SecurityState, error) {
	return engine.Run(ctx, s.e, scaRecordEvent, scaChoice{customerID, eventType})
}

// scaRecordEvent is SCA.RecordEvent's operation (typ: the event type).
var scaRecordEvent = engine.Op[scaChoice, *SecurityState, struct{}]{Area: "customers", Name: "SCA.RecordEvent",
	Fingerprint: func(c *scaChoice) any { return []any{c.customerID, c.typ} },
	Validate: func(c *scaChoice) error {
		return requiredEnum("eventType", c.typ, EventResetPasswordCompleted, EventFailedLoginAttempt)
	},
	Decide: func(t *engine.Txn, in *scaChoice, _ *struct{}) (out *SecurityState, err error) {
		customerID, eventType := in.customerID, in.typ
		_, st, err := ForSCA(t, customerID)
		if err != nil {
			return out, err
		}
		if eventType == EventResetPasswordCompleted {
			st.Security.Clear()
			st.SessionExpiresAt, st.Login = nil, nil
		} else {
			st.Security.Fail(t.Now)
		}
		out = &SecurityState{EventType: eventType, Suspended: st.Security.Suspended, FailedAttempts: st.Security.FailedAttempts}
		if st.Security.Locked(t.Now) {
			out.LockedUntil = st.Security.LockedUntil
		}
		return out, SaveSCA(t, customerID, st)
	}}
