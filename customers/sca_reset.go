package customers

import (
	"context"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// TwoFactorResetStart answers a started 2FA reset (reference
// TwoFactorResetStart).
type TwoFactorResetStart struct {
	ResetID             string    `json:"resetId"`
	LivenessAccessToken string    `json:"livenessAccessToken,omitempty"`
	ExpiresAt           time.Time `json:"expiresAt"`
}

// TwoFactorResetStatus is a reset's progress (reference
// TwoFactorResetStatus). EnrollmentStatus is null for an SMS_OTP reset.
type TwoFactorResetStatus struct {
	Status           string     `json:"status"`
	Factor           string     `json:"factor"`
	EnrollmentStatus *string    `json:"enrollmentStatus"`
	ExpiresAt        time.Time  `json:"expiresAt"`
	CompletedAt      *time.Time `json:"completedAt"`
}

// Mobile is the new number of an SMS_OTP reset (reference
// TwoFactorResetCompleteRequest.mobile).
type Mobile struct {
	CountryCode string `json:"countryCode"`
	Number      string `json:"number"`
}

// scaResetRecord is a 2FA reset as stored. Its status is not stored: it
// is derived from CreatedAt and CompletedAt on the engine clock
// (ResetStatus), so it advances without due work.
type scaResetRecord struct {
	ID          string     `json:"id"`
	CustomerID  string     `json:"customerId"`
	Factor      string     `json:"factor"`
	CreatedAt   time.Time  `json:"createdAt"`
	CompletedAt *time.Time `json:"completedAt,omitempty"`
}

// StartReset begins recovering a lost factor through a liveness check
// (customers.ResetStatus gives its progress). TOTP and PASSKEY must be
// enrolled (INVALID_INPUT on factor); at most ResetsPerDay resets start
// per customer in 24 hours (RATE_LIMITED).
//
// The liveness check is the sandbox's: it passes by the clock alone
// (ResetLivenessAfter), and the LivenessAccessToken answered is random and
// stored nowhere. An engine outside the sandbox has no liveness provider,
// so it refuses resets with NOT_IMPLEMENTED rather than let a reset pass
// on the clock: a reset replaces the factor that guards the customer's
// payments.
func (s SCA) StartReset(ctx context.Context, customerID, factor string) (*TwoFactorResetStart, error) {
	return engine.Run(ctx, s.e, scaStartReset, scaChoice{customerID, factor})
}

// sandboxOnly refuses a 2FA reset on an engine that is not a sandbox:
// resets need a liveness check, and no liveness provider exists.
func sandboxOnly(e *engine.Handle) error {
	if !e.Config.Sandbox {
		return engine.Errorf(engine.CodeNotImplemented, "2FA resets need a liveness check, and this engine has no liveness provider")
	}
	return nil
}

// scaStartReset is SCA.StartReset's operation (typ: the factor); the
// liveness token is drawn before the transaction.
var scaStartReset = engine.Op[scaChoice, *TwoFactorResetStart, string]{Area: "customers", Name: "SCA.StartReset",
	Fingerprint: func(c *scaChoice) any { return []any{c.customerID, c.typ} },
	Prefetch: func(_ context.Context, e *engine.Handle, c *scaChoice, token *string, _ error) error {
		if err := sandboxOnly(e); err != nil {
			return err
		}
		if err := requiredEnum("factor", c.typ, Factors...); err != nil {
			return err
		}
		*token = b64url(engine.RandomBytes(24))
		return nil
	},
	Decide: func(t *engine.Txn, in *scaChoice, tok *string) (out *TwoFactorResetStart, err error) {
		customerID, factor, token := in.customerID, in.typ, *tok
		_, st, err := ForSCA(t, customerID)
		if err != nil {
			return out, err
		}
		if err := st.requireEnrolled(factor); err != nil {
			return out, err
		}
		st.Resets = Recent(st.Resets, t.Now, 24*time.Hour)
		if wait := SendWait(st.Resets, t.Now, 0, ResetsPerDay, 24*time.Hour); wait > 0 {
			return out, RateLimited(wait, "2FA resets")
		}
		st.Resets = append(st.Resets, t.Now)
		r := scaResetRecord{ID: t.NewID("ScaReset"), CustomerID: customerID, Factor: factor, CreatedAt: t.Now}
		if err := engine.InsertJSON(t, tableSCAResets, r.ID, r); err != nil {
			return out, err
		}
		out = &TwoFactorResetStart{ResetID: r.ID, LivenessAccessToken: token, ExpiresAt: t.Now.Add(ResetWindow)}
		return out, SaveSCA(t, customerID, st)
	}}

// scaReset loads a reset of the customer with its SCA state: NOT_FOUND for
// an unknown reset or another customer's, so ids cannot be probed across
// customers.
func scaReset(t *engine.Txn, customerID, id string) (*scaResetRecord, *SCARecord, error) {
	_, st, err := ForSCA(t, customerID)
	if err != nil {
		return nil, nil, err
	}
	var r scaResetRecord
	if err := engine.GetJSON(t, tableSCAResets, id, &r); err != nil || r.CustomerID != customerID {
		return nil, nil, engine.NotFound(engine.ErrNotFound, engine.CodeNotFound, "2FA reset", id)
	}
	return &r, st, nil
}

// Reset reports a reset's status at the engine clock (ResetStatus), and for
// a TOTP or PASSKEY reset whether the factor was enrolled again since it
// completed (EnrollmentStatus COMPLETED, else PENDING). NOT_FOUND for an
// unknown reset; it reads only.
func (s SCA) Reset(ctx context.Context, customerID, resetID string) (*TwoFactorResetStatus, error) {
	return engine.Run(ctx, s.e, resetStatusOp, scaChoice{customerID, resetID})
}

// resetStatusOp is SCA.Reset's operation (typ: the reset id).
var resetStatusOp = engine.Op[scaChoice, *TwoFactorResetStatus, struct{}]{Area: "customers", Name: "SCA.Reset", Access: engine.Read,
	Decide: func(t *engine.Txn, in *scaChoice, _ *struct{}) (out *TwoFactorResetStatus, err error) {
		customerID, resetID := in.customerID, in.typ
		r, st, err := scaReset(t, customerID, resetID)
		if err != nil {
			return out, err
		}
		out = &TwoFactorResetStatus{Status: ResetStatus(r.CreatedAt, r.CompletedAt != nil, t.Now), Factor: r.Factor,
			ExpiresAt: r.CreatedAt.Add(ResetWindow), CompletedAt: r.CompletedAt}
		if r.Factor != FactorSMS {
			es := "PENDING"
			if at, ok := st.EnrolledAt[r.Factor]; ok && r.CompletedAt != nil && at.After(*r.CompletedAt) {
				es = "COMPLETED"
			}
			out.EnrollmentStatus = &es
		}
		return out, nil
	}}

// CompleteReset finishes a reset whose liveness passed (INVALID_INPUT
// before, or once the reset ended): the TOTP or passkey factor is cleared
// for re-enrollment; an SMS_OTP reset makes mobile the customer's number
// (INVALID_INPUT without a valid mobile). A login started with the reset
// factor is dropped. NOT_FOUND for an unknown reset.
func (s SCA) CompleteReset(ctx context.Context, customerID, resetID string, mobile *Mobile) error {
	_, err := engine.Run(ctx, s.e, scaCompleteReset, resetCompletion{customerID, resetID, mobile})
	return err
}

// resetCompletion is an SCA.CompleteReset request.
type resetCompletion struct {
	customerID, resetID string
	mobile              *Mobile
}

// scaCompleteReset is SCA.CompleteReset's operation.
var scaCompleteReset = engine.Op[resetCompletion, struct{}, struct{}]{Area: "customers", Name: "SCA.CompleteReset",
	Fingerprint: func(c *resetCompletion) any { return []any{c.customerID, c.resetID, c.mobile} },
	Prefetch: func(_ context.Context, e *engine.Handle, _ *resetCompletion, _ *struct{}, _ error) error {
		return sandboxOnly(e)
	},
	Decide: func(t *engine.Txn, in *resetCompletion, _ *struct{}) (out struct{}, err error) {
		customerID, resetID, mobile := in.customerID, in.resetID, in.mobile
		r, st, err := scaReset(t, customerID, resetID)
		if err != nil {
			return out, err
		}
		var fe validate.Errors
		if status := ResetStatus(r.CreatedAt, r.CompletedAt != nil, t.Now); status != ResetLivenessPassed {
			return out, engine.Errorf(engine.CodeInvalidInput, "reset %s is %s; it can be completed once liveness passed", resetID, status)
		}
		switch r.Factor {
		case FactorSMS:
			if mobile == nil {
				fe.Missing("mobile")
			} else if fe.Required("mobile.countryCode", mobile.CountryCode) && fe.Required("mobile.number", mobile.Number) {
				fe.Phone("mobile.number", mobile.CountryCode+mobile.Number)
			}
			if err := engine.Invalid(fe.Err()); err != nil {
				return out, err
			}
			if err := setPhone(t, customerID, mobile.CountryCode+mobile.Number); err != nil {
				return out, err
			}
		case FactorTOTP:
			st.TOTPSecret, st.RecoveryHashes, st.PendingTOTP = nil, nil, nil
		case FactorPasskey:
			st.Passkey, st.Registration = nil, nil
		}
		if st.Login != nil && st.Login.Factor == r.Factor {
			st.Login = nil
		}
		now := t.Now
		r.CompletedAt = &now
		if err := engine.PutJSON(t, tableSCAResets, r.ID, r); err != nil {
			return out, err
		}
		return out, SaveSCA(t, customerID, st)
	}}

// setPhone makes phone the customer's verified number (an SMS_OTP reset,
// gated by liveness). It writes the customer record directly: it neither
// calls the ContactChanged hook nor emits an event.
func setPhone(t *engine.Txn, customerID, phone string) error {
	c, err := Live(t, customerID)
	if err != nil {
		return err
	}
	c.PhoneNumber, c.UpdatedAt = phone, t.Now
	if c.ContactVerification != nil {
		c.ContactVerification.Phone = ContactVerified
	}
	return engine.PutJSON(t, tableCustomers, c.ID, c)
}
