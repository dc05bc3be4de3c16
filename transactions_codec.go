package payments

// The hand-written codec of transactions (see encode.go and decode.go):
// every payment writes and reads several.

// appendTransaction appends json.Marshal of a non-card transaction.
func appendTransaction(b []byte, x *Transaction) ([]byte, error) {
	var err error
	b = append(b, '{')
	b = stringMember(b, "id", x.ID, false)
	b = stringMember(b, "status", string(x.Status), false)
	b = stringMember(b, "type", x.Type, false)
	b = stringMember(b, "direction", x.Direction, false)
	b = appendParty(member(b, "source"), &x.Source)
	b = appendParty(member(b, "destination"), &x.Destination)
	b = stringMember(b, "customerId", x.CustomerID, false)
	b = stringMember(b, "platformCustomerId", x.PlatformCustomerID, false)
	if x.SentAmount != nil {
		b = appendCurrencyAmount(member(b, "sentAmount"), x.SentAmount)
	}
	if x.ReceivedAmount != nil {
		b = appendCurrencyAmount(member(b, "receivedAmount"), x.ReceivedAmount)
	}
	if x.ExchangeRate != nil {
		if b, err = appendFloat(member(b, "exchangeRate"), *x.ExchangeRate); err != nil {
			return nil, err
		}
	}
	if x.Fees != nil {
		b = intMember(b, "fees", *x.Fees)
	}
	if x.PlatformFees != nil {
		b = intMember(b, "platformFees", *x.PlatformFees)
	}
	b = stringMember(b, "quoteId", x.QuoteID, true)
	b = stringMember(b, "paymentRail", x.PaymentRail, true)
	b = stringMember(b, "description", x.Description, true)
	b = stringMember(b, "failureReason", x.FailureReason, true)
	if r := x.Refund; r != nil {
		b = append(member(b, "refund"), '{')
		b = stringMember(b, "reference", r.Reference, false)
		if b, err = timeMember(b, "initiatedAt", r.InitiatedAt); err != nil {
			return nil, err
		}
		if r.SettledAt != nil {
			if b, err = timeMember(b, "settledAt", *r.SettledAt); err != nil {
				return nil, err
			}
		}
		b = stringMember(b, "status", r.Status, false)
		b = append(stringMember(b, "reason", r.Reason, true), '}')
	}
	if x.SettledAt != nil {
		if b, err = timeMember(b, "settledAt", *x.SettledAt); err != nil {
			return nil, err
		}
	}
	if x.ReceiptDeliveryConfirmedAt != nil {
		if b, err = timeMember(b, "receiptDeliveryConfirmedAt", *x.ReceiptDeliveryConfirmedAt); err != nil {
			return nil, err
		}
	}
	b = stringMember(b, "agentId", x.AgentID, true)
	if b, err = timeMember(b, "createdAt", x.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = timeMember(b, "updatedAt", x.UpdatedAt); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func appendParty(b []byte, p *TxParty) []byte {
	b = append(b, '{')
	b = stringMember(b, "sourceType", p.SourceType, true)
	b = stringMember(b, "destinationType", p.DestinationType, true)
	b = stringMember(b, "accountId", p.AccountID, true)
	b = stringMember(b, "umaAddress", p.UmaAddress, true)
	b = stringMember(b, "currency", p.Currency, true)
	b = stringMember(b, "customerId", p.CustomerID, true)
	return append(b, '}')
}

// decodeTransaction reads what appendTransaction wrote.
func decodeTransaction(b []byte) (x Transaction, ok bool) {
	c := readCanon(b)
	x.ID = c.strMember("id")
	x.Status = TransactionStatus(c.strMember("status"))
	x.Type = c.strMember("type")
	x.Direction = c.strMember("direction")
	c.need("source")
	x.Source = readParty(c)
	c.need("destination")
	x.Destination = readParty(c)
	x.CustomerID = c.strMember("customerId")
	x.PlatformCustomerID = c.strMember("platformCustomerId")
	x.SentAmount = optional(c, "sentAmount", func() CurrencyAmount { return readAmount(c) })
	x.ReceivedAmount = optional(c, "receivedAmount", func() CurrencyAmount { return readAmount(c) })
	x.ExchangeRate = optional(c, "exchangeRate", c.float)
	x.Fees = optional(c, "fees", c.int)
	x.PlatformFees = optional(c, "platformFees", c.int)
	x.QuoteID = c.optStr("quoteId")
	x.PaymentRail = c.optStr("paymentRail")
	x.Description = c.optStr("description")
	x.FailureReason = c.optStr("failureReason")
	x.Refund = optional(c, "refund", func() Refund { return readRefund(c) })
	x.SettledAt = optional(c, "settledAt", c.time)
	x.ReceiptDeliveryConfirmedAt = optional(c, "receiptDeliveryConfirmedAt", c.time)
	x.AgentID = c.optStr("agentId")
	c.need("createdAt")
	x.CreatedAt = c.time()
	c.need("updatedAt")
	x.UpdatedAt = c.time()
	c.close()
	return x, c.done()
}

func readParty(c *canon) (p TxParty) {
	c.object()
	p.SourceType = c.optStr("sourceType")
	p.DestinationType = c.optStr("destinationType")
	p.AccountID = c.optStr("accountId")
	p.UmaAddress = c.optStr("umaAddress")
	p.Currency = c.optStr("currency")
	p.CustomerID = c.optStr("customerId")
	c.close()
	return p
}

func readRefund(c *canon) (r Refund) {
	c.object()
	r.Reference = c.strMember("reference")
	c.need("initiatedAt")
	r.InitiatedAt = c.time()
	r.SettledAt = optional(c, "settledAt", c.time)
	r.Status = c.strMember("status")
	r.Reason = c.optStr("reason")
	c.close()
	return r
}
