package wallets

import (
	"slices"
	"strings"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes"
)

// The functions other areas call inside their own transactions
// (ARCHITECTURE.md: cross-area calls take the kernel's transaction). Each
// reads or writes this area's records the way its own operations do.

// CheckQuoteSignature is the wallet check of a quote's execution: a
// quote with a payloadToSign executes only with a stamp over it (stamp nil:
// the caller had no way to send one). quotes.Execute refuses such a quote
// unless this check passed (Record.WalletSigned), so no other path (an
// agent's execute) can pay from a wallet unsigned. It is the quotes area's
// CheckWalletSignature hook, run in the executing transaction: the
// signing session must be active then. WALLET_SIGNATURE_MISSING,
// WALLET_SIGNATURE_MALFORMED or WALLET_SIGNATURE_INVALID when it fails.
func CheckQuoteSignature(t *engine.Txn, q *quotes.Record, stamp *string) error {
	if q.PayloadToSign == "" {
		return nil
	}
	if stamp == nil || *stamp == "" {
		return engine.Errorf(engine.CodeWalletSignatureMissing, "quote %s is paid from an embedded wallet: send the Service-Wallet-Signature header over its payloadToSign", q.ID)
	}
	if err := checkStamp(t, *stamp, q.PayloadToSign, q.Source.AccountID, "", ""); err != nil {
		return err
	}
	q.WalletSigned = true
	return nil
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

// Provision opens the customer's embedded wallet (called where the
// customer's internal accounts are opened): the Global Account when the
// customer has USDB and no USDB account yet, else, when the platform has
// an embeddedWalletConfig, one in the customer's first currency unless the
// customer has a wallet. It is the customers area's ProvisionWallet hook,
// run in that area's transaction, so the customer and its wallet commit
// together or not at all.
func Provision(t *engine.Txn, r *customers.Record, p *platform.Config) error {
	cur := customers.Currencies(r, p)
	if slices.Contains(cur, customers.GlobalAccountCurrency) {
		if _, err := accounts.Primary(t, r.ID, customers.GlobalAccountCurrency); engine.CodeOf(err) != engine.CodeAccountNotFound {
			return err
		}
		_, err := openWallet(t, &r.Customer, customers.GlobalAccountCurrency)
		return err
	}
	if len(cur) == 0 || p.EmbeddedWalletConfig == nil {
		return nil
	}
	if ws, err := customerWallets(t, r.ID); err != nil || len(ws) > 0 {
		return err
	}
	_, err := openWallet(t, &r.Customer, cur[0])
	return err
}
