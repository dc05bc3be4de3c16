package wallets

import (
	"context"
	"sort"

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
// ContactChange's. With an idempotency key each leg records its answer
// and a retry of the leg replays it.
func (w Service) UpdateCustomer(ctx context.Context, id string, in customers.CustomerInput, sig Signature) (*customers.Customer, *SignedChallenge, error) {
	out, err := engine.Run(ctx, w.e, updateCustomer, walletCall[customers.CustomerInput]{id: id, body: in, sig: sig, fp: []any{id, in, sig.leg()}})
	return out.Result, out.Challenge, err
}

// updateCustomer is Service.UpdateCustomer's operation.
var updateCustomer = engine.Op[walletCall[customers.CustomerInput], signedAnswer[customers.Customer], struct{}]{Area: "wallets", Name: "UpdateCustomer",
	Decide: func(t *engine.Txn, in *walletCall[customers.CustomerInput], _ *struct{}) (out signedAnswer[customers.Customer], err error) {
		id, req, sig := in.id, in.body, in.sig
		err = func() error {
			out = signedAnswer[customers.Customer]{}
			var err error
			out.Result, err = customers.UpdateRecord(t, id, req, func(r *customers.Record, oldEmail, oldPhone string) (bool, error) {
				out.Challenge, err = ContactChange(t, r, oldEmail, oldPhone, req, &sig)
				return out.Challenge != nil, err
			})
			return err
		}()
		return out, err
	}}

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
