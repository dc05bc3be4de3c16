package wallets

import (
	"context"
	"sort"
	"strings"

	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
)

// Customer email and phone changes (reference PATCH /customers/{id}): a
// change of the email tied to EMAIL_OTP credentials of the customer's
// wallets, or of the phone tied to SMS_OTP credentials, is a signed flow
// that a session of such a wallet signs; the signed retry updates the
// customer and every tied credential in one transaction. The customers
// area owns the update; this area takes part through its ContactChanged
// hook (ContactChange with no signature) or, on the HTTP route, through
// UpdateCustomer.

// UpdateCustomer is the customers area's update for the HTTP route: a
// contact change tied to wallet OTP credentials answers the challenge
// first (the customer is nil) and applies on the signed retry; any other
// update applies at once. It answers the customers area's codes and
// ContactChange's.
func (w Service) UpdateCustomer(ctx context.Context, id string, in customers.CustomerInput, sig Signature) (*customers.Customer, *SignedChallenge, error) {
	var out *customers.Customer
	var ch *SignedChallenge
	err := w.e.Update(ctx, func(t *engine.Txn) error {
		out, ch = nil, nil
		var err error
		out, err = customers.UpdateRecord(t, id, in, func(r *customers.Record, oldEmail, oldPhone string) (bool, error) {
			ch, err = ContactChange(t, r, oldEmail, oldPhone, in, &sig)
			return ch != nil, err
		})
		return err
	})
	return out, ch, err
}

// ContactChange applies a contact change to the tied OTP
// credentials, in the customer update's transaction t. With sig nil (the
// customers area's own update, which cannot answer a challenge) a tied
// change is WALLET_SIGNATURE_MISSING. Without headers it
// issues the challenge, binding the body and the set of tied credentials;
// the signed retry checks that set is unchanged (*_CREDENTIAL_SET_CHANGED)
// and moves every credential to the new contact. A contact tied to
// another credential is EMAIL_OTP_EMAIL_ALREADY_EXISTS or
// SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS.
func ContactChange(t *engine.Txn, r *customers.Record, oldEmail, oldPhone string, in customers.CustomerInput, sig *Signature) (*SignedChallenge, error) {
	typ, old, next, table := CredentialEmailOTP, oldEmail, r.Email, tableWalletEmails
	// One contact per change: the email when it changed, else the phone.
	if r.Email == oldEmail {
		typ, old, next, table = CredentialSmsOTP, oldPhone, r.PhoneNumber, tableWalletPhones
	}
	if old == next || old == "" {
		return nil, nil
	}
	tied, err := tiedCredentials(t, r.ID, typ, old)
	if err != nil || len(tied) == 0 {
		return nil, err
	}
	if sig == nil {
		return nil, engine.Errorf(engine.CodeWalletSignatureMissing, "the %s change is tied to wallet credentials: it needs the signed flow (Wallets.UpdateCustomer)", typ)
	}
	if _, err := t.Get(table, next); err == nil {
		if typ == CredentialEmailOTP {
			return nil, engine.Errorf(CodeEmailOtpEmailAlreadyExists, "email %s is already tied to an EMAIL_OTP credential", next)
		}
		return nil, engine.Errorf(CodeSmsOtpPhoneNumberAlreadyExists, "phone number %s is already tied to an SMS_OTP credential", next)
	}
	ids := make([]string, len(tied))
	for i, c := range tied {
		ids[i] = c.ID
	}
	activityType, params := otpActivity(typ, next)
	ch, p, err := signed(t, *sig, signedOp{op: "customer.contact", target: r.ID, accountID: tied[0].AccountID, body: in,
		activity: activityType, params: params, data: map[string]string{"credentials": strings.Join(ids, ",")}})
	if ch != nil || err != nil {
		return ch, err
	}
	if p.Data["credentials"] != strings.Join(ids, ",") {
		if typ == CredentialEmailOTP {
			return nil, engine.Errorf(CodeEmailOtpCredentialSetChanged, "the EMAIL_OTP credentials tied to %s changed after the challenge; start again", old)
		}
		return nil, engine.Errorf(CodeSmsOtpCredentialSetChanged, "the SMS_OTP credentials tied to %s changed after the challenge; start again", old)
	}
	for _, c := range tied {
		if err := t.Delete(table, c.Contact); err != nil {
			return nil, err
		}
		c.Contact, c.Nickname, c.UpdatedAt = next, next, t.Now
		if err := engine.PutJSON(t, tableWalletCredentials, c.ID, c); err != nil {
			return nil, err
		}
		if err := t.Put(table, next, []byte(c.ID)); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// tiedCredentials are the credentials of type typ tied to contact on the
// customer's wallets, by id: the order the challenge binds (Data
// "credentials") and the retry compares.
func tiedCredentials(t *engine.Txn, customerID, typ, contact string) ([]*credentialRecord, error) {
	wallets, err := customerWallets(t, customerID)
	if err != nil {
		return nil, err
	}
	var out []*credentialRecord
	for _, w := range wallets {
		cs, err := credentials(t, w)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if c.Type == typ && c.Contact == contact {
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
