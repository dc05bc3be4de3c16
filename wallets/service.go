package wallets

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/walletauth"
)

// This file holds the area's vocabulary and the in-transaction helpers
// its operations share: credentials, sessions and the wallets themselves
// (the package comment is in doc.go; the signed flows in signed.go).

// Service serves embedded-wallet authentication: credentials, sessions,
// signed retries, delegated keys, wallet privacy and export, and payments
// from embedded wallets. The root facade binds it as eng.Wallets
// (payments.Wallets). A Service is a small value over the engine handle:
// copy it freely and use it from any number of goroutines.
type Service struct{ e *engine.Handle }

// NewService returns the Wallets group of h.
func NewService(h *engine.Handle) Service { return Service{h} }

// Credential types (reference AuthMethodType).
const (
	// CredentialEmailOTP is a one-time code sent to the customer's email,
	// one per wallet, and an email tied to one wallet only.
	CredentialEmailOTP = "EMAIL_OTP"
	// CredentialSmsOTP is a one-time code sent to the customer's phone,
	// one per wallet, and a phone tied to one wallet only.
	CredentialSmsOTP = "SMS_OTP"
	// CredentialPasskey is a WebAuthn passkey, one per customer.
	CredentialPasskey = "PASSKEY"
	// CredentialOAuth is an OIDC identity (issuer, audience, subject).
	CredentialOAuth = "OAUTH"
)

// Lifetimes and limits of the wallet flows.
const (
	// WalletSessionTTL is how long a session may sign (15 minutes, as the
	// reference's sessions).
	WalletSessionTTL = 15 * time.Minute
	// SignedRequestTTL is how long a payloadToSign may be signed.
	SignedRequestTTL = 5 * time.Minute
	// WalletOTPTTL is an OTP's validity unless the platform's
	// embeddedWalletConfig.expirationSeconds says otherwise.
	WalletOTPTTL = 300 * time.Second
	// WalletOTPAttempts wrong codes on one OTP credential within
	// WalletOTPLockout, whichever challenges they answered, end its
	// outstanding challenge and lock its OTP logins and challenges until
	// the first of them is WalletOTPLockout old: at most WalletOTPAttempts
	// guesses in any WalletOTPLockout (429 RATE_LIMITED with Retry-After,
	// the right code included). A right code clears the count.
	WalletOTPAttempts = 5
	// WalletOTPLockout is the window WalletOTPAttempts counts wrong codes
	// in, and so the longest an OTP credential stays locked.
	WalletOTPLockout = 15 * time.Minute
	// WalletOTPResendInterval and WalletOTPChallengesPerHour limit an OTP
	// credential's challenges (Service.Challenge): issued at most
	// WalletOTPChallengesPerHour times in any hour, and
	// WalletOTPResendInterval apart while the last code is outstanding
	// (neither used nor expired); beyond that, 429 RATE_LIMITED with
	// Retry-After.
	WalletOTPResendInterval    = 30 * time.Second
	WalletOTPChallengesPerHour = 10
	// SandboxOTPCode is the sandbox's fixed wallet OTP.
	SandboxOTPCode = "000000"
	// LegacyWalletSignature is the sandbox's legacy literal stamp, accepted
	// in place of any wallet signature in the sandbox only.
	LegacyWalletSignature = "sandbox-valid-signature"
	// LegacyPasskeySignature is the sandbox's legacy literal passkey
	// assertion signature, accepted in the sandbox only.
	LegacyPasskeySignature = "sandbox-valid-passkey-signature"
)

// Wallet tables. The "_by_" tables and the claim tables (emails, phones,
// passkeys) are lookups the operations keep in the same transaction as
// the record they point to; the claim tables also enforce uniqueness
// (one wallet per email or phone, one registration per WebAuthn id).
const (
	tableWalletCredentials        = "wallet_credentials"           // AuthMethod id -> credentialRecord
	tableWalletCredentialsByAcct  = "wallet_credentials_by_acct"   // account|id -> id
	tableWalletEmails             = "wallet_otp_emails"            // email -> EMAIL_OTP credential id
	tableWalletPhones             = "wallet_otp_phones"            // phone -> SMS_OTP credential id
	tableWalletPasskeys           = "wallet_passkeys"              // WebAuthn credential id -> credential id
	tableWalletPasskeyChallenges  = "wallet_passkey_challenges"    // used registration challenges
	tableWalletSessions           = "wallet_sessions"              // Session id -> sessionRecord
	tableWalletSessionsByAcct     = "wallet_sessions_by_acct"      // account|id -> id
	tableWalletRequests           = "wallet_requests"              // Request id -> pendingRequest
	tableWalletSecrets            = "wallet_secrets"               // account id -> walletSecret
	tableWalletsByCustomer        = "wallets_by_customer"          // customer|account id -> account id
	tableWalletDelegatedKeys      = "wallet_delegated_keys"        // DelegatedKey id -> delegatedKeyRecord
	tableWalletDelegatedKeysByAcc = "wallet_delegated_keys_by_acc" // account|id -> id
)

