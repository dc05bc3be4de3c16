package httpapi

import (
	"unicode/utf8"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/jsonx"
)

// decodeQuoteRequest decodes the quote request most clients send without
// reflection: the members of QuoteRequest, its source and its destination,
// in any order and with any white space, whose values are strings without
// escapes, integers and booleans. At anything else (another member or
// spelling, an escape, null, a fraction or exponent, platformFeeOverride,
// senderCustomerInfo) it reports false and createQuote decodes the body
// with encoding/json as before, errors included. What it accepts decodes
// to exactly what encoding/json makes of it (FuzzDecodeQuoteRequest).
//
// A quote is the request a payment starts with, and encoding/json's
// reflection was a tenth of the CPU of POST /quotes.
func decodeQuoteRequest(b []byte) (q payments.QuoteRequest, ok bool) {
	s := &jsonScan{b: b}
	ok = s.object(func(name []byte) bool {
		switch string(name) {
		case "lookupId":
			return s.str(&q.LookupID)
		case "source":
			return s.object(func(name []byte) bool { return sourceMember(s, &q.Source, name) })
		case "destination":
			return s.object(func(name []byte) bool { return destinationMember(s, &q.Destination, name) })
		case "lockedCurrencySide":
			return s.str((*string)(&q.LockedCurrencySide))
		case "lockedCurrencyAmount":
			return s.int(&q.LockedCurrencyAmount)
		case "immediatelyExecute":
			return s.bool(&q.ImmediatelyExecute)
		case "description":
			return s.str(&q.Description)
		case "remittanceInformation":
			return s.str(&q.RemittanceInformation)
		case "purposeOfPayment":
			return s.str(&q.PurposeOfPayment)
		case "scaFactor":
			return s.str(&q.ScaFactor)
		}
		return false
	})
	s.space()
	return q, ok && s.i == len(b)
}

func sourceMember(s *jsonScan, src *payments.QuoteSource, name []byte) bool {
	switch string(name) {
	case "sourceType":
		return s.str((*string)(&src.SourceType))
	case "accountId":
		return s.str(&src.AccountID)
	case "customerId":
		return s.str(&src.CustomerID)
	case "currency":
		return s.str(&src.Currency)
	case "cryptoNetwork":
		return s.str(&src.CryptoNetwork)
	}
	return false
}

func destinationMember(s *jsonScan, d *payments.QuoteDestination, name []byte) bool {
	switch string(name) {
	case "destinationType":
		return s.str((*string)(&d.DestinationType))
	case "accountId":
		return s.str(&d.AccountID)
	case "paymentRail":
		return s.str((*string)(&d.PaymentRail))
	case "umaAddress":
		return s.str(&d.UmaAddress)
	case "currency":
		return s.str(&d.Currency)
	}
	return false
}

// jsonScan reads the plain JSON decodeQuoteRequest accepts. Each read
// reports false at anything it does not read, and leaves the rest to
// encoding/json.
type jsonScan struct {
	b []byte
	i int
}

// space skips white space.
func (s *jsonScan) space() { s.i = jsonx.SkipSpace(s.b, s.i) }

// take reads c after white space.
func (s *jsonScan) take(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads an object, passing the name of each member to member,
// which reads its value.
func (s *jsonScan) object(member func(name []byte) bool) bool {
	if !s.take('{') {
		return false
	}
	if s.take('}') {
		return true
	}
	for {
		name, ok := s.quoted()
		if !ok || !s.take(':') || !member(name) {
			return false
		}
		if !s.take(',') {
			return s.take('}')
		}
	}
}

// quoted reads a string without escapes or control characters, in valid
// UTF-8, and returns its contents.
func (s *jsonScan) quoted() ([]byte, bool) {
	if !s.take('"') {
		return nil, false
	}
	start, ascii := s.i, true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			return v, ascii || utf8.Valid(v)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// str reads a string into v.
func (s *jsonScan) str(v *string) bool {
	b, ok := s.quoted()
	*v = string(b)
	return ok
}

// int reads an integer of at most 18 digits (no fraction or exponent) into
// v: it cannot overflow.
func (s *jsonScan) int(v *int64) bool {
	s.space()
	neg := s.i < len(s.b) && s.b[s.i] == '-'
	if neg {
		s.i++
	}
	start, n := s.i, int64(0)
	for ; s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9'; s.i++ {
		n = n*10 + int64(s.b[s.i]-'0')
	}
	digits := s.i - start
	if digits == 0 || digits > 18 || (digits > 1 && s.b[start] == '0') {
		return false
	}
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case '.', 'e', 'E':
			return false
		}
	}
	if neg {
		n = -n
	}
	*v = n
	return true
}

// bool reads true or false into v.
func (s *jsonScan) bool(v *bool) bool {
	s.space()
	switch {
	case len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "true":
		*v, s.i = true, s.i+4
	case len(s.b)-s.i >= 5 && string(s.b[s.i:s.i+5]) == "false":
		*v, s.i = false, s.i+5
	default:
		return false
	}
	return true
}
