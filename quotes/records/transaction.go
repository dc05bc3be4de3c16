package records

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
)

// TxParty is a transaction's source or destination (reference
// Transaction{Source,Destination}OneOf).
type TxParty struct {
	SourceType      SourceType      `json:"sourceType,omitempty"`
	DestinationType DestinationType `json:"destinationType,omitempty"`
	AccountID       string          `json:"accountId,omitempty"`
	UmaAddress      string          `json:"umaAddress,omitempty"`
	Currency        string          `json:"currency,omitempty"`
	CustomerID      string          `json:"customerId,omitempty"`
}

// Refund is the refund of a failed outgoing payment. Its Reference is
// "Refund:<transaction uuid>", which Transactions.List finds as a
// reference; Status is PENDING until the refund is posted (COMPLETED) or
// could not be made (FAILED: the money stays held).
type Refund struct {
	Reference   string       `json:"reference"`
	InitiatedAt time.Time    `json:"initiatedAt"`
	SettledAt   *time.Time   `json:"settledAt,omitempty"`
	Status      RefundStatus `json:"status"`
	Reason      string       `json:"reason,omitempty"`
}

// Transaction is an incoming or outgoing payment (reference
// IncomingTransaction / OutgoingTransaction), or a card transaction (type
// CARD, Card set), which is encoded as the reference's CardTransaction.
type Transaction struct {
	ID                 string                   `json:"id"`
	Status             TxStatus                 `json:"status"`
	Type               TxType                   `json:"type"`
	Direction          TxDirection              `json:"direction"`
	Source             TxParty                  `json:"source"`
	Destination        TxParty                  `json:"destination"`
	CustomerID         string                   `json:"customerId"`
	PlatformCustomerID string                   `json:"platformCustomerId"`
	SentAmount         *accounts.CurrencyAmount `json:"sentAmount,omitempty"`
	ReceivedAmount     *accounts.CurrencyAmount `json:"receivedAmount,omitempty"`
	ExchangeRate       *float64                 `json:"exchangeRate,omitempty"`
	Fees               *int64                   `json:"fees,omitempty"`
	PlatformFees       *int64                   `json:"platformFees,omitempty"`
	// PaymentInstructions are the instructions the payer of a real-time
	// funded quote was given (the quote's paymentInstructions), kept on
	// its outgoing transaction once they are issued.
	PaymentInstructions        []accounts.PaymentInstructions `json:"paymentInstructions,omitempty"`
	QuoteID                    string                         `json:"quoteId,omitempty"`
	PaymentRail                PaymentRail                    `json:"paymentRail,omitempty"` // the rail an outgoing payment settles on
	Description                string                         `json:"description,omitempty"`
	FailureReason              string                         `json:"failureReason,omitempty"`
	Refund                     *Refund                        `json:"refund,omitempty"`
	SettledAt                  *time.Time                     `json:"settledAt,omitempty"`
	ReceiptDeliveryConfirmedAt *time.Time                     `json:"receiptDeliveryConfirmedAt,omitempty"`
	AgentID                    string                         `json:"agentId,omitempty"` // the agent that made it, if one did
	CreatedAt                  time.Time                      `json:"createdAt"`
	UpdatedAt                  time.Time                      `json:"updatedAt"`
	// Card is the card transaction a CARD transaction is; the members
	// above then repeat its id, status, direction, customer, funding
	// account (Source.AccountID) and times, for filters and indexes.
	Card *CardTransaction `json:"-"`
}

// MarshalJSON encodes a card transaction as the reference's
// CardTransaction and any other as itself.
func (x Transaction) MarshalJSON() ([]byte, error) {
	if x.Card != nil {
		return json.Marshal(x.Card)
	}
	return appendTransaction(make([]byte, 0, 1152), &x)
}

// cardType marks an encoded card transaction. Inside a JSON string quotes
// are escaped, so the bytes occur only as a member.
var cardType = []byte(`"type":"CARD"`)

// UnmarshalJSON decodes what MarshalJSON wrote.
func (x *Transaction) UnmarshalJSON(b []byte) error {
	if x.ID == "" && reflect.ValueOf(x).Elem().IsZero() { // decoding into a zero value: nothing to merge with
		if d, ok := decodeTransaction(b); ok && d.Type != TxCard {
			*x = d
			return nil
		}
	}
	if bytes.Contains(b, cardType) {
		var head struct {
			Type TxType `json:"type"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return err
		}
		if head.Type == TxCard {
			var c CardTransaction
			if err := json.Unmarshal(b, &c); err != nil {
				return err
			}
			*x = *c.AsTransaction()
			return nil
		}
	}
	type plain Transaction
	return json.Unmarshal(b, (*plain)(x))
}

// Clone returns a copy of x that shares nothing a holder could change
// through (TestTransactionCloneSharesNothing); a card transaction's Card is
// shared.
func (x *Transaction) Clone() *Transaction {
	// The copy and what its pointer members point to are one allocation
	// (a payment's transaction is cloned several times in its operation).
	blk := &txClone{tx: *x}
	c := &blk.tx
	c.SentAmount, c.ReceivedAmount = copyInto(&blk.sent, x.SentAmount), copyInto(&blk.received, x.ReceivedAmount)
	c.ExchangeRate, c.Fees, c.PlatformFees = copyInto(&blk.rate, x.ExchangeRate), copyInto(&blk.fees, x.Fees), copyInto(&blk.platformFees, x.PlatformFees)
	c.SettledAt, c.ReceiptDeliveryConfirmedAt = copyInto(&blk.settledAt, x.SettledAt), copyInto(&blk.receiptAt, x.ReceiptDeliveryConfirmedAt)
	if c.Refund = engine.ClonePtr(x.Refund); c.Refund != nil {
		c.Refund.SettledAt = engine.ClonePtr(x.Refund.SettledAt)
	}
	c.PaymentInstructions = cloneInstructions(x.PaymentInstructions)
	return c
}

// cloneInstructions copies ins and each one's AccountOrWalletInfo map (the
// values in the maps are never written, so they are shared); nil for none.
func cloneInstructions(ins []accounts.PaymentInstructions) []accounts.PaymentInstructions {
	if ins == nil {
		return nil
	}
	out := slices.Clone(ins)
	for i := range out {
		out[i].AccountOrWalletInfo = maps.Clone(ins[i].AccountOrWalletInfo)
	}
	return out
}

// copyInto copies *p into *slot and returns slot; nil for nil.
func copyInto[T any](slot, p *T) *T {
	if p == nil {
		return nil
	}
	*slot = *p
	return slot
}

// txClone is a Transaction's clone with the values of its pointer members.
type txClone struct {
	tx                   Transaction
	sent, received       accounts.CurrencyAmount
	rate                 float64
	fees, platformFees   int64
	settledAt, receiptAt time.Time
}
