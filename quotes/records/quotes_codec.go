package records

import (
	"encoding/base64"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
)

// The hand-written encoder of quotes (built on the member writers of
// internal/engine's encode.go): every quote request writes one and answers
// one, so encoding/json's reflection is kept off the hot path. Stored
// quotes are read back with encoding/json, so the output must be what
// encoding/json would write; encode_internal_test.go holds it to that. A
// member added to Quote or Record must be added here too.

// MarshalJSON encodes q as encoding/json would (see appendQuote): the API
// view, without the record's members.
func (q Quote) MarshalJSON() ([]byte, error) {
	return q.AppendJSON(make([]byte, 0, 1280))
}

// AppendJSON appends q's MarshalJSON to b, for writers that reuse their
// buffers (the HTTP handler's responses).
func (q *Quote) AppendJSON(b []byte) ([]byte, error) {
	b, err := appendQuote(b, q)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON encodes the record as encoding/json would: the quote's
// members, then the record's.
func (q Record) MarshalJSON() ([]byte, error) {
	b, err := appendQuote(make([]byte, 0, 1408), &q.Quote)
	if err != nil {
		return nil, err
	}
	b = engine.StringMember(b, "customerId", q.CustomerID, true)
	b = engine.StringMember(b, "platformCustomerId", q.PlatformCustomerID, true)
	b = engine.StringMember(b, "receiverCustomerId", q.ReceiverCustomerID, true)
	b = engine.BoolMember(b, "destinationInternal", q.DestinationInternal)
	b = engine.BoolMember(b, "sourceExternal", q.SourceExternal)
	b = engine.BoolMember(b, "transfer", q.Transfer)
	b = engine.StringMember(b, "agentId", q.AgentID, true)
	b = engine.BoolMember(b, "pendingSent", q.PendingSent)
	b = engine.BoolMember(b, "collected", q.Collected)
	b = engine.IntMember(b, "serviceFees", q.ServiceFees)
	b = engine.StringMember(b, "description", q.Description, true)
	b = engine.StringMember(b, "remittanceInformation", q.RemittanceInformation, true)
	b = engine.StringMember(b, "rail", q.Rail, false)
	b = engine.StringMember(b, "scaCodeHash", q.ScaCodeHash, true)
	if len(q.ScaNonce) > 0 {
		b = engine.Member(b, "scaNonce")
		b = append(base64.StdEncoding.AppendEncode(append(b, '"'), q.ScaNonce), '"')
	}
	if len(q.ScaSends) > 0 {
		if b, err = engine.MarshaledMember(b, "scaSends", q.ScaSends); err != nil {
			return nil, err
		}
	}
	if len(q.HeldInstructions) > 0 {
		if b, err = engine.MarshaledMember(b, "heldInstructions", q.HeldInstructions); err != nil {
			return nil, err
		}
	}
	b = engine.StringMember(b, "payloadToSign", q.PayloadToSign, true)
	b = engine.BoolMember(b, "walletSigned", q.WalletSigned)
	return append(b, '}'), nil
}

// appendQuote appends json.Marshal(q) without its closing brace. Members
// that are rare or hold maps (instructions, an SCA challenge) are left to
// encoding/json.
func appendQuote(b []byte, q *Quote) ([]byte, error) {
	var err error
	b = engine.StringMember(append(b, '{'), "id", q.ID, false)
	b = engine.StringMember(b, "status", string(q.Status), false)
	if b, err = engine.TimeMember(b, "createdAt", q.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = engine.TimeMember(b, "expiresAt", q.ExpiresAt); err != nil {
		return nil, err
	}
	s := &q.Source
	b = engine.StringMember(append(engine.Member(b, "source"), '{'), "sourceType", string(s.SourceType), false)
	b = engine.StringMember(b, "accountId", s.AccountID, true)
	b = engine.StringMember(b, "customerId", s.CustomerID, true)
	b = engine.StringMember(b, "currency", s.Currency, true)
	b = append(engine.StringMember(b, "cryptoNetwork", s.CryptoNetwork, true), '}')
	d := &q.Destination
	b = engine.StringMember(append(engine.Member(b, "destination"), '{'), "destinationType", string(d.DestinationType), false)
	b = engine.StringMember(b, "accountId", d.AccountID, true)
	b = engine.StringMember(b, "paymentRail", string(d.PaymentRail), true)
	b = engine.StringMember(b, "umaAddress", d.UmaAddress, true)
	b = append(engine.StringMember(b, "currency", d.Currency, true), '}')
	b = accounts.AppendCurrencyInfo(engine.Member(b, "sendingCurrency"), &q.SendingCurrency)
	b = accounts.AppendCurrencyInfo(engine.Member(b, "receivingCurrency"), &q.ReceivingCurrency)
	b = engine.IntMember(b, "totalSendingAmount", q.TotalSendingAmount)
	b = engine.IntMember(b, "totalReceivingAmount", q.TotalReceivingAmount)
	b = append(engine.Member(b, "exchangeRate"), q.ExchangeRate.String()...)
	b = engine.IntMember(b, "feesIncluded", q.FeesIncluded)
	b = engine.IntMember(b, "platformFeesIncluded", q.PlatformFeesIncluded)
	if len(q.PaymentInstructions) > 0 {
		if b, err = engine.MarshaledMember(b, "paymentInstructions", q.PaymentInstructions); err != nil {
			return nil, err
		}
	}
	b = engine.StringMember(b, "transactionId", q.TransactionID, false)
	if r := q.RateDetails; r != nil {
		if b, err = engine.FloatMember(append(engine.Member(b, "rateDetails"), '{'), "counterpartyMultiplier", r.CounterpartyMultiplier); err != nil {
			return nil, err
		}
		b = engine.IntMember(b, "counterpartyFixedFee", r.CounterpartyFixedFee)
		b = append(engine.Member(b, "serviceApiMultiplier"), r.ServiceApiMultiplier.String()...)
		b = engine.IntMember(b, "serviceApiFixedFee", r.ServiceApiFixedFee)
		if b, err = engine.FloatMember(b, "serviceApiVariableFeeRate", r.ServiceApiVariableFeeRate); err != nil {
			return nil, err
		}
		b = append(engine.IntMember(b, "serviceApiVariableFeeAmount", r.ServiceApiVariableFeeAmount), '}')
	}
	b = engine.StringMember(b, "purposeOfPayment", q.PurposeOfPayment, true)
	if q.ScaChallenge != nil {
		if b, err = engine.MarshaledMember(b, "scaChallenge", q.ScaChallenge); err != nil {
			return nil, err
		}
	}
	return b, nil
}
