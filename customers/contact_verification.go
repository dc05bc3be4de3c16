package customers

import (
	"context"
	"crypto/subtle"
	"errors"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// tableContactCodes holds outstanding one-time codes by
// "<customer>|<channel>": one per channel, so a new code replaces the old.
const tableContactCodes = "contact_codes"

// Contact channels: the channel of a contact code, and of the
// CodeMessage that delivers it.
const (
	ChannelEmail = "EMAIL"
	ChannelPhone = "PHONE"
)

// Contact-code limits: a code lives ContactCodeTTL and allows
// ContactCodeAttempts wrong tries before a new one must be requested.
const (
	ContactCodeTTL      = 10 * time.Minute
	ContactCodeAttempts = 5
)

// contactCode is an outstanding code as stored: its hash (never the code),
// its expiry and the wrong tries so far.
type contactCode struct {
	Hash      string    `json:"hash"`
	ExpiresAt time.Time `json:"expiresAt"`
	Attempts  int       `json:"attempts"`
}

// contactTarget loads a customer whose provider requires verifying channel:
// CONFLICT for customers whose provider does not use contact verification,
// CUSTOMER_NOT_FOUND or CUSTOMER_DELETED as Live answers. The provider's
// ContactChecks is asked inside the transaction, on the customer as
// stored: it takes no context and must not block.
func contactTarget(t *engine.Txn, customerID, channel string) (*Record, error) {
	r, err := Live(t, customerID)
	if err != nil {
		return nil, err
	}
	email, phone := customersSlot.Of(t.Handle).KYC.ContactChecks(&r.Customer)
	if (channel == ChannelEmail && !email) || (channel == ChannelPhone && !phone) || r.ContactVerification == nil {
		return nil, engine.Errorf(engine.CodeConflict, "customer %s's provider does not require %s verification", customerID, channel)
	}
	return r, nil
}

// SendContactCode issues a one-time code for the customer's email or phone
// (channel EMAIL or PHONE); a new code replaces an outstanding one and
// lives ContactCodeTTL. The code is drawn from the provider before the
// transaction, which stores its hash and an intent that hands it to the
// CodeSender after commit. CONFLICT when the provider does not check that
// channel; CUSTOMER_NOT_FOUND, CUSTOMER_DELETED. Sends are not rate
// limited here.
func (cs Service) SendContactCode(ctx context.Context, customerID, channel string) error {
	_, err := engine.Run(ctx, cs.e, sendContactCode, contactChannel{customerID, channel})
	return err
}

// contactChannel names one contact channel of a customer.
type contactChannel struct{ customerID, channel string }

// sendContactCode is Service.SendContactCode's operation: the code is
// drawn from the provider before the transaction.
var sendContactCode = engine.Op[contactChannel, struct{}, string]{Area: "customers", Name: "SendContactCode",
	Fingerprint: func(c *contactChannel) any { return []any{c.customerID, c.channel} },
	Prefetch: func(_ context.Context, e *engine.Handle, c *contactChannel, code *string, _ error) error {
		*code = customersSlot.Of(e).KYC.ContactCode(c.channel)
		return nil
	},
	Decide: func(t *engine.Txn, c *contactChannel, code *string) (struct{}, error) {
		customerID, channel := c.customerID, c.channel
		r, err := contactTarget(t, customerID, channel)
		if err != nil {
			return struct{}{}, err
		}
		if err := engine.PutJSON(t, tableContactCodes, customerID+"|"+channel, contactCode{Hash: engine.HashSecret(*code), ExpiresAt: t.Now.Add(ContactCodeTTL)}); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, IntendCode(t, CodeMessage{ID: t.NewID("ContactCode"), CustomerID: customerID, Channel: channel, To: codeTo(&r.Customer, channel),
			Code: *code, Purpose: "CONTACT_VERIFICATION"})
	}}

// ConfirmContactCode checks a one-time code and marks the channel VERIFIED.
// A wrong, expired or missing code is INVALID_INPUT on field "code"; after
// ContactCodeAttempts wrong tries the code is spent (RATE_LIMITED) and a new
// one must be requested. The count of wrong tries and the removal of a
// spent or expired code commit although the answer is an error
// (engine.Keep), so the limit holds across requests; a retry with the
// same idempotency key replays the recorded answer rather than trying the
// code again.
func (cs Service) ConfirmContactCode(ctx context.Context, customerID, channel, code string) (*Customer, error) {
	return engine.Run(ctx, cs.e, confirmContactCode, contactConfirmation{customerID, channel, code})
}

// contactConfirmation is a ConfirmContactCode request.
type contactConfirmation struct{ customerID, channel, code string }

// confirmContactCode is Service.ConfirmContactCode's operation. A wrong
// or expired code is a kept refusal (engine.Keep): the attempt counted,
// or the code removed, commits with it.
var confirmContactCode = engine.Op[contactConfirmation, *Customer, struct{}]{Area: "customers", Name: "ConfirmContactCode",
	Fingerprint: func(c *contactConfirmation) any { return []any{c.customerID, c.channel, c.code} },
	Decide: func(t *engine.Txn, c *contactConfirmation, _ *struct{}) (*Customer, error) {
		customerID, channel, code := c.customerID, c.channel, c.code
		r, err := contactTarget(t, customerID, channel)
		if err != nil {
			return nil, err
		}
		var fe validate.Errors
		if !fe.Required("code", code) {
			return nil, engine.Invalid(fe)
		}
		key := customerID + "|" + channel
		var cc contactCode
		if err := engine.GetJSON(t, tableContactCodes, key, &cc); errors.Is(err, engine.ErrNotFound) {
			fe.Add("code", nil, "no code is outstanding; request one first")
			return nil, engine.Invalid(fe)
		} else if err != nil {
			return nil, err
		}
		switch {
		case t.Now.After(cc.ExpiresAt):
			fe.Add("code", nil, "the code expired; request a new one")
			return nil, keepAfter(t.Delete(tableContactCodes, key), engine.Invalid(fe)) // commit the removal, answer the failure
		case subtle.ConstantTimeCompare([]byte(engine.HashSecret(code)), []byte(cc.Hash)) != 1:
			cc.Attempts++
			if cc.Attempts >= ContactCodeAttempts {
				return nil, keepAfter(t.Delete(tableContactCodes, key), engine.Errorf(engine.CodeRateLimited, "too many wrong codes; request a new one"))
			}
			fe.Add("code", nil, "the code is wrong; %d attempts left", ContactCodeAttempts-cc.Attempts)
			return nil, keepAfter(engine.PutJSON(t, tableContactCodes, key, cc), engine.Invalid(fe))
		}
		if channel == ChannelEmail {
			r.ContactVerification.Email = ContactVerified
		} else {
			r.ContactVerification.Phone = ContactVerified
		}
		r.UpdatedAt = t.Now
		if err := t.Delete(tableContactCodes, key); err != nil {
			return nil, err
		}
		out, err := customerView(t, r)
		if err != nil {
			return nil, err
		}
		return out, engine.PutJSON(t, tableCustomers, r.ID, r)
	}}

// keepAfter is the answer of a refusal whose write (err, its error) must
// commit: err when the write failed, else failure kept (engine.Keep).
func keepAfter(err, failure error) error {
	if err != nil {
		return err
	}
	return engine.Keep(failure)
}
