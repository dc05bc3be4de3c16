package accounts

import (
	"context"
	"fmt"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/validate"
	"github.com/paygrid/payments/walletauth"
)

// tableLivenessDue is the due work of LIVENESS challenges, keyed by
// completion time (engine.DueKey: "<due time>|<account id>") -> account
// id. Each item applies in its own transaction (applyLivenessDue).
const tableLivenessDue = "liveness_due"

// Ownership challenge methods and lifetimes. A LIVENESS link stays valid
// for 24 hours; the sandbox passes its check after LivenessDelay.
const (
	MethodWalletSignature = "WALLET_SIGNATURE"
	MethodLiveness        = "LIVENESS"
	// SignatureChallengeTTL is how long a messageToSign may be signed.
	SignatureChallengeTTL = 10 * time.Minute
	// LivenessDelay is how long the sandbox liveness check takes.
	LivenessDelay = time.Minute
)

// OwnershipChallenge asks the holder of a self-custody wallet to prove it:
// sign MessageToSign (WALLET_SIGNATURE) before ExpiresAt, or complete a
// liveness check at VerificationLink (LIVENESS).
type OwnershipChallenge struct {
	Method           string    `json:"method"`
	MessageToSign    string    `json:"messageToSign,omitempty"`
	VerificationLink string    `json:"verificationLink,omitempty"`
	ExpiresAt        time.Time `json:"expiresAt"`
}

// CreateOwnershipChallenge starts an ownership proof for a wallet account
// that needs one (PENDING_OWNERSHIP_VERIFICATION, or UNVERIFIED after a
// failed attempt); others are CONFLICT. A new challenge replaces an
// outstanding one. method is WALLET_SIGNATURE (default) or LIVENESS
// (INVALID_INPUT otherwise); an unknown account or another scope's is
// ACCOUNT_NOT_FOUND. The message to sign names the wallet, the account and
// a fresh nonce, so a signature proves control now and cannot be
// replayed for another account. A LIVENESS challenge schedules its check
// as due work in the same transaction.
func (as Service) CreateOwnershipChallenge(ctx context.Context, id string, scope Scope, method string) (*OwnershipChallenge, error) {
	return engine.Run(ctx, as.e, createOwnershipChallenge, ownershipRequest{id: id, scope: scope, method: method})
}

// ownershipRequest is a CreateOwnershipChallenge (method) or
// VerifyOwnership (signature, scheme) request.
type ownershipRequest struct {
	id                        string
	scope                     Scope
	method, signature, scheme string
}

// createOwnershipChallenge is Service.CreateOwnershipChallenge's operation.
var createOwnershipChallenge = engine.Op[ownershipRequest, *OwnershipChallenge, struct{}]{Area: "accounts", Name: "CreateOwnershipChallenge",
	Fingerprint: func(r *ownershipRequest) any { return []any{r.id, r.scope == PlatformScope, r.method} },
	Validate: func(r *ownershipRequest) error {
		if r.method == "" {
			r.method = MethodWalletSignature
		}
		var fe validate.Errors
		fe.Enum("method", r.method, MethodWalletSignature, MethodLiveness)
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *ownershipRequest, _ *struct{}) (out *OwnershipChallenge, err error) {
		id, platform, method := in.id, in.scope == PlatformScope, in.method
		r, err := sideAccount(t, id, platform)
		if err != nil {
			return out, err
		}
		if r.Status != rails.ExternalPendingOwnershipVerification && r.Status != rails.ExternalUnverified {
			return out, engine.Errorf(engine.CodeConflict, "external account %s is %s; only wallets awaiting ownership verification take a challenge", id, r.Status)
		}
		nonce := engine.RandomHex(16)
		ch := &OwnershipChallenge{Method: method}
		if method == MethodWalletSignature {
			ch.ExpiresAt = t.Now.Add(SignatureChallengeTTL)
			ch.MessageToSign = fmt.Sprintf("I control the wallet %s registered as %s.\nNonce: %s\nExpires: %s",
				r.Identifier(), id, nonce, ch.ExpiresAt.Format(time.RFC3339))
		} else {
			ch.ExpiresAt = t.Now.Add(24 * time.Hour)
			ch.VerificationLink = "https://liveness.sandbox.uma.money/check/" + nonce
			due := engine.DueKey(t.Now.Add(LivenessDelay), id)
			if err := t.Put(tableLivenessDue, due, []byte(id)); err != nil {
				return out, err
			}
		}
		r.Challenge, r.UpdatedAt = ch, t.Now
		out = ch
		return out, engine.PutJSON(t, tableExternalAccounts, id, r)
	}}

