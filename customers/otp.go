package customers

import (
	"context"
	"encoding/json"

	"github.com/paygrid/payments/internal/engine"
)

// CodeSender delivers one-time codes by email or SMS. The engine calls it
// only after the transaction that issued a code committed, at least once
// (again after an error or a crash), so SendCode must be idempotent on
// CodeMessage.ID. An error leaves the code for the intent worker, which
// retries with backoff and finally parks it in the dead letters.
//
// A nil payments.Config.Codes (Options.Codes) delivers nothing: the
// sandbox's codes are fixed (sandbox.ContactCode), and a production engine
// must set one.
type CodeSender interface {
	// SendCode delivers m.Code to m.To. It runs outside any transaction,
	// on the intent worker, and may block on the network; a nil error
	// marks the code delivered. It must be idempotent on m.ID.
	SendCode(ctx context.Context, m CodeMessage) error
}

// CodeMessage is one one-time code to deliver.
type CodeMessage struct {
	// ID identifies the message; a repeat with the same ID is the same code.
	ID         string `json:"id"`
	CustomerID string `json:"customerId"`
	// Channel is EMAIL, PHONE or SCA (the customer's SCA factor, SMS).
	Channel string `json:"channel"`
	// To is the address the code goes to: the customer's email or phone.
	To string `json:"to"`
	// Code is the plain code; only its hash is kept on the record it
	// authorizes.
	Code string `json:"code"`
	// Purpose says what the code authorizes (CONTACT_VERIFICATION, LOGIN,
	// PAYOUT, TRUST_BENEFICIARY, UNTRUST_BENEFICIARY, WALLET_LOGIN).
	Purpose string `json:"purpose"`
}

// intentCode is the kind of the intents that deliver one-time codes
// ("code:<message id>").
const intentCode = "code"

// codeIntent is a one-time code waiting to be delivered, as stored. It
// holds the plain code until it is delivered (the intent is removed then);
// the record it authorizes keeps only its hash.
type codeIntent struct {
	Code *CodeMessage `json:"code,omitempty"`
}

// codeIntentKind delivers one-time codes through codes (nil delivers
// nothing).
func codeIntentKind(codes CodeSender) engine.IntentKind {
	return engine.IntentKind{Name: intentCode, Record: func() any { return new(CodeMessage) },
		HandOver: func(ctx context.Context, h *engine.Handover) error {
			var in codeIntent
			if err := json.Unmarshal(h.Value, &in); err != nil {
				return err
			}
			if in.Code == nil || codes == nil {
				return nil
			}
			return codes.SendCode(ctx, *in.Code)
		}}
}

// codeTo is where a code for channel goes: the customer's email for EMAIL,
// its phone otherwise.
func codeTo(c *Customer, channel string) string {
	if channel == ChannelEmail {
		return c.Email
	}
	return c.PhoneNumber
}
