package payments

import (
	"encoding/json"
	"math"
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

func intMember(b []byte, name string, n int64) []byte {
	return strconv.AppendInt(member(b, name), n, 10)
}

func timeMember(b []byte, name string, t time.Time) ([]byte, error) {
	return appendTime(member(b, name), t)
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
	b = append(member(b, "currency"), '{')
	b = stringMember(b, "code", a.Currency.Code, false)
	b = stringMember(b, "name", a.Currency.Name, false)
	b = stringMember(b, "symbol", a.Currency.Symbol, false)
	b = intMember(b, "decimals", int64(a.Currency.Decimals))
	return append(b, '}', '}')
}

// appendOutbox appends json.Marshal of an outbox record whose event data is
// compact, valid JSON (as encodeRecord returns) or absent.
func appendOutbox(b []byte, r *outboxRecord) ([]byte, error) {
	var err error
	b = append(member(append(b, '{'), "event"), '{')
	b = stringMember(b, "id", r.Event.ID, false)
	b = stringMember(b, "type", string(r.Event.Type), false)
	if b, err = timeMember(b, "timestamp", r.Event.Timestamp); err != nil {
		return nil, err
	}
	b = member(b, "data")
	if len(r.Event.Data) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, r.Event.Data...)
	}
	b = intMember(append(b, '}'), "attempts", int64(r.Attempts))
	if b, err = timeMember(b, "nextAttemptAt", r.NextAttemptAt); err != nil {
		return nil, err
	}
	return append(stringMember(b, "lastError", r.LastError, true), '}'), nil
}
