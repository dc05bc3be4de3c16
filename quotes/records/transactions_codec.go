package records

import (
	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
)

// The hand-written codec of transactions (built on internal/engine's
// encode.go and decode.go): every payment writes and reads several, so
// reflection is kept off the hot path. decodeTransaction reads only the
// canonical form appendTransaction writes and reports anything else as not
// ok, which UnmarshalJSON then decodes with encoding/json; a member added
// to Transaction must be added to both.

// AppendTransaction appends json.Marshal of the non-card transaction x to
// b: the data of a payment's event, encoded straight into the event.
func AppendTransaction(b []byte, x *Transaction) ([]byte, error) { return appendTransaction(b, x) }

// appendTransaction appends json.Marshal of a non-card transaction.
func appendTransaction(b []byte, x *Transaction) ([]byte, error) {
	var err error
	b = append(b, '{')
	b = engine.StringMember(b, "id", x.ID, false)
	b = engine.StringMember(b, "status", string(x.Status), false)
	b = engine.StringMember(b, "type", string(x.Type), false)
	b = engine.StringMember(b, "direction", string(x.Direction), false)
	b = appendParty(engine.Member(b, "source"), &x.Source)
	b = appendParty(engine.Member(b, "destination"), &x.Destination)
	b = engine.StringMember(b, "customerId", x.CustomerID, false)
	b = engine.StringMember(b, "platformCustomerId", x.PlatformCustomerID, false)
	if x.SentAmount != nil {
		b = accounts.AppendCurrencyAmount(engine.Member(b, "sentAmount"), x.SentAmount)
	}
	if x.ReceivedAmount != nil {
		b = accounts.AppendCurrencyAmount(engine.Member(b, "receivedAmount"), x.ReceivedAmount)
	}
	if x.ExchangeRate != nil {
		if b, err = engine.AppendFloat(engine.Member(b, "exchangeRate"), *x.ExchangeRate); err != nil {
			return nil, err
		}
	}
	if x.Fees != nil {
		b = engine.IntMember(b, "fees", *x.Fees)
	}
	if x.PlatformFees != nil {
		b = engine.IntMember(b, "platformFees", *x.PlatformFees)
	}
	if len(x.PaymentInstructions) > 0 {
		// Rare and made of maps: written by encoding/json, and read back by
		// it too (decodeTransaction does not know the member).
		if b, err = engine.MarshaledMember(b, "paymentInstructions", x.PaymentInstructions); err != nil {
			return nil, err
		}
	}
	b = engine.StringMember(b, "quoteId", x.QuoteID, true)
	b = engine.StringMember(b, "paymentRail", string(x.PaymentRail), true)
	b = engine.StringMember(b, "description", x.Description, true)
	b = engine.StringMember(b, "failureReason", x.FailureReason, true)
	if r := x.Refund; r != nil {
		b = append(engine.Member(b, "refund"), '{')
		b = engine.StringMember(b, "reference", r.Reference, false)
		if b, err = engine.TimeMember(b, "initiatedAt", r.InitiatedAt); err != nil {
			return nil, err
		}
		if r.SettledAt != nil {
			if b, err = engine.TimeMember(b, "settledAt", *r.SettledAt); err != nil {
				return nil, err
			}
		}
		b = engine.StringMember(b, "status", string(r.Status), false)
		b = append(engine.StringMember(b, "reason", r.Reason, true), '}')
	}
	if x.SettledAt != nil {
		if b, err = engine.TimeMember(b, "settledAt", *x.SettledAt); err != nil {
			return nil, err
		}
	}
	if x.ReceiptDeliveryConfirmedAt != nil {
		if b, err = engine.TimeMember(b, "receiptDeliveryConfirmedAt", *x.ReceiptDeliveryConfirmedAt); err != nil {
			return nil, err
		}
	}
	b = engine.StringMember(b, "agentId", x.AgentID, true)
	if b, err = engine.TimeMember(b, "createdAt", x.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = engine.TimeMember(b, "updatedAt", x.UpdatedAt); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendParty appends json.Marshal(p).
func appendParty(b []byte, p *TxParty) []byte {
	b = append(b, '{')
	b = engine.StringMember(b, "sourceType", string(p.SourceType), true)
	b = engine.StringMember(b, "destinationType", string(p.DestinationType), true)
	b = engine.StringMember(b, "accountId", p.AccountID, true)
	b = engine.StringMember(b, "umaAddress", p.UmaAddress, true)
	b = engine.StringMember(b, "currency", p.Currency, true)
	b = engine.StringMember(b, "customerId", p.CustomerID, true)
	return append(b, '}')
}

// decodeTransaction reads what appendTransaction wrote.
func decodeTransaction(b []byte) (x Transaction, ok bool) {
	c := engine.ReadCanon(b)
	x.ID = c.StrMember("id")
	x.Status = TxStatus(c.StrMember("status"))
	x.Type = TxType(c.StrMember("type"))
	x.Direction = TxDirection(c.StrMember("direction"))
	c.Need("source")
	x.Source = readParty(c)
	c.Need("destination")
	x.Destination = readParty(c)
	x.CustomerID = c.StrMember("customerId")
	x.PlatformCustomerID = c.StrMember("platformCustomerId")
	x.SentAmount = engine.Optional(c, "sentAmount", func() accounts.CurrencyAmount { return accounts.ReadAmount(c) })
	x.ReceivedAmount = engine.Optional(c, "receivedAmount", func() accounts.CurrencyAmount { return accounts.ReadAmount(c) })
	x.ExchangeRate = engine.Optional(c, "exchangeRate", c.Float)
	x.Fees = engine.Optional(c, "fees", c.Int)
	x.PlatformFees = engine.Optional(c, "platformFees", c.Int)
	x.QuoteID = c.OptStr("quoteId")
	x.PaymentRail = PaymentRail(c.OptStr("paymentRail"))
	x.Description = c.OptStr("description")
	x.FailureReason = c.OptStr("failureReason")
	x.Refund = engine.Optional(c, "refund", func() Refund { return readRefund(c) })
	x.SettledAt = engine.Optional(c, "settledAt", c.Time)
	x.ReceiptDeliveryConfirmedAt = engine.Optional(c, "receiptDeliveryConfirmedAt", c.Time)
	x.AgentID = c.OptStr("agentId")
	c.Need("createdAt")
	x.CreatedAt = c.Time()
	c.Need("updatedAt")
	x.UpdatedAt = c.Time()
	c.Close()
	return x, c.Done()
}

// readParty reads what appendParty wrote.
func readParty(c *engine.Canon) (p TxParty) {
	c.Object()
	p.SourceType = SourceType(c.OptStr("sourceType"))
	p.DestinationType = DestinationType(c.OptStr("destinationType"))
	p.AccountID = c.OptStr("accountId")
	p.UmaAddress = c.OptStr("umaAddress")
	p.Currency = c.OptStr("currency")
	p.CustomerID = c.OptStr("customerId")
	c.Close()
	return p
}

// readRefund reads a Refund as appendTransaction writes it.
func readRefund(c *engine.Canon) (r Refund) {
	c.Object()
	r.Reference = c.StrMember("reference")
	c.Need("initiatedAt")
	r.InitiatedAt = c.Time()
	r.SettledAt = engine.Optional(c, "settledAt", c.Time)
	r.Status = RefundStatus(c.StrMember("status"))
	r.Reason = c.OptStr("reason")
	c.Close()
	return r
}