// AuthMethod is a registered credential (reference AuthMethod). Its id is
// an "AuthMethod:" id; Nickname is the email or phone of an OTP credential,
// the email (else the subject) of an OAuth one, and the holder's name for
// a passkey.
type AuthMethod struct {
	ID           string    `json:"id"`
	AccountID    string    `json:"accountId"`
	Type         string    `json:"type"`
	CredentialID string    `json:"credentialId,omitempty"` // PASSKEY: base64url WebAuthn id
	Nickname     string    `json:"nickname"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// AuthMethodResponse is an AuthMethod with, for OTP credentials that start
// a challenge, the HPKE target to seal the code to.
type AuthMethodResponse struct {
	AuthMethod
	OtpEncryptionTargetBundle string `json:"otpEncryptionTargetBundle,omitempty"`
}

// PasskeyAuthChallenge starts a passkey authentication: challenge is the
// lowercase hex SHA-256 of the session-creation payload, to be passed as
// the UTF-8 bytes of the WebAuthn challenge.
type PasskeyAuthChallenge struct {
	AuthMethod
	Challenge string    `json:"challenge"`
	RequestID string    `json:"requestId"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// AuthSession is an active session (reference AuthSession): its id is a
// Session id, and a legacy (uncompressed clientPublicKey) login also gets
// the session's private key sealed to that key.
type AuthSession struct {
	AuthMethod
	ID                         string    `json:"id"`
	EncryptedSessionSigningKey string    `json:"encryptedSessionSigningKey,omitempty"`
	ExpiresAt                  time.Time `json:"expiresAt"`
}

// credentialRecord is an AuthMethod as stored.
type credentialRecord struct {
	AuthMethod
	CustomerID string               `json:"customerId"`
	Contact    string               `json:"contact,omitempty"` // OTP: the email or phone number
	Identity   *walletauth.Identity `json:"identity,omitempty"`
	Passkey    *walletauth.Passkey  `json:"passkey,omitempty"`
	OTP        *otpChallenge        `json:"otp,omitempty"`
	// LockedUntil ends OTP logins for a while after too many wrong codes.
	LockedUntil *time.Time `json:"lockedUntil,omitempty"`
	// Failures are the wrong OTP codes of the last WalletOTPLockout, and
	// Challenges the OTP challenges issued in the last hour: the state of
	// the credential's limits, written with the operation they limit.
	Failures   []time.Time `json:"failures,omitempty"`
	Challenges []time.Time `json:"challenges,omitempty"`
}

// otpLocked is the 429 of a credential whose OTP logins are locked, with
// the time left; nil once the lock has passed (judged by t.Now, so a test
// clock ends it).
func otpLocked(t *engine.Txn, c *credentialRecord) error {
	if c.LockedUntil == nil || !t.Now.Before(*c.LockedUntil) {
		return nil
	}
	return customers.RateLimited(c.LockedUntil.Sub(t.Now), "wrong OTP codes")
}

// otpWrongCode counts a wrong code on c: the WalletOTPAttempts-th within
// WalletOTPLockout ends the challenge and locks c until the first of them
// leaves the window (the 429 it answers); otherwise the 401.
func otpWrongCode(t *engine.Txn, c *credentialRecord) error {
	c.Failures = append(customers.Recent(c.Failures, t.Now, WalletOTPLockout), t.Now)
	wait := customers.SendWait(c.Failures, t.Now, 0, WalletOTPAttempts, WalletOTPLockout)
	if wait <= 0 {
		return engine.Errorf(engine.CodeUnauthorized, "Invalid OTP code")
	}
	until := t.Now.Add(wait)
	c.OTP, c.LockedUntil = nil, &until
	return customers.RateLimited(wait, "wrong OTP codes")
}

// countOTPChallenge is the 429 of a challenge issued too often on c
// (WalletOTPResendInterval, WalletOTPChallengesPerHour), as SCA limits its
// sends; otherwise it records the challenge in c, which the operation
// stores with the new code. The interval holds only while the last code is
// outstanding: a used code was the holder's login, and a new one (another
// device) need not wait; it still counts toward the hour. The code a new
// OTP credential starts with (CreateCredential, once per credential) is
// not counted.
func countOTPChallenge(t *engine.Txn, c *credentialRecord) error {
	interval := WalletOTPResendInterval
	if c.OTP == nil || !t.Now.Before(c.OTP.ExpiresAt) {
		interval = 0 // the last code was used, expired or ended by a lockout
	}
	c.Challenges = customers.Recent(c.Challenges, t.Now, time.Hour)
	if wait := customers.SendWait(c.Challenges, t.Now, interval, WalletOTPChallengesPerHour, time.Hour); wait > 0 {
		return customers.RateLimited(wait, "OTP challenges")
	}
	c.Challenges = append(c.Challenges, t.Now)
	return nil
}

// otpChallenge is an outstanding OTP: the HPKE target key the client seals
// its attempt to, and the code's hash.
type otpChallenge struct {
	TargetKey []byte    `json:"targetKey"`
	CodeHash  string    `json:"codeHash"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// sessionRecord is a session as stored. A revoked or expired session stays
// stored, inactive: nothing deletes it, and every read checks active.
type sessionRecord struct {
	AuthSession
	AuthMethodID string `json:"authMethodId"`
	PublicKey    string `json:"publicKey"` // compressed hex: the key that signs
	Revoked      bool   `json:"revoked,omitempty"`
}

// active reports whether s may still sign at now.
func (s *sessionRecord) active(now time.Time) bool { return !s.Revoked && now.Before(s.ExpiresAt) }

// walletSecret is what an export seals: the wallet's secret, drawn at the
// first export.
type walletSecret struct {
	Secret []byte `json:"secret"`
}

// walletIDs are the reference's organization and user ids of a wallet,
// derived from its account id (so nothing is stored for them); they appear
// in every payloadToSign of the wallet.
func walletIDs(accountID string) (org, user string) {
	u := strings.ReplaceAll(strings.TrimPrefix(accountID, "InternalAccount:"), "-", "")
	return "org_" + u, "user_" + u
}

// activity builds the payloadToSign of an action on wallet accountID.
func activity(accountID, typ string, params map[string]any, now time.Time) string {
	org, user := walletIDs(accountID)
	params["userId"] = user
	return walletauth.Activity(org, "ACTIVITY_TYPE_"+typ, params, now)
}

// walletDraws is the randomness of a wallet operation, drawn before its
// transaction so the transaction function stays deterministic.
type walletDraws struct {
	target  []byte // an HPKE target key (private scalar)
	session []byte // a server-made session key (legacy flow)
	code    []byte // random bytes an OTP code is cut from (otpCode)
	// sealed is session sealed to the client key sealedTo, in the legacy
	// flow (sealFor), made before the transaction that records it.
	sealed, sealedTo string
}

// drawWallet draws every secret an operation may need, whether or not it
// uses them: cheaper to reason about than drawing per path, and the
// transaction function that follows stays deterministic on a store retry.
func drawWallet(e *engine.Handle) (*walletDraws, error) {
	d := &walletDraws{code: make([]byte, 24)}
	tk, err := walletauth.NewTargetKey()
	if err != nil {
		return nil, err
	}
	sk, err := walletauth.NewTargetKey()
	if err != nil {
		return nil, err
	}
	d.target, d.session = tk.Bytes(), sk.Bytes()
	if _, err := rand.Read(d.code); err != nil {
		return nil, err
	}
	return d, nil
}

// otpCode is the OTP of a challenge: the sandbox's fixed code, or one cut
// from the drawn bytes by the platform's embeddedWalletConfig (otpLength,
// default 6; digits, or digits and capitals when alphanumeric).
func (d *walletDraws) otpCode(sandbox bool, w *platform.EmbeddedWalletConfig) string {
	if sandbox {
		return SandboxOTPCode
	}
	n, alphabet := 6, "0123456789"
	if w != nil && w.OtpLength > 0 {
		n = w.OtpLength
	}
	if w != nil && w.Alphanumeric {
		alphabet = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
	}
	// 24 drawn bytes cover the longest code the platform configuration
	// allows (otpLength at most 12, two bytes a character).
	out := make([]byte, n)
	for i := range out {
		v := int(d.code[2*i])<<8 | int(d.code[2*i+1]) // 16 bits: a negligible modulo bias
		out[i] = alphabet[v%len(alphabet)]
	}
	return string(out)
}

// walletAccount loads an embedded wallet: ACCOUNT_NOT_FOUND when absent or
// of another type.
func walletAccount(t *engine.Txn, id string) (*accounts.InternalAccount, error) {
	a, err := accounts.Internal(t, id)
	if err == nil && a.Type != accounts.EmbeddedWallet {
		return nil, engine.Errorf(engine.CodeAccountNotFound, "internal account %s is not an embedded wallet", id)
	}
	return a, err
}

// openWallet opens a customer's embedded wallet in currency (its secret is
// drawn at the first export), and the EMAIL_OTP credential tied to the
// customer's email when that email is not tied to another wallet. The
// accounts area stores the account (accounts.OpenWallet), in t.
func openWallet(t *engine.Txn, c *customers.Customer, currency string) (*accounts.InternalAccount, error) {
	id := t.NewID("InternalAccount")
	off := false
	a := &accounts.InternalAccount{ID: id, CustomerID: c.ID, Type: accounts.EmbeddedWallet, Status: "ACTIVE", Currency: currency,
		PrivateEnabled: &off, CreatedAt: t.Now, UpdatedAt: t.Now}
	if err := accounts.OpenWallet(t, a); err != nil {
		return nil, err
	}
	if err := t.Put(tableWalletsByCustomer, c.ID+"|"+id, []byte(id)); err != nil {
		return nil, err
	}
	if c.Email == "" {
		return a, nil
	}
	if _, err := t.Get(tableWalletEmails, c.Email); err == nil {
		return a, nil
	}
	_, err := addCredential(t, a, c, &credentialRecord{AuthMethod: AuthMethod{Type: CredentialEmailOTP}})
	return a, err
}

// Provision opens an embedded wallet for a customer in currency (when
// empty, USDB if the customer has it, else the customer's first currency),
// with the EMAIL_OTP credential tied to the customer's email. Customers
// with USDB among their currencies, and customers created while the
// platform has an embeddedWalletConfig, get one automatically (the
// package-level Provision). CUSTOMER_NOT_FOUND for an unknown customer.
// Each call opens another wallet, but a retry with the handle's
// idempotency key, which answers the wallet the first call opened.
func (w Service) Provision(ctx context.Context, customerID, currency string) (*accounts.InternalAccountView, error) {
	return engine.Run(ctx, w.e, provision, [2]string{customerID, currency})
}

// provision is Service.Provision's operation; its request is [customer
// id, currency].
var provision = engine.Op[[2]string, *accounts.InternalAccountView, struct{}]{Area: "wallets", Name: "Provision",
	Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (out *accounts.InternalAccountView, err error) {
		customerID, currency := in[0], in[1]
		err = func() error {
			r, err := customers.RecordOf(t, customerID)
			if err != nil {
				return err
			}
			p, err := platform.Load(t)
			if err != nil {
				return err
			}
			cur := currency
			if cur == "" {
				cur = walletCurrency(customers.Currencies(r, p))
			}
			a, err := openWallet(t, &r.Customer, cur)
			if err != nil {
				return err
			}
			out, err = accounts.View(t, a)
			return err
		}()
		return out, err
	}}

// walletCurrency is the currency a customer's embedded wallet is opened
// in: USDB (the Global Account) when the customer has it, else the first.
func walletCurrency(cur []string) string {
	if slices.Contains(cur, customers.GlobalAccountCurrency) {
		return customers.GlobalAccountCurrency
	}
	return cur[0]
}

// credential loads a credential: AUTH_METHOD_NOT_FOUND when absent.
func credential(t *engine.Txn, id string) (*credentialRecord, error) {
	var c credentialRecord
	if err := engine.GetJSON(t, tableWalletCredentials, id, &c); err != nil {
		return nil, engine.NotFound(err, CodeAuthMethodNotFound, "authentication credential", id)
	}
	return &c, nil
}

// credentials lists the credentials of a wallet, in id order (ids are
// time-ordered, so oldest first).
func credentials(t *engine.Txn, accountID string) ([]*credentialRecord, error) {
	var out []*credentialRecord
	err := t.Scan(tableWalletCredentialsByAcct, engine.ScanOptions{Prefix: accountID + "|"}, func(_ string, v []byte) (bool, error) {
		c, err := credential(t, string(v))
		if err != nil {
			return false, err
		}
		out = append(out, c)
		return true, nil
	})
	return out, err
}

// sessions lists the sessions of a wallet that are still active.
func sessions(t *engine.Txn, accountID string) ([]*sessionRecord, error) {
	var out []*sessionRecord
	err := t.Scan(tableWalletSessionsByAcct, engine.ScanOptions{Prefix: accountID + "|"}, func(_ string, v []byte) (bool, error) {
		var s sessionRecord
		if err := engine.GetJSON(t, tableWalletSessions, string(v), &s); err != nil {
			return false, err
		}
		if s.active(t.Now) {
			out = append(out, &s)
		}
		return true, nil
	})
	return out, err
}

// session loads an active session: SESSION_NOT_FOUND when absent, revoked
// or expired.
func session(t *engine.Txn, id string) (*sessionRecord, error) {
	var s sessionRecord
	if err := engine.GetJSON(t, tableWalletSessions, id, &s); err != nil {
		return nil, engine.NotFound(err, CodeSessionNotFound, "session", id)
	}
	if !s.active(t.Now) {
		return nil, engine.Errorf(CodeSessionNotFound, "session %s is not active", id)
	}
	return &s, nil
}

// openSession starts a session for credential c signed by publicKey
// (compressed hex), active for WalletSessionTTL from t.Now.
func openSession(t *engine.Txn, c *credentialRecord, publicKey string) (*sessionRecord, error) {
	s := &sessionRecord{AuthSession: AuthSession{AuthMethod: c.AuthMethod, ID: t.NewID("Session"), ExpiresAt: t.Now.Add(WalletSessionTTL)},
		AuthMethodID: c.ID, PublicKey: publicKey}
	s.CreatedAt, s.UpdatedAt = t.Now, t.Now
	if err := engine.PutJSON(t, tableWalletSessions, s.ID, s); err != nil {
		return nil, err
	}
	return s, t.Put(tableWalletSessionsByAcct, c.AccountID+"|"+s.ID, []byte(s.ID))
}

// mustJSON is json.Marshal for records whose encoding cannot fail.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// DefaultWalletRelyingParty is the relying party of a local sandbox, used
// when Options.RelyingParty has no ID. A production deployment sets its
// own (payments.Config.WalletRelyingParty): passkeys are bound to the
// relying party's ID and origins.
var DefaultWalletRelyingParty = walletauth.RelyingParty{ID: "localhost", Origins: []string{"http://localhost", "http://localhost:8080"}}

// walletRelyingParty is the WebAuthn relying party of wallet passkeys.
func walletRelyingParty(e *engine.Handle) walletauth.RelyingParty {
	if walletsSlot.Of(e).RelyingParty.ID == "" {
		return DefaultWalletRelyingParty
	}
	return walletsSlot.Of(e).RelyingParty
}

// passkeyRefused is the 401 for a wallet passkey's attestation or
// assertion (what) that does not verify, naming the check that failed.
func passkeyRefused(what string, err error) error {
	reason := "the response does not verify"
	var pe *walletauth.PasskeyError
	if errors.As(err, &pe) {
		reason = pe.Reason
	}
	return engine.Errorf(engine.CodeUnauthorized, "the passkey %s does not verify: %s", what, reason)
}

// customerWallets lists the ids of a customer's embedded wallets, from the
// area's own lookup (tableWalletsByCustomer, written by openWallet).
func customerWallets(t *engine.Txn, customerID string) ([]string, error) {
	var out []string
	err := t.Scan(tableWalletsByCustomer, engine.ScanOptions{Prefix: customerID + "|"}, func(_ string, v []byte) (bool, error) {
		out = append(out, string(v))
		return true, nil
	})
	return out, err
}
