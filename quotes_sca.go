package payments

import (
	"context"
	"crypto/subtle"
	"time"

	"github.com/paygrid/payments/validate"
)

// ScaChallengeTTL is how long a quote's SCA challenge may be satisfied.
const ScaChallengeTTL = 5 * time.Minute

// requireSCA puts a real-time funded quote of a customer in an SCA region
// (spec 3.2) into PENDING_AUTHORIZATION: an SMS_OTP challenge is attached
// and the payment instructions are withheld until Quotes.Authorize.
// code is the challenge's one-time code, chosen before pricing; the
// transaction that stores the quote hands it to the code sender
// (intendChallengeCode).
func (e *Engine) requireSCA(t *txn, q *quoteRecord, code string) error {
	if q.CustomerID == "" {
		return nil
	}
	c, err := t.customer(q.CustomerID)
	if err != nil || !e.kyc.SCARequired(c) {
		return err
	}
	id, err := e.newID("ScaChallenge")
	if err != nil {
		return err
	}
	q.Status = QuotePendingAuthorization
	exp := t.now.Add(ScaChallengeTTL)
	if q.ExpiresAt.Before(exp) {
		exp = q.ExpiresAt // a challenge cannot outlive the rate it authorizes
	}
	q.ScaChallenge = &ScaChallenge{ID: id, ExpiresAt: exp, Factor: "SMS_OTP", AvailableFactors: []string{"SMS_OTP"}, Purpose: "PAYOUT"}
	q.ScaCodeHash, q.HeldInstructions, q.PaymentInstructions = hashSecret(code), q.PaymentInstructions, nil
	return nil
}

// intendChallengeCode delivers the code of a new quote's SCA challenge
// after commit.
func (t *txn) intendChallengeCode(q *quoteRecord, code string) error {
	c, err := t.customer(q.CustomerID)
	if err != nil {
		return err
	}
	return t.intendCode(CodeMessage{ID: q.ScaChallenge.ID, CustomerID: c.ID, Channel: "SCA", To: c.PhoneNumber, Code: code, Purpose: "PAYOUT"})
}

// Authorize satisfies a quote's SCA challenge with its one-time code:
// the quote becomes PENDING and its payment instructions are issued. A quote
// that is not PENDING_AUTHORIZATION is CONFLICT; a wrong code INVALID_INPUT;
// an expired challenge SCA_SESSION_REQUIRED (request a new quote), which
// also fails the quote (SCA_NOT_COMPLETED, see expireIfDue).
func (qs Quotes) Authorize(ctx context.Context, id, code string) (*Quote, error) {
	e := qs.e
	var out *Quote
	var failure error
	err := once(ctx, e, []any{id, code}, &out, keeping(&failure, func(t *txn) error {
		q, err := t.quote(id)
		if err != nil {
			return err
		}
		if expired, err := t.expireIfDue(q); err != nil || expired {
			failure = Errorf(CodeScaSessionRequired, "the SCA challenge of quote %s expired; request a new quote", id)
			return err
		}
		if q.Status != QuotePendingAuthorization || q.ScaChallenge == nil {
			return Errorf(CodeConflict, "quote %s is %s and has no SCA challenge to satisfy", id, q.Status)
		}
		var fe validate.Errors
		if !fe.Required("code", code) || subtle.ConstantTimeCompare([]byte(hashSecret(code)), []byte(q.ScaCodeHash)) != 1 {
			if len(fe) == 0 {
				fe.Add("code", nil, "the code is wrong")
			}
			return Invalid(fe)
		}
		q.Status, q.ScaChallenge, q.ScaCodeHash = QuotePending, nil, ""
		q.PaymentInstructions, q.HeldInstructions = q.HeldInstructions, nil
		out = &q.Quote
		tx, err := t.transaction(q.TransactionID)
		if err != nil {
			return err
		}
		tx.Status = TxPending // waiting for its funds; PROCESSING follows
		if err := t.saveTx(tx, ""); err != nil {
			return err
		}
		return t.saveQuote(q)
	}))
	return out, err
}

// emitAuthorizationPending emits OUTGOING_PAYMENT.PENDING then
// .PENDING_AUTHORIZATION for a new quote waiting for SCA (wire-facts 2.7),
// so delivery later starts at PROCESSING.
func (t *txn) emitAuthorizationPending(q *quoteRecord, tx *Transaction) error {
	pending := *tx
	pending.Status = TxPending
	if err := t.emit("OUTGOING_PAYMENT.PENDING", &pending); err != nil {
		return err
	}
	q.PendingSent = true
	if err := t.saveQuote(q); err != nil {
		return err
	}
	return t.emit("OUTGOING_PAYMENT.PENDING_AUTHORIZATION", tx)
}

// ExecuteOptions is the optional body of POST /quotes/{id}/execute: the
// preferred factor of the SCA challenge the call issues (SMS_OTP or
// PASSKEY; TOTP cannot carry dynamic linking and is refused).
type ExecuteOptions struct {
	ScaFactor string `json:"scaFactor,omitempty"`
}

// ExecuteWith validates opts (an invalid scaFactor is a field error,
// checked before the quote is read) and executes the quote as Quotes.Execute
// does. The sandbox issues every challenge by SMS_OTP, so a valid preference
// changes nothing there.
func (qs Quotes) ExecuteWith(ctx context.Context, id string, opts ExecuteOptions) (*Quote, error) {
	e := qs.e
	var fe validate.Errors
	if fe.Enum("scaFactor", opts.ScaFactor, "SMS_OTP", "PASSKEY", "TOTP") && opts.ScaFactor == "TOTP" {
		fe.Add("scaFactor", &validate.Constraint{Enum: []string{"SMS_OTP", "PASSKEY"}}, "scaFactor TOTP cannot authorize a payment; use SMS_OTP or PASSKEY")
	}
	if err := Invalid(fe.Err()); err != nil {
		return nil, err
	}
	return e.Quotes.Execute(ctx, id)
}
