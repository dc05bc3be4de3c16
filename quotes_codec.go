package payments

import "encoding/base64"

// The hand-written encoder of quotes (see encode.go): every quote request
// writes one and answers one.

// MarshalJSON encodes q as encoding/json would (see appendQuote).
func (q Quote) MarshalJSON() ([]byte, error) {
	b, err := appendQuote(make([]byte, 0, 1280), &q)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes the record as encoding/json would: the quote's
// members, then the record's.
func (q quoteRecord) MarshalJSON() ([]byte, error) {
	b, err := appendQuote(make([]byte, 0, 1408), &q.Quote)
	if err != nil {
		return nil, err
	}
	b = stringMember(b, "customerId", q.CustomerID, true)
	b = stringMember(b, "platformCustomerId", q.PlatformCustomerID, true)
	b = stringMember(b, "receiverCustomerId", q.ReceiverCustomerID, true)
	b = boolMember(b, "destinationInternal", q.DestinationInternal)
	b = boolMember(b, "sourceExternal", q.SourceExternal)
	b = boolMember(b, "transfer", q.Transfer)
	b = stringMember(b, "agentId", q.AgentID, true)
	b = boolMember(b, "pendingSent", q.PendingSent)
	b = boolMember(b, "collected", q.Collected)
	b = intMember(b, "serviceFees", q.ServiceFees)
	b = stringMember(b, "description", q.Description, true)
	b = stringMember(b, "remittanceInformation", q.RemittanceInformation, true)
	b = stringMember(b, "rail", q.Rail, false)
	b = stringMember(b, "scaCodeHash", q.ScaCodeHash, true)
	if len(q.ScaNonce) > 0 {
		b = member(b, "scaNonce")
		b = append(base64.StdEncoding.AppendEncode(append(b, '"'), q.ScaNonce), '"')
	}
	if len(q.ScaSends) > 0 {
		if b, err = marshaledMember(b, "scaSends", q.ScaSends); err != nil {
			return nil, err
		}
	}
	if len(q.HeldInstructions) > 0 {
		if b, err = marshaledMember(b, "heldInstructions", q.HeldInstructions); err != nil {
			return nil, err
		}
	}
	b = stringMember(b, "payloadToSign", q.PayloadToSign, true)
	b = boolMember(b, "walletSigned", q.WalletSigned)
	return append(b, '}'), nil
}

// appendQuote appends json.Marshal(q) without its closing brace. Members
// that are rare or hold maps (instructions, an SCA challenge) are left to
// encoding/json.
func appendQuote(b []byte, q *Quote) ([]byte, error) {
	var err error
	b = stringMember(append(b, '{'), "id", q.ID, false)
	b = stringMember(b, "status", string(q.Status), false)
	if b, err = timeMember(b, "createdAt", q.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = timeMember(b, "expiresAt", q.ExpiresAt); err != nil {
		return nil, err
	}
	s := &q.Source
	b = stringMember(append(member(b, "source"), '{'), "sourceType", s.SourceType, false)
	b = stringMember(b, "accountId", s.AccountID, true)
	b = stringMember(b, "customerId", s.CustomerID, true)
	b = stringMember(b, "currency", s.Currency, true)
	b = append(stringMember(b, "cryptoNetwork", s.CryptoNetwork, true), '}')
	d := &q.Destination
	b = stringMember(append(member(b, "destination"), '{'), "destinationType", d.DestinationType, false)
	b = stringMember(b, "accountId", d.AccountID, true)
	b = stringMember(b, "paymentRail", d.PaymentRail, true)
	b = stringMember(b, "umaAddress", d.UmaAddress, true)
	b = append(stringMember(b, "currency", d.Currency, true), '}')
	b = appendCurrencyInfo(member(b, "sendingCurrency"), &q.SendingCurrency)
	b = appendCurrencyInfo(member(b, "receivingCurrency"), &q.ReceivingCurrency)
	b = intMember(b, "totalSendingAmount", q.TotalSendingAmount)
	b = intMember(b, "totalReceivingAmount", q.TotalReceivingAmount)
	b = append(member(b, "exchangeRate"), q.ExchangeRate.String()...)
	b = intMember(b, "feesIncluded", q.FeesIncluded)
	b = intMember(b, "platformFeesIncluded", q.PlatformFeesIncluded)
	if len(q.PaymentInstructions) > 0 {
		if b, err = marshaledMember(b, "paymentInstructions", q.PaymentInstructions); err != nil {
			return nil, err
		}
	}
	b = stringMember(b, "transactionId", q.TransactionID, false)
	if r := q.RateDetails; r != nil {
		if b, err = floatMember(append(member(b, "rateDetails"), '{'), "counterpartyMultiplier", r.CounterpartyMultiplier); err != nil {
			return nil, err
		}
		b = intMember(b, "counterpartyFixedFee", r.CounterpartyFixedFee)
		b = append(member(b, "serviceApiMultiplier"), r.ServiceApiMultiplier.String()...)
		b = intMember(b, "serviceApiFixedFee", r.ServiceApiFixedFee)
		if b, err = floatMember(b, "serviceApiVariableFeeRate", r.ServiceApiVariableFeeRate); err != nil {
			return nil, err
		}
		b = append(intMember(b, "serviceApiVariableFeeAmount", r.ServiceApiVariableFeeAmount), '}')
	}
	b = stringMember(b, "purposeOfPayment", q.PurposeOfPayment, true)
	if q.ScaChallenge != nil {
		if b, err = marshaledMember(b, "scaChallenge", q.ScaChallenge); err != nil {
			return nil, err
		}
	}
	return b, nil
}
