package quotes

import (
	"context"
	"errors"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// ScaChallengeTTL is how long a quote's SCA challenge may be satisfied; a
// challenge never outlives its quote's rate (challengeQuote).
const ScaChallengeTTL = 5 * time.Minute

// drawChallenge draws the secrets of a quote's SCA challenge before its
// transaction: the SMS code and the WebAuthn challenge. They are drawn
// whether or not the quote turns out to need a challenge, because a
// transaction function may not draw randomness (a rerun would draw other
// secrets than the code already handed to the code sender).
func drawChallenge(e *engine.Handle) customers.SCADraw {
	return customers.SCADraw{Code: customers.KYC(e).ContactCode("SCA"), Nonce: engine.RandomBytes(32)}
}

// requireSCA puts a real-time funded quote of a customer in an SCA region
// into PENDING_AUTHORIZATION: a challenge of the preferred factor
// (customers.ChallengeFactor) is attached and the payment instructions are
// withheld until the quote is authorized. The transaction that stores the
// quote hands an SMS code to the code sender (intendChallengeCode).
func requireSCA(e *engine.Handle, t *engine.Txn, q *Record, d customers.SCADraw, preferred string) error {
	if q.CustomerID == "" {
		return nil
	}
	c, err := customers.Get(t, q.CustomerID)
	if err != nil || !customers.KYC(e).SCARequired(c) {
		return err
	}
	id, err := e.NewID("ScaChallenge")
	if err != nil {
		return err
	}
	return challengeQuote(t, q, id, d, preferred)
}

// challengeQuote attaches a new per-transaction challenge to q and moves it
// to PENDING_AUTHORIZATION. The challenge lives ScaChallengeTTL, never
// beyond the quote's rate; its proof is checked by SCA.Authorize.
func challengeQuote(t *engine.Txn, q *Record, id string, d customers.SCADraw, preferred string) error {
	st, err := customers.SCAState(t, q.CustomerID)
	if err != nil {
		return err
	}
	factor := customers.ChallengeFactor(preferred, st.Passkey != nil)
	exp := t.Now.Add(ScaChallengeTTL)
	if q.ExpiresAt.Before(exp) {
		exp = q.ExpiresAt // a challenge cannot outlive the rate it authorizes
	}
	ch := &accounts.ScaChallenge{ID: id, ExpiresAt: exp, Factor: factor, AvailableFactors: []string{factor}, Purpose: "PAYOUT"}
	q.ScaCodeHash, q.ScaNonce, q.ScaSends = "", nil, nil
	if factor == customers.FactorPasskey {
		q.ScaNonce = d.Nonce
		ch.PasskeyAssertionOptions = customers.AssertionOptions(customers.RelyingParty(t.Handle), st.Passkey, d.Nonce, exp.Sub(t.Now))
	} else {
		q.ScaCodeHash, q.ScaSends = engine.HashSecret(d.Code), []time.Time{t.Now}
	}
	q.Status, q.ScaChallenge = PendingAuthorization, ch
	q.HeldInstructions, q.PaymentInstructions = q.PaymentInstructions, nil
	return nil
}

// intendChallengeCode delivers the code of a new SMS_OTP challenge after
// commit.
func intendChallengeCode(t *engine.Txn, q *Record, code string) error {
	if q.ScaChallenge.Factor != customers.FactorSMS {
		return nil
	}
	c, err := customers.Get(t, q.CustomerID)
	if err != nil {
		return err
	}
	return customers.IntendCode(t, customers.CodeMessage{ID: q.ScaChallenge.ID, CustomerID: c.ID, Channel: "SCA", To: c.PhoneNumber, Code: code, Purpose: "PAYOUT"})
}

// executeOrChallenge executes a PENDING quote, or, for a customer in an SCA
// region paying anyone but a trusted beneficiary, holds it in
// PENDING_AUTHORIZATION with a challenge: the transfer starts only once
// SCA.Authorize satisfies it (reference POST /quotes/{quoteId}/execute,
// "SCA required").
func executeOrChallenge(t *engine.Txn, q *Record, d customers.SCADraw, preferred string) error {
	if q.Status != Pending || q.CustomerID == "" {
		return Execute(t, q) // its answer for a quote in another state
	}
	c, err := customers.Sending(t, q.CustomerID)
	if err != nil {
		return err
	}
	if sc := *c; !customers.KYC(t.Handle).SCARequired(&sc) || trustedDestination(t, q) {
		return Execute(t, q)
	}
	if err := challengeQuote(t, q, t.NewID("ScaChallenge"), d, preferred); err != nil {
		return err
	}
	tx, err := GetTransaction(t, q.TransactionID)
	if err != nil {
		return err
	}
	tx.Status = TxPendingAuthorization
	if err := SaveTransaction(t, tx, ""); err != nil {
		return err
	}
	if err := intendChallengeCode(t, q, d.Code); err != nil {
		return err
	}
	return emitAuthorizationPending(t, q, tx)
}

// trustedDestination reports whether q pays an external account its sender
// trusts (a trusted beneficiary, accounts.ExternalRecord.Trusted), which
// skips the per-transaction challenge (the trusted-beneficiary
// exemption).
func trustedDestination(t *engine.Txn, q *Record) bool {
	if q.Destination.AccountID == "" {
		return false
	}
	r, err := accounts.SharedExternal(t, q.Destination.AccountID)
	return err == nil && r.Trusted && r.CustomerID == q.CustomerID
}

// Authorizations authorizes the quotes that need Strong Customer Authentication
// (the quotes area's part of eng.SCA, payments.SCA; payments.QuoteSCA).
type Authorizations struct{ e *engine.Handle }

// NewAuthorizations returns the Authorizations group of h.
func NewAuthorizations(h *engine.Handle) Authorizations { return Authorizations{h} }

// Authorize satisfies a quote's SMS_OTP challenge with its one-time code:
// Authorizations.Authorize with a code, answering the same codes.
func (qs Service) Authorize(ctx context.Context, id, code string) (*Quote, error) {
	return engine.Run(ctx, qs.e, authorizeCode, authorization{id, customers.ScaAuthorization{Code: code}})
}

// Authorize satisfies a quote's SCA challenge with proof p: the code of an
// SMS_OTP challenge or the passkey assertion of a PASSKEY one. A real-time
// funded quote becomes PENDING and its payment instructions are issued; a
// quote funded from an account executes. The customer needs an SCA login
// session (SCA_SESSION_REQUIRED otherwise) and a login that is not locked
// (ACCOUNT_LOCKED); a wrong proof counts as a failed attempt
// (INVALID_INPUT, or ACCOUNT_LOCKED once it locks). A quote that is not
// PENDING_AUTHORIZATION is CONFLICT; an expired challenge
// SCA_SESSION_REQUIRED (request a new quote), which also fails the quote
// (SCA_NOT_COMPLETED, see ExpireIfDue), and stays the answer for that quote.
//
// A wrong proof and an expired challenge are kept refusals: the counted
// attempt or the failed quote commits, and the refusal is recorded as the
// operation's answer, so a retry under the same idempotency key gets the
// same refusal instead of another attempt.
func (s Authorizations) Authorize(ctx context.Context, id string, p customers.ScaAuthorization) (*Quote, error) {
	return engine.Run(ctx, s.e, authorizeQuote, authorization{id, p})
}

// authorization is a proof offered for a quote's SCA challenge.
type authorization struct {
	id string
	p  customers.ScaAuthorization
}

// authorizeQuote is Authorizations.Authorize's operation; its idempotency
// record fingerprints [id, proof], as before it was declared. A wrong
// proof's counted attempt and an expired challenge's failed quote commit
// with their refusal (engine.Keep).
var authorizeQuote = engine.Op[authorization, *Quote, struct{}]{Area: "quotes", Name: "Authorizations.Authorize",
	Fingerprint: func(in *authorization) any { return []any{in.id, in.p} },
	Decide:      decideAuthorization,
}

// authorizeCode is Service.Authorize's operation: Authorizations.Authorize
// with an SMS code, under its own name.
var authorizeCode = engine.Op[authorization, *Quote, struct{}]{Area: "quotes", Name: "Authorize",
	Fingerprint: authorizeQuote.Fingerprint,
	Decide:      decideAuthorization,
}

// decideAuthorization checks the proof in t and authorizes the quote: a
// quote funded from an account executes, a real-time funded one gets its
// payment instructions.
func decideAuthorization(t *engine.Txn, in *authorization, _ *struct{}) (*Quote, error) {
	id, p := in.id, in.p
	q, err := Get(t, id)
	if err != nil {
		return nil, err
	}
	if expired, err := ExpireIfDue(t, q); err != nil || expired {
		if err != nil {
			return nil, err
		}
		return nil, engine.Keep(engine.Errorf(CodeScaSessionRequired, "the SCA challenge of quote %s expired; request a new quote", id))
	}
	if q.Status != PendingAuthorization || q.ScaChallenge == nil {
		if challengeLapsed(t, q) {
			return nil, engine.Errorf(CodeScaSessionRequired, "the SCA challenge of quote %s expired; request a new quote", id)
		}
		return nil, engine.Errorf(engine.CodeConflict, "quote %s is %s and has no SCA challenge to satisfy", id, q.Status)
	}
	_, st, err := customers.ForSCA(t, q.CustomerID)
	if err != nil {
		return nil, err
	}
	if st.Security.Locked(t.Now) {
		return nil, customers.LockedError(st.Security)
	}
	if !st.SessionActive(t.Now) {
		return nil, engine.Errorf(CodeScaSessionRequired, "customer %s has no SCA login session; log in (POST /sca/login/start, then /sca/login/complete) and authorize again", q.CustomerID)
	}
	ch := &customers.SCAPending{Factor: q.ScaChallenge.Factor, CodeHash: q.ScaCodeHash, Nonce: q.ScaNonce}
	switch err := customers.CheckProof(t, st, ch, p, customers.SCADraw{}); {
	case errors.Is(err, customers.ErrWrongProof):
		failure := customers.ProofFailed(t, st, customers.ProofField(ch.Factor))
		if err := customers.SaveSCA(t, q.CustomerID, st); err != nil {
			return nil, err
		}
		return nil, engine.Keep(failure)
	case err != nil:
		return nil, err
	}
	if err := customers.SaveSCA(t, q.CustomerID, st); err != nil { // a passkey's counter
		return nil, err
	}
	q.Status, q.ScaChallenge, q.ScaCodeHash, q.ScaNonce, q.ScaSends = Pending, nil, "", nil, nil
	if q.Source.SourceType == SourceAccount {
		if err := Execute(t, q); err != nil {
			return nil, err
		}
		return &q.Quote, nil
	}
	q.PaymentInstructions, q.HeldInstructions = q.HeldInstructions, nil
	tx, err := GetTransaction(t, q.TransactionID)
	if err != nil {
		return nil, err
	}
	tx.Status = TxPending // waiting for its funds; PROCESSING follows
	tx.PaymentInstructions = txInstructions(q)
	if err := SaveTransaction(t, tx, ""); err != nil {
		return nil, err
	}
	if err := saveQuote(t, q); err != nil {
		return nil, err
	}
	return &q.Quote, nil
}

// challengeLapsed reports whether q failed because its SCA challenge was
// never satisfied. Authorizing such a quote answers as the authorization
// that found the challenge expired did, whether the due-work worker or that
// authorization failed it: deadlines are judged by due time, not by when
// the worker last ran.
func challengeLapsed(t *engine.Txn, q *Record) bool {
	if q.Status != Failed {
		return false
	}
	tx, err := GetTransaction(t, q.TransactionID)
	return err == nil && tx.FailureReason == scaNotCompleted
}

// Resend sends a new code for a quote's SMS_OTP challenge, which keeps its
// id and expiry. Sends are ScaResendInterval apart and at most ScaMaxSends
// per challenge (RATE_LIMITED with the wait); a quote without a pending
// SMS_OTP challenge, or of a customer outside SCA regions, is CONFLICT,
// as is one whose challenge expired (the quote then fails, kept as for
// Authorize). The new code replaces the old one: only the latest code
// authorizes. It is handed to the code sender after commit.
func (s Authorizations) Resend(ctx context.Context, id string) error {
	_, err := engine.Run(ctx, s.e, resendCode, id)
	return err
}

// resendCode is Authorizations.Resend's operation: the new code is drawn
// in Prefetch, and an expired challenge's failed quote commits with its
// refusal (engine.Keep).
var resendCode = engine.Op[string, struct{}, customers.SCADraw]{Area: "quotes", Name: "Authorizations.Resend",
	Prefetch: func(_ context.Context, e *engine.Handle, _ *string, f *customers.SCADraw, _ error) error {
		*f = drawChallenge(e)
		return nil
	},
	Decide: func(t *engine.Txn, in *string, f *customers.SCADraw) (struct{}, error) {
		id := *in
		q, err := Get(t, id)
		if err != nil {
			return struct{}{}, err
		}
		if q.CustomerID == "" {
			return struct{}{}, engine.Errorf(engine.CodeConflict, "quote %s has no customer to authenticate", id)
		}
		c, err := customers.Get(t, q.CustomerID)
		if err != nil {
			return struct{}{}, err
		}
		if !customers.KYC(t.Handle).SCARequired(c) {
			return struct{}{}, engine.Errorf(engine.CodeConflict, "customer %s is not in a region that uses Strong Customer Authentication", c.ID)
		}
		if expired, err := ExpireIfDue(t, q); err != nil || expired {
			if err != nil {
				return struct{}{}, err
			}
			return struct{}{}, engine.Keep(engine.Errorf(engine.CodeConflict, "the SCA challenge of quote %s expired; request a new quote", id))
		}
		if q.Status != PendingAuthorization || q.ScaChallenge == nil || q.ScaChallenge.Factor != customers.FactorSMS {
			return struct{}{}, engine.Errorf(engine.CodeConflict, "quote %s has no pending SMS_OTP challenge whose code could be sent again", id)
		}
		if wait := customers.SendWait(q.ScaSends, t.Now, customers.ScaResendInterval, customers.ScaMaxSends, ScaChallengeTTL); wait > 0 {
			return struct{}{}, customers.RateLimited(wait, "codes sent for this challenge")
		}
		q.ScaSends, q.ScaCodeHash = append(q.ScaSends, t.Now), engine.HashSecret(f.Code)
		if err := customers.IntendCode(t, customers.CodeMessage{ID: t.NewID("ScaCode"), CustomerID: c.ID, Channel: "SCA", To: c.PhoneNumber, Code: f.Code, Purpose: "PAYOUT"}); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, saveQuote(t, q)
	}}

// emitAuthorizationPending emits OUTGOING_PAYMENT.PENDING then
// .PENDING_AUTHORIZATION for a new quote waiting for SCA,
// so delivery later starts at PROCESSING. The PENDING event carries the
// transaction as it was before the challenge (status PENDING); the quote
// records that it was sent (PendingSent) so it is never sent twice.
func emitAuthorizationPending(t *engine.Txn, q *Record, tx *Transaction) error {
	pending := *tx
	pending.Status = TxPending
	if err := t.Emit(EventOutgoingPaymentPending, &pending); err != nil {
		return err
	}
	q.PendingSent = true
	if err := saveQuote(t, q); err != nil {
		return err
	}
	return t.Emit(EventOutgoingPaymentPendingAuthorization, tx)
}

// ExecuteOptions is the optional body of POST /quotes/{id}/execute: the
// preferred factor of the SCA challenge the call issues (SMS_OTP or
// PASSKEY; TOTP cannot carry dynamic linking and is refused).
type ExecuteOptions struct {
	ScaFactor string `json:"scaFactor,omitempty"`
	// WalletSignature is the stamp over the payloadToSign of a quote paid
	// from an embedded wallet (the Service-Wallet-Signature header), made
	// by an active session of that wallet. With it ScaFactor is ignored: a
	// wallet's signature authorizes its payment. Other quotes ignore it.
	WalletSignature string `json:"-"`
}

// ExecuteWith validates opts (an invalid scaFactor is a field error,
// checked before the quote is read) and executes the quote as
// Quotes.Execute does, except that a customer in an SCA region gets a
// challenge of the preferred factor (customers.ChallengeFactor). It is the
// one entry point of every execution: with opts.WalletSignature it
// executes a quote paid from an embedded wallet (Wallets.ExecuteQuote).
func (qs Service) ExecuteWith(ctx context.Context, id string, opts ExecuteOptions) (*Quote, error) {
	return engine.Run(ctx, qs.e, executeWithOptions, execution{id: id, opts: opts})
}

// executeWithOptions is Service.ExecuteWith's operation: Execute's, under
// its own name, with the SCA factor checked first (a wallet's stamp
// authorizes its payment: its factor is not asked).
var executeWithOptions = engine.Op[execution, *Quote, executing]{Area: "quotes", Name: "ExecuteWith",
	Fingerprint: executeQuote.Fingerprint,
	Validate: func(in *execution) error {
		if stamp := in.opts.WalletSignature; stamp != "" {
			in.opts, in.stamp = ExecuteOptions{}, &stamp
			return nil
		}
		var fe validate.Errors
		if fe.Enum("scaFactor", in.opts.ScaFactor, customers.Factors...) && in.opts.ScaFactor == customers.FactorTOTP {
			fe.Add("scaFactor", &validate.Constraint{Enum: customers.ChallengeFactors}, "scaFactor TOTP cannot authorize a payment; use SMS_OTP or PASSKEY")
		}
		return engine.Invalid(fe.Err())
	},
	Prefetch:  prefetchExecution,
	Contended: executeQuote.Contended,
	Decide:    decideExecution,
}
