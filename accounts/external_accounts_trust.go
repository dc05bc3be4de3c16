package accounts

import (
	"context"
	"crypto/subtle"
	"time"

	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// ScaChallenge is a Strong Customer Authentication challenge to satisfy
// (reference ScaChallenge), as beneficiary trust and the quotes area's
// payouts answer it.
type ScaChallenge struct {
	ID               string    `json:"id"`
	ExpiresAt        time.Time `json:"expiresAt"`
	Factor           string    `json:"factor"`
	AvailableFactors []string  `json:"availableFactors"`
	Purpose          string    `json:"purpose,omitempty"`
	// PasskeyAssertionOptions are the WebAuthn request options of a
	// PASSKEY challenge; PasskeyAllowedOrigins its origins.
	PasskeyAssertionOptions map[string]any `json:"passkeyAssertionOptions,omitempty"`
	PasskeyAllowedOrigins   []string       `json:"passkeyAllowedOrigins,omitempty"`
}

// trustChallenge is an outstanding trust or untrust request, kept on the
// external account's record with the hash of its code.
type trustChallenge struct {
	ScaChallenge
	Trust    bool   `json:"trust"`
	CodeHash string `json:"codeHash"`
	// Attempts counts the wrong codes so far (TrustCodeAttempts).
	Attempts int `json:"attempts,omitempty"`
}

// TrustCodeAttempts wrong codes spend a trust or untrust challenge
// (RATE_LIMITED): a new one must be started, so its 6-digit code cannot
// be guessed while it lasts.
const TrustCodeAttempts = 5

// TrustStart answers a trust or untrust request: the challenge to confirm.
type TrustStart struct {
	ScaChallenge *ScaChallenge `json:"scaChallenge,omitempty"`
}

// TrustResult answers a confirmed trust or untrust.
type TrustResult struct {
	Trusted bool `json:"trusted"`
}

// StartTrust begins trusting (trust true) or untrusting a customer's
// external account: an SMS_OTP challenge valid 5 minutes, confirmed with
// ConfirmTrust. Customers outside SCA regions get CONFLICT, as does an
// account already in the state asked for; an unknown account, or a
// platform account, is ACCOUNT_NOT_FOUND. A new request replaces an
// outstanding one. The code is drawn from the KYC provider before the
// transaction, which keeps its hash and an intent that hands it to the
// CodeSender after commit (purpose TRUST_BENEFICIARY or
// UNTRUST_BENEFICIARY).
func (as Service) StartTrust(ctx context.Context, id string, trust bool) (*TrustStart, error) {
	return engine.Run(ctx, as.e, startTrust, trustRequest{id: id, trust: trust})
}

// trustRequest is a StartTrust or ConfirmTrust request.
type trustRequest struct {
	id    string
	trust bool
	code  string
}

// startTrust is Service.StartTrust's operation: the code is drawn from the
// provider before the transaction.
var startTrust = engine.Op[trustRequest, *TrustStart, string]{Area: "accounts", Name: "StartTrust",
	Fingerprint: func(r *trustRequest) any { return []any{r.id, r.trust} },
	Prefetch: func(_ context.Context, e *engine.Handle, _ *trustRequest, code *string, _ error) error {
		*code = customers.KYC(e).ContactCode("SCA")
		return nil
	},
	Decide: func(t *engine.Txn, in *trustRequest, cp *string) (out *TrustStart, err error) {
		id, trust, code := in.id, in.trust, *cp
		r, c, err := trustTarget(t, id)
		if err != nil {
			return out, err
		}
		if r.Trusted == trust {
			return out, engine.Errorf(engine.CodeConflict, "external account %s is already %s", id, map[bool]string{true: "trusted", false: "untrusted"}[trust])
		}
		cid := t.NewID("ScaChallenge")
		purpose := "TRUST_BENEFICIARY"
		if !trust {
			purpose = "UNTRUST_BENEFICIARY"
		}
		if err := customers.IntendCode(t, customers.CodeMessage{ID: cid, CustomerID: c.ID, Channel: "SCA", To: c.PhoneNumber, Code: code, Purpose: purpose}); err != nil {
			return out, err
		}
		r.TrustChallenge = &trustChallenge{ScaChallenge: ScaChallenge{ID: cid, ExpiresAt: t.Now.Add(5 * time.Minute),
			Factor: "SMS_OTP", AvailableFactors: []string{"SMS_OTP"}, Purpose: purpose}, Trust: trust, CodeHash: engine.HashSecret(code)}
		ch := r.TrustChallenge.ScaChallenge
		out = &TrustStart{ScaChallenge: &ch}
		return out, engine.PutJSON(t, tableExternalAccounts, id, r)
	}}

// ConfirmTrust completes the outstanding trust or untrust challenge with its
// one-time code. trust says which flow the caller confirms: CONFLICT when
// no challenge of that flow is outstanding (or it expired), INVALID_INPUT
// for a missing or wrong code, which leaves the challenge outstanding;
// wrong codes are not counted. The code is compared by its hash, in
// constant time.
func (as Service) ConfirmTrust(ctx context.Context, id string, trust bool, code string) (*TrustResult, error) {
	return engine.Run(ctx, as.e, confirmTrust, trustRequest{id, trust, code})
}

// confirmTrust is Service.ConfirmTrust's operation. A wrong code is a
// kept refusal (engine.Keep): the attempt counts.
var confirmTrust = engine.Op[trustRequest, *TrustResult, struct{}]{Area: "accounts", Name: "ConfirmTrust",
	Fingerprint: func(r *trustRequest) any { return []any{r.id, r.trust, r.code} },
	Decide: func(t *engine.Txn, in *trustRequest, _ *struct{}) (out *TrustResult, err error) {
		id, trust, code := in.id, in.trust, in.code
		var failure error
		r, _, err := trustTarget(t, id)
		if err != nil {
			return out, err
		}
		ch := r.TrustChallenge
		if ch == nil || ch.Trust != trust || t.Now.After(ch.ExpiresAt) {
			return out, engine.Errorf(engine.CodeConflict, "no %s challenge is outstanding for %s; start one first", map[bool]string{true: "trust", false: "untrust"}[trust], id)
		}
		var fe validate.Errors
		if !fe.Required("code", code) {
			return out, engine.Invalid(fe)
		}
		if subtle.ConstantTimeCompare([]byte(engine.HashSecret(code)), []byte(ch.CodeHash)) != 1 {
			// The wrong try is counted in a commit of its own answer, so
			// retries cannot guess the code.
			if ch.Attempts++; ch.Attempts >= TrustCodeAttempts {
				r.TrustChallenge = nil
				failure = engine.Errorf(engine.CodeRateLimited, "too many wrong codes; start a new challenge")
			} else {
				fe.Add("code", nil, "the code is wrong; %d attempts left", TrustCodeAttempts-ch.Attempts)
				failure = engine.Invalid(fe)
			}
			if err := engine.PutJSON(t, tableExternalAccounts, id, r); err != nil {
				return out, err
			}
			return out, engine.Keep(failure)
		}
		r.Trusted, r.TrustChallenge, r.UpdatedAt = trust, nil, t.Now
		out = &TrustResult{Trusted: trust}
		return out, engine.PutJSON(t, tableExternalAccounts, id, r)
	}}

// trustTarget loads a customer's external account with its customer, for
// trust: ACCOUNT_NOT_FOUND for a platform account or an unknown one,
// CONFLICT outside SCA regions. A deleted customer is still found (Get):
// its accounts may be untrusted.
func trustTarget(t *engine.Txn, id string) (*ExternalRecord, *customers.Customer, error) {
	r, err := sideAccount(t, id, false)
	if err != nil {
		return nil, nil, err
	}
	c, err := customers.Get(t, r.CustomerID)
	if err != nil {
		return nil, nil, err
	}
	if !customers.KYC(t.Handle).SCARequired(c) {
		return nil, nil, engine.Errorf(engine.CodeConflict, "customer %s is not in a region that uses Strong Customer Authentication", c.ID)
	}
	return r, c, nil
}
