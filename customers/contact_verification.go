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
func (cs Service) SendContactCode(ctx context.Context, customerID, channel string) (err error) {
	ctx, op := begin(ctx, cs.e, "SendContactCode")
	defer op.End(&err)
	e := cs.e
	code := customersSlot.Of(e).KYC.ContactCode(channel)
	return engine.Once(ctx, e, []any{customerID, channel}, &struct{}{}, func(t *engine.Txn) error {
		r, err := contactTarget(t, customerID, channel)
		if err != nil {
			return err
		}
		if err := engine.PutJSON(t, tableContactCodes, customerID+"|"+channel, contactCode{Hash: engine.HashSecret(code), ExpiresAt: t.Now.Add(ContactCodeTTL)}); err != nil {
			return err
		}
		return IntendCode(t, CodeMessage{ID: t.NewID("ContactCode"), CustomerID: customerID, Channel: channel, To: codeTo(&r.Customer, channel),
			Code: code, Purpose: "CONTACT_VERIFICATION"})
	})
}

// ConfirmContactCode checks a one-time code and marks the channel VERIFIED.
// A wrong, expired or missing code is INVALID_INPUT on field "code"; after
// ContactCodeAttempts wrong tries the code is spent (RATE_LIMITED) and a new
// one must be requested. The count of wrong tries and the removal of a
// spent or expired code commit although the answer is an error
// (engine.Keeping), so the limit holds across requests; a retry with the
// same idempotency key replays the recorded answer rather than trying the
// code again.
func (cs Service) ConfirmContactCode(ctx context.Context, customerID, channel, code string) (_ *Customer, err error) {
	ctx, op := begin(ctx, cs.e, "ConfirmContactCode")
	defer op.End(&err)
	e := cs.e
	var out *Customer
	var failure error
	err = engine.Once(ctx, e, []any{customerID, channel, code}, &out, engine.Keeping(&failure, func(t *engine.Txn) error {
		r, err := contactTarget(t, customerID, channel)
		if err != nil {
			return err
		}
		var fe validate.Errors
		if !fe.Required("code", code) {
			return engine.Invalid(fe)
		}
		key := customerID + "|" + channel
		var cc contactCode
		if err := engine.GetJSON(t, tableContactCodes, key, &cc); errors.Is(err, engine.ErrNotFound) {
			fe.Add("code", nil, "no code is outstanding; request one first")
			return engine.Invalid(fe)
		} else if err != nil {
			return err
		}
		switch {
		case t.Now.After(cc.ExpiresAt):
			fe.Add("code", nil, "the code expired; request a new one")
			failure = engine.Invalid(fe)
			return t.Delete(tableContactCodes, key) // commit the removal, answer the failure
		case subtle.ConstantTimeCompare([]byte(engine.HashSecret(code)), []byte(cc.Hash)) != 1:
			cc.Attempts++
			if cc.Attempts >= ContactCodeAttempts {
				failure = engine.Errorf(engine.CodeRateLimited, "too many wrong codes; request a new one")
				return t.Delete(tableContactCodes, key)
			}
			fe.Add("code", nil, "the code is wrong; %d attempts left", ContactCodeAttempts-cc.Attempts)
			failure = engine.Invalid(fe)
			return engine.PutJSON(t, tableContactCodes, key, cc)
		}
		if channel == ChannelEmail {
			r.ContactVerification.Email = ContactVerified
		} else {
			r.ContactVerification.Phone = ContactVerified
		}
		r.UpdatedAt = t.Now
		if err := t.Delete(tableContactCodes, key); err != nil {
			return err
		}
		if out, err = customerView(t, r); err != nil {
			return err
		}
		return engine.PutJSON(t, tableCustomers, r.ID, r)
	}))
	return out, err
}
