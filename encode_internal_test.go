package payments

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"
)

// plainTransaction is Transaction without its MarshalJSON: what
// encoding/json writes by reflection, the model of appendTransaction.
type plainTransaction Transaction

// fuzzTime makes a time from fuzz input, in a fixed zone of off seconds.
func fuzzTime(sec int64, nsec int64, off int32) time.Time {
	return time.Unix(sec, nsec%1e9).In(time.FixedZone("", int(off)))
}

// checkSame fails unless ours and model are the same bytes, or both errors.
func checkSame(t *testing.T, ours []byte, oursErr error, model []byte, modelErr error) {
	t.Helper()
	if (oursErr != nil) != (modelErr != nil) {
		t.Fatalf("error %v, encoding/json's %v", oursErr, modelErr)
	}
	if modelErr == nil && !bytes.Equal(ours, model) {
		t.Fatalf("encoded\n%s\nencoding/json\n%s", ours, model)
	}
}

func FuzzAppendTransaction(f *testing.F) {
	f.Add("Transaction:1", "COMPLETED", "€ <b>&\u2028\x00\xff", int64(1700000000), int64(123456789), int32(0), 1.5, int64(100), uint8(0xff))
	f.Add("", "", "", int64(-62135596800), int64(0), int32(-3600), 1e-7, int64(-1), uint8(0))
	f.Add("a\"b\\c", "\t\n\r\b\f", "ü日本", int64(253402300800), int64(999999999), int32(86399), 1e21, int64(math.MinInt64), uint8(0x55))
	f.Add("x", "y", "z", int64(0), int64(0), int32(0), math.Inf(1), int64(0), uint8(0x10))
	for _, s := range []string{"<", ">", "&", "\"", "\\", "\x1f", "\xff", "\u2028", "\u2029", "é"} {
		f.Add(s, "", "", int64(0), int64(0), int32(0), 0.0, int64(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, id, status, text string, sec, nsec int64, off int32, rate float64, n int64, present uint8) {
		at := fuzzTime(sec, nsec, off)
		x := Transaction{ID: id, Status: TransactionStatus(status), Type: text, Direction: status,
			Source:      TxParty{SourceType: text, AccountID: id},
			Destination: TxParty{DestinationType: status, UmaAddress: text, Currency: id, CustomerID: text},
			CustomerID:  text, PlatformCustomerID: id, QuoteID: text, PaymentRail: id, Description: text,
			FailureReason: status, AgentID: text, CreatedAt: at, UpdatedAt: at.Add(time.Duration(n))}
		has := func(bit uint8) bool { return present&bit != 0 }
		if has(1) {
			x.SentAmount = &CurrencyAmount{Amount: n, Currency: CurrencyInfo{Code: id, Name: text, Symbol: status, Decimals: int(n % 20)}}
		}
		if has(2) {
			x.ReceivedAmount = &CurrencyAmount{Amount: -n}
		}
		if has(4) {
			x.ExchangeRate = &rate
		}
		if has(8) {
			x.Fees, x.PlatformFees = &n, &sec
		}
		if has(16) {
			x.Refund = &Refund{Reference: text, InitiatedAt: at, Status: status, Reason: id}
			if has(32) {
				x.Refund.SettledAt = &at
			}
		}
		if has(64) {
			x.SettledAt = &at
		}
		if has(128) {
			x.ReceiptDeliveryConfirmedAt = &x.UpdatedAt
		}
		ours, err := x.MarshalJSON()
		model, modelErr := json.Marshal(plainTransaction(x))
		checkSame(t, ours, err, model, modelErr)
		if err == nil {
			var back Transaction
			if err := json.Unmarshal(ours, &back); err != nil {
				t.Fatalf("%s does not decode: %v", ours, err)
			}
		}
	})
}

func FuzzAppendOutbox(f *testing.F) {
	f.Add("Webhook:1", "OUTGOING_PAYMENT.COMPLETED", `{"id":"x"}`, int64(1700000000), int64(5), int32(0), 3, "")
	f.Add("", "", "", int64(-1), int64(0), int32(7200), 0, "timeout <after> 10s & \"more\"")
	f.Add("\x80", "\u2029", "null", int64(300000000000), int64(0), int32(0), -1, "\x01")
	f.Fuzz(func(t *testing.T, id, typ, data string, sec, nsec int64, off int32, attempts int, lastError string) {
		at := fuzzTime(sec, nsec, off)
		var raw json.RawMessage
		if data != "" { // compact, valid JSON, as encodeRecord returns
			raw, _ = json.Marshal(map[string]string{"data": data})
		}
		r := outboxRecord{Event: Event{ID: id, Type: EventType(typ), Timestamp: at, Data: raw},
			Attempts: attempts, NextAttemptAt: at.Add(time.Second), LastError: lastError}
		ours, err := r.encode()
		model, modelErr := json.Marshal(r)
		checkSame(t, ours, err, model, modelErr)
		if err == nil {
			back, err := decodeOutbox(ours)
			if err != nil || !bytes.Equal(back.Event.Data, raw) && len(raw) > 0 {
				t.Fatalf("%s decodes to %+v, %v", ours, back, err)
			}
		}
	})
}

// TestAppendFloat holds appendFloat to encoding/json at the edges of its
// two formats.
func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1e-6, 9.99999e-7, 1e20, 1e21, -1e21, 1.5e-9, 123456.789, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(-1)} {
		ours, err := appendFloat(nil, f)
		model, modelErr := json.Marshal(f)
		checkSame(t, ours, err, model, modelErr)
	}
}