// VerifyOwnership checks a signature over the outstanding WALLET_SIGNATURE
// challenge: EIP-191 (hex) for EVM wallets, Bitcoin message signatures
// (base64; scheme bip137 or electrum) against a Spark wallet's identity key,
// base58 Ed25519 for Solana. Valid before expiry: ACTIVE. Invalid or
// expired: the account becomes UNVERIFIED, the challenge is spent and the
// answer is INVALID_INPUT. Without an outstanding challenge: CONFLICT.
// The failed attempt commits (the account UNVERIFIED, the challenge
// spent) although the answer is an error (engine.Keep), so a wrong
// signature cannot be retried against the same message.
func (as Service) VerifyOwnership(ctx context.Context, id string, scope Scope, signature, scheme string) (*rails.ExternalAccount, error) {
	return engine.Run(ctx, as.e, verifyOwnership, ownershipRequest{id: id, scope: scope, signature: signature, scheme: scheme})
}

// verifyOwnership is Service.VerifyOwnership's operation. A signature that
// proves nothing is a kept refusal (engine.Keep): the account becomes
// UNVERIFIED with it.
var verifyOwnership = engine.Op[ownershipRequest, *rails.ExternalAccount, struct{}]{Area: "accounts", Name: "VerifyOwnership",
	Fingerprint: func(r *ownershipRequest) any { return []any{r.id, r.scope == PlatformScope, r.signature, r.scheme} },
	Decide: func(t *engine.Txn, in *ownershipRequest, _ *struct{}) (out *rails.ExternalAccount, err error) {
		id, platform, signature, scheme := in.id, in.scope == PlatformScope, in.signature, in.scheme
		var failure error
		r, err := sideAccount(t, id, platform)
		if err != nil {
			return out, err
		}
		ch := r.Challenge
		if ch == nil || ch.Method != MethodWalletSignature {
			return out, engine.Errorf(engine.CodeConflict, "no WALLET_SIGNATURE challenge is outstanding for %s; start one with POST .../challenge", id)
		}
		var fe validate.Errors
		if !fe.Required("signature", signature) || !fe.Enum("signatureScheme", scheme, walletauth.SchemeBIP137, walletauth.SchemeElectrum) {
			return out, engine.Invalid(fe)
		}
		verr := checkOwnership(r, []byte(ch.MessageToSign), signature, scheme)
		if t.Now.After(ch.ExpiresAt) {
			verr = fmt.Errorf("the challenge expired at %s; start a new one", ch.ExpiresAt.Format(time.RFC3339))
		}
		r.Challenge = nil
		status := rails.ExternalActive
		if verr != nil {
			status = rails.ExternalUnverified
			fe.Add("signature", nil, "ownership not proven: %v", verr)
			failure = engine.Invalid(fe)
		}
		if err := setExternalStatus(t, r, status); err != nil {
			return out, err
		}
		out = &r.ExternalAccount
		if failure != nil {
			return out, engine.Keep(failure)
		}
		return out, nil
	}}

// checkOwnership verifies signature over msg with the wallet's key: the
// address itself for EVM and Solana, the identity key a Spark address
// carries. scheme matters for Spark only.
func checkOwnership(r *ExternalRecord, msg []byte, signature, scheme string) error {
	addr := r.Identifier()
	switch Chain(r.AccountType()) {
	case "EVM":
		return walletauth.VerifyEIP191(addr, msg, signature)
	case "SOLANA":
		return walletauth.VerifySolana(addr, msg, signature)
	case "SPARK":
		key, err := SparkIdentityKey(addr)
		if err != nil {
			return err
		}
		if scheme == "" {
			scheme = walletauth.SchemeBIP137
		}
		return walletauth.VerifyBitcoinKey(key, msg, signature, scheme)
	}
	return fmt.Errorf("wallets of type %s cannot prove ownership by signature", r.AccountType())
}

// setExternalStatus stores r with status and emits
// EXTERNAL_ACCOUNT.STATUS_UPDATED when the status changed.
func setExternalStatus(t *engine.Txn, r *ExternalRecord, s rails.ExternalAccountStatus) error {
	changed := r.Status != s
	r.Status, r.UpdatedAt = s, t.Now
	if err := engine.PutJSON(t, tableExternalAccounts, r.ID, r); err != nil {
		return err
	}
	if !changed {
		return nil
	}
	return t.Emit(EventExternalAccountStatusUpdated, r.ExternalAccount)
}

// applyLivenessDue finishes a LIVENESS check that came due: in the sandbox
// every liveness check passes and the wallet becomes ACTIVE. A due item
// whose account was deleted, or whose challenge is no longer a LIVENESS
// one, is dropped and reports no move. An item of an earlier LIVENESS
// challenge still completes a newer one.
func applyLivenessDue(t *engine.Txn, _ string, v []byte) (bool, error) {
	r, err := ExternalRecordOf(t, string(v))
	if err != nil || r.Challenge == nil || r.Challenge.Method != MethodLiveness {
		return false, nil // deleted or re-challenged since
	}
	r.Challenge = nil
	return true, setExternalStatus(t, r, rails.ExternalActive)
}
