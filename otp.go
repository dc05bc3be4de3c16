package payments

import "context"

// CodeSender delivers one-time codes by email or SMS. The engine calls it
// only after the transaction that issued a code committed, at least once
// (again after an error or a crash), so SendCode must be idempotent on
// CodeMessage.ID. An error leaves the code for the intent worker, which
// retries with backoff and finally parks it in the dead letters.
//
// A nil Config.Codes delivers nothing: the sandbox's codes are fixed
// (sandbox.ContactCode), and a production engine must set one.
type CodeSender interface {
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
	To   string `json:"to"`
	Code string `json:"code"`
	// Purpose says what the code authorizes (CONTACT_VERIFICATION, PAYOUT,
	// TRUST_BENEFICIARY, UNTRUST_BENEFICIARY).
	Purpose string `json:"purpose"`
}

// intendCode records that m is to be delivered after commit.
func (t *txn) intendCode(m CodeMessage) error {
	return t.intend(intentCode+":"+m.ID, intent{Code: &m})
}

// codeTo is where a code for channel goes: the customer's email for EMAIL,
// its phone otherwise.
func codeTo(c *Customer, channel string) string {
	if channel == ChannelEmail {
		return c.Email
	}
	return c.PhoneNumber
}
