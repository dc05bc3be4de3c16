package payments

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// Hand-written encoders for the records written on every payment (a
// transaction is encoded three or four times per execution, and every event
// has an outbox envelope). Each appends exactly what json.Marshal writes for
// the same value, byte for byte (FuzzAppendTransaction and FuzzAppendOutbox
// compare them), so stored records, replayed answers and webhook bodies do
// not depend on which encoder made them. They are about five times faster
// than encoding/json's reflection.

// appendString appends s as json.Marshal encodes a string. Plain text is
// copied; a string needing escapes (quotes, control characters, <, > and &,
// invalid UTF-8, U+2028 and U+2029) is left to encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendMarshaled(b, s)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029' {
			return appendMarshaled(b, s)
		}
		i += n
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendMarshaled(b []byte, s string) []byte {
	raw, _ := json.Marshal(s) // a string always encodes
	return append(b, raw...)
}

// appendTime appends t as time.Time.MarshalJSON does.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		_, err := t.MarshalJSON() // its error
		return b, err
	}
	if _, off := t.Zone(); off <= -24*3600 || off >= 24*3600 {
		_, err := t.MarshalJSON()
		return b, err
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// appendFloat appends f as json.Marshal encodes a float64.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		_, err := json.Marshal(f) // its error
		return b, err
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 is written e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// member appends the separator before a member (none after the object's
// opening brace) and its name, which is plain text.
func member(b []byte, name string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// stringMember appends the member name with the string value s, or nothing
// when omitEmpty and s is empty.
func stringMember(b []byte, name, s string, omitEmpty bool) []byte {
	if omitEmpty && s == "" {
		return b
	}
	return appendString(member(b, name), s)
}

func boolMember(b []byte, name string, v bool) []byte {
	if !v { // every bool member is omitempty
		return b
	}
	return append(member(b, name), "true"...)
}

func floatMember(b []byte, name string, f float64) ([]byte, error) {
	return appendFloat(member(b, name), f)
}

// marshaledMember appends the member name with json.Marshal(v).
func marshaledMember(b []byte, name string, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(member(b, name), raw...), nil
}

func intMember(b []byte, name string, n int64) []byte {
	return strconv.AppendInt(member(b, name), n, 10)
}

func timeMember(b []byte, name string, t time.Time) ([]byte, error) {
	return appendTime(member(b, name), t)
}

// appendRaw appends raw as json.Marshal encodes a json.RawMessage: null
// when nil, raw itself when it is valid and compact with nothing to escape
// (the stored accountInfo of an external account), else what encoding/json
// makes of it.
func appendRaw(b []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	if json.Valid(raw) && bytes.IndexAny(raw, " \t\r\n<>&\u2028\u2029") < 0 {
		return append(b, raw...), nil
	}
	m, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	return append(b, m...), nil
}

// encode returns json.Marshal(in), by hand for a payout (every payment
// executed to an external account writes one).
func (in *railIntent) encode() ([]byte, error) {
	if in.Send == nil || in.Pull != nil {
		return encodeRecord(in)
	}
	p := in.Send
	b := append(make([]byte, 0, 640), `{"send":{`...)
	b = stringMember(b, "ID", p.ID, false)
	b = stringMember(b, "TransactionID", p.TransactionID, false)
	b = stringMember(b, "Currency", p.Currency, false)
	b = intMember(b, "Amount", p.Amount)
	b = stringMember(b, "Rail", p.Rail, false)
	b = member(b, "Destination")
	var err error
	if a := p.Destination; a == nil {
		b = append(b, "null"...)
	} else if b, err = appendExternalAccount(b, a); err != nil {
		return nil, err
	}
	b = stringMember(b, "UmaAddress", p.UmaAddress, false)
	b = strconv.AppendBool(member(b, "Transfer"), p.Transfer)
	if b, err = timeMember(b, "SubmittedAt", p.SubmittedAt); err != nil {
		return nil, err
	}
	return append(b, "}}"...), nil
}

// appendExternalAccount appends json.Marshal(a).
func appendExternalAccount(b []byte, a *ExternalAccount) ([]byte, error) {
	b = append(b, '{')
	b = stringMember(b, "id", a.ID, false)
	b = stringMember(b, "customerId", a.CustomerID, true)
	b = stringMember(b, "status", string(a.Status), false)
	b = stringMember(b, "platformAccountId", a.PlatformAccountID, true)
	b = stringMember(b, "ownershipType", a.OwnershipType, true)
	b = stringMember(b, "currency", a.Currency, false)
	b = strconv.AppendBool(member(b, "defaultUmaDepositAccount"), a.DefaultUmaDepositAccount)
	b = stringMember(b, "beneficiaryVerificationStatus", a.BeneficiaryVerificationStatus, true)
	var err error
	if a.BeneficiaryVerifiedData != nil {
		if b, err = marshaledMember(b, "beneficiaryVerifiedData", a.BeneficiaryVerifiedData); err != nil {
			return nil, err
		}
	}
	if b, err = appendRaw(member(b, "accountInfo"), a.AccountInfo); err != nil {
		return nil, err
	}
	if b, err = timeMember(b, "createdAt", a.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = timeMember(b, "updatedAt", a.UpdatedAt); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

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

func appendCurrencyAmount(b []byte, a *CurrencyAmount) []byte {
	b = intMember(append(b, '{'), "amount", a.Amount)
	return append(appendCurrencyInfo(member(b, "currency"), &a.Currency), '}')
}

func appendCurrencyInfo(b []byte, c *CurrencyInfo) []byte {
	b = stringMember(append(b, '{'), "code", c.Code, false)
	b = stringMember(b, "name", c.Name, false)
	b = stringMember(b, "symbol", c.Symbol, false)
	return append(intMember(b, "decimals", int64(c.Decimals)), '}')
}

// appendOutbox appends json.Marshal of an outbox record whose event data is
// compact, valid JSON (as encodeRecord returns) or absent.
func appendOutbox(b []byte, r *outboxRecord) ([]byte, error) {
	b, err := appendOutboxHead(b, r)
	if err != nil {
		return nil, err
	}
	if len(r.Event.Data) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, r.Event.Data...)
	}
	return appendOutboxTail(b, r)
}

// appendOutboxHead appends the encoding of r up to its event's data.
func appendOutboxHead(b []byte, r *outboxRecord) ([]byte, error) {
	var err error
	b = append(member(append(b, '{'), "event"), '{')
	b = stringMember(b, "id", r.Event.ID, false)
	b = stringMember(b, "type", string(r.Event.Type), false)
	if b, err = timeMember(b, "timestamp", r.Event.Timestamp); err != nil {
		return nil, err
	}
	return member(b, "data"), nil
}

// appendOutboxTail appends the encoding of r after its event's data.
func appendOutboxTail(b []byte, r *outboxRecord) ([]byte, error) {
	b = intMember(append(b, '}'), "attempts", int64(r.Attempts))
	b, err := timeMember(b, "nextAttemptAt", r.NextAttemptAt)
	if err != nil {
		return nil, err
	}
	return append(stringMember(b, "lastError", r.LastError, true), '}'), nil
}

// accountViewJSON returns json.Marshal(t.accountView(a)), the data of
// INTERNAL_ACCOUNT.BALANCE_UPDATED, with the account's funding instructions
// (fixed per account) encoded once per account and kept in e.funding.
func (t *txn) accountViewJSON(a *InternalAccount) ([]byte, error) {
	return t.appendAccountView(nil, a)
}

// appendAccountView appends accountViewJSON(a) to b.
func (t *txn) appendAccountView(b []byte, a *InternalAccount) ([]byte, error) {
	avail, held, err := t.balances(a)
	if err != nil {
		return nil, err
	}
	instructions, ok := t.e.funding.get(a.ID)
	if !ok {
		if instructions, err = json.Marshal(fundingInstructions(a)); err != nil {
			return nil, err
		}
		t.e.funding.put(a.ID, instructions)
	}
	b = append(slices.Grow(b, 384+len(instructions)), '{')
	b = stringMember(b, "id", a.ID, false)
	b = stringMember(b, "customerId", a.CustomerID, true)
	b = stringMember(b, "type", string(a.Type), false)
	b = stringMember(b, "status", a.Status, false)
	b = stringMember(b, "currency", a.Currency, false)
	if b, err = timeMember(b, "createdAt", a.CreatedAt); err != nil {
		return nil, err
	}
	if b, err = timeMember(b, "updatedAt", a.UpdatedAt); err != nil {
		return nil, err
	}
	if a.PrivateEnabled != nil {
		b = strconv.AppendBool(member(b, "privateEnabled"), *a.PrivateEnabled)
	}
	balance, total := amountOf(a.Currency, avail), amountOf(a.Currency, avail+held)
	b = appendCurrencyAmount(member(b, "balance"), &balance)
	b = appendCurrencyAmount(member(b, "totalBalance"), &total)
	b = append(member(b, "fundingPaymentInstructions"), instructions...)
	return append(b, '}'), nil
}

// appendLedgerEntry appends json.Marshal(e).
func appendLedgerEntry(b []byte, e *LedgerEntry) ([]byte, error) {
	b = stringMember(append(b, '{'), "id", e.ID, false)
	b = stringMember(b, "reference", e.Reference, true)
	b = member(b, "postings")
	if e.Postings == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range e.Postings {
			if i > 0 {
				b = append(b, ',')
			}
			b = stringMember(append(b, '{'), "account", p.Account, false)
			b = stringMember(b, "currency", p.Currency, false)
			b = append(intMember(b, "amount", p.Amount), '}')
		}
		b = append(b, ']')
	}
	b, err := timeMember(b, "createdAt", e.CreatedAt)
	if err != nil {
		return nil, err
	}
	b = boolMember(b, "overdraft", e.Overdraft)
	return append(b, '}'), nil
}

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
