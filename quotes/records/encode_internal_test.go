package records

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/jsontest"
	"github.com/paygrid/payments/money"
)

// plainTransaction is Transaction without its MarshalJSON: what
// encoding/json writes by reflection, the model of appendTransaction.
type plainTransaction Transaction

func FuzzAppendTransaction(f *testing.F) {
	f.Add("Transaction:1", "COMPLETED", "€ <b>&\u2028\x00\xff", int64(1700000000), int64(123456789), int32(0), 1.5, int64(100), uint8(0xff))
	f.Add("", "", "", int64(-62135596800), int64(0), int32(-3600), 1e-7, int64(-1), uint8(0))
	f.Add("a\"b\\c", "\t\n\r\b\f", "ü日本", int64(253402300800), int64(999999999), int32(86399), 1e21, int64(math.MinInt64), uint8(0x55))
	f.Add("x", "y", "z", int64(0), int64(0), int32(0), math.Inf(1), int64(0), uint8(0x10))
	for _, s := range []string{"<", ">", "&", "\"", "\\", "\x1f", "\xff", "\u2028", "\u2029", "é"} {
		f.Add(s, "", "", int64(0), int64(0), int32(0), 0.0, int64(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, id, status, text string, sec, nsec int64, off int32, rate float64, n int64, present uint8) {
		at := jsontest.FuzzTime(sec, nsec, off)
		x := Transaction{ID: id, Status: TxStatus(status), Type: TxType(text), Direction: TxDirection(status),
			Source:      TxParty{SourceType: SourceType(text), AccountID: id},
			Destination: TxParty{DestinationType: DestinationType(status), UmaAddress: text, Currency: id, CustomerID: text},
			CustomerID:  text, PlatformCustomerID: id, QuoteID: text, PaymentRail: PaymentRail(id), Description: text,
			FailureReason: status, AgentID: text, CreatedAt: at, UpdatedAt: at.Add(time.Duration(n))}
		has := func(bit uint8) bool { return present&bit != 0 }
		if has(1) {
			x.SentAmount = &accounts.CurrencyAmount{Amount: n, Currency: accounts.CurrencyInfo{Code: id, Name: text, Symbol: status, Decimals: int(n % 20)}}
		}
		if has(2) {
			x.ReceivedAmount = &accounts.CurrencyAmount{Amount: -n}
		}
		if has(4) {
			x.ExchangeRate = &rate
		}
		if has(8) {
			x.Fees, x.PlatformFees = &n, &sec
		}
		if has(16) {
			x.Refund = &Refund{Reference: text, InitiatedAt: at, Status: RefundStatus(status), Reason: id}
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
		jsontest.CheckSame(t, ours, err, model, modelErr)
		if err == nil {
			var back Transaction
			if err := json.Unmarshal(ours, &back); err != nil {
				t.Fatalf("%s does not decode: %v", ours, err)
			}
			checkDecodeTransaction(t, ours)
			if _, ok := decodeTransaction(ours); !ok && !bytes.Contains(ours, []byte{'\\'}) {
				t.Fatalf("%s has nothing escaped but is not read back without encoding/json", ours)
			}
		}
	})
}

// checkDecodeTransaction fails unless decodeTransaction either leaves b to
// encoding/json or reads what encoding/json reads from it.
func checkDecodeTransaction(t *testing.T, b []byte) {
	t.Helper()
	ours, ok := decodeTransaction(b)
	if !ok {
		return
	}
	var model plainTransaction
	if err := json.Unmarshal(b, &model); err != nil {
		t.Fatalf("%s read as %+v, but encoding/json refuses it: %v", b, ours, err)
	}
	if !reflect.DeepEqual(Transaction(model), ours) {
		t.Fatalf("%s read as\n%+v\nencoding/json\n%+v", b, ours, Transaction(model))
	}
}

// FuzzDecodeTransaction: whatever bytes decodeTransaction accepts,
// encoding/json accepts too and decodes to the same transaction.
func FuzzDecodeTransaction(f *testing.F) {
	fees := int64(7)
	at := time.Date(2026, 11, 26, 12, 0, 0, 5, time.FixedZone("", 3600))
	for _, x := range []Transaction{
		{ID: "Transaction:1", Status: TxCompleted, Type: "OUTGOING", Direction: "DEBIT", CreatedAt: at, UpdatedAt: at},
		{ID: "Transaction:2", Source: TxParty{SourceType: "ACCOUNT", AccountID: "a"}, Destination: TxParty{UmaAddress: "$b@x", Currency: "EUR"},
			SentAmount: &accounts.CurrencyAmount{Amount: -5, Currency: accounts.CurrencyInfo{Code: "USD", Name: "US Dollar", Symbol: "$", Decimals: 2}},
			Fees:       &fees, PlatformFees: &fees, QuoteID: "Quote:1", Description: "rent é", SettledAt: &at,
			Refund: &Refund{Reference: "R", InitiatedAt: at, SettledAt: &at, Status: "COMPLETED", Reason: "r"}, AgentID: "Agent:1"},
	} {
		b, err := x.MarshalJSON()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(bytes.Replace(b, []byte(`"fees":7`), []byte(`"fees":7.0`), 1))
		f.Add(bytes.Replace(b, []byte(`2026`), []byte(`20x6`), 1))
	}
	rate := 1.5
	b, _ := (&Transaction{ExchangeRate: &rate}).MarshalJSON()
	f.Add(b)
	f.Add([]byte(`{"id":"a","status":"b","type":"c","direction":"d","source":{},"destination":{},"customerId":"","platformCustomerId":"","exchangeRate":01,"createdAt":"0001-01-01T00:00:00Z","updatedAt":"0001-01-01T00:00:00Z"}`))
	f.Fuzz(func(t *testing.T, b []byte) { checkDecodeTransaction(t, b) })
}

// Models of the hand-written encoders: the same types without their
// MarshalJSON, encoded by encoding/json's reflection.
type plainQuote Quote

// modelQuoteRecord is q as a struct of the same members whose embedded
// quote is a plainQuote (a defined type of Record would still promote
// Quote's MarshalJSON).
func modelQuoteRecord(q *Record) any {
	t := reflect.TypeFor[Record]()
	fields := make([]reflect.StructField, t.NumField())
	for i := range fields {
		if fields[i] = t.Field(i); fields[i].Anonymous {
			fields[i].Type = reflect.TypeFor[plainQuote]()
		}
	}
	m := reflect.New(reflect.StructOf(fields)).Elem()
	for i := range fields {
		if fields[i].Anonymous {
			m.Field(i).Set(reflect.ValueOf(plainQuote(q.Quote)))
		} else {
			m.Field(i).Set(reflect.ValueOf(q).Elem().Field(i))
		}
	}
	return m.Interface()
}

// TestEncodersCoverEveryMember compares each hand-written encoder of the
// areas with its model on values with every member set, and on zero values
// (the kernel's are compared in internal/engine, the rail intents'
// in package quotes).
func TestEncodersCoverEveryMember(t *testing.T) {
	for n := range 3 {
		var x Transaction
		var q Record
		if n > 0 {
			for _, v := range []any{&x, &q} {
				jsontest.Fill(reflect.ValueOf(v).Elem(), n)
			}
		}
		check := func(name string, ours []byte, err error, model any) {
			t.Helper()
			want, wantErr := json.Marshal(model)
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) { jsontest.CheckSame(t, ours, err, want, wantErr) })
		}
		b, err := x.MarshalJSON()
		check("Transaction", b, err, plainTransaction(x))
		b, err = q.Quote.MarshalJSON()
		check("Quote", b, err, plainQuote(q.Quote))
		b, err = q.MarshalJSON()
		check("Record", b, err, modelQuoteRecord(&q))
	}
}

func FuzzAppendQuote(f *testing.F) {
	f.Add("Quote:1", "PENDING", "<x> & \u2028", int64(1700000000), int64(1), int32(0), 0.25, "17.16375", int64(100), uint8(0xff))
	f.Add("", "", "", int64(-62135596800), int64(0), int32(3600), math.NaN(), "-0.000001", int64(-1), uint8(0))
	f.Fuzz(func(t *testing.T, id, status, text string, sec, nsec int64, off int32, f float64, rate string, n int64, present uint8) {
		at := jsontest.FuzzTime(sec, nsec, off)
		r, err := money.NewRate(rate)
		if err != nil {
			r = money.Rate{}
		}
		has := func(bit uint8) bool { return present&bit != 0 }
		q := Record{Quote: Quote{ID: id, Status: Status(status), CreatedAt: at, ExpiresAt: at.Add(time.Duration(n)),
			Source:          Source{SourceType: SourceType(text), AccountID: id, CryptoNetwork: status},
			Destination:     Destination{DestinationType: DestinationType(status), UmaAddress: text, PaymentRail: PaymentRail(id)},
			SendingCurrency: accounts.CurrencyInfo{Code: id, Name: text, Symbol: status, Decimals: int(n % 30)}, TotalSendingAmount: n,
			TotalReceivingAmount: -n, ExchangeRate: r, FeesIncluded: sec, TransactionID: text, PurposeOfPayment: text},
			CustomerID: text, AgentID: id, ServiceFees: n, Rail: status, Description: text, PendingSent: has(1), Collected: has(2)}
		if has(4) {
			q.RateDetails = &RateDetails{CounterpartyMultiplier: f, ServiceApiMultiplier: r, ServiceApiVariableFeeRate: -f, ServiceApiVariableFeeAmount: n}
		}
		if has(8) {
			q.PaymentInstructions = []accounts.PaymentInstructions{{InstructionsNotes: text, AccountOrWalletInfo: map[string]any{id: text}}}
		}
		if has(16) {
			q.ScaNonce, q.ScaSends = []byte(text), []time.Time{at}
		}
		if has(32) {
			q.ScaChallenge = &accounts.ScaChallenge{ID: id, ExpiresAt: at, Factor: text}
		}
		ours, err := q.MarshalJSON()
		model, modelErr := json.Marshal(modelQuoteRecord(&q))
		jsontest.CheckSame(t, ours, err, model, modelErr)
		ours, err = q.Quote.MarshalJSON()
		model, modelErr = json.Marshal(plainQuote(q.Quote))
		jsontest.CheckSame(t, ours, err, model, modelErr)
	})
}

// TestTransactionCloneSharesNothing fills every member of a transaction and
// checks that its clone holds no pointer, slice or map of the original: a
// pointer member added later and not cloned fails here.
func TestTransactionCloneSharesNothing(t *testing.T) {
	var x Transaction
	jsontest.Fill(reflect.ValueOf(&x).Elem(), 1)
	jsontest.CheckClone(t, &x, x.Clone(), "Card")
}

// TestQuoteCloneSharesNothing is TestTransactionCloneSharesNothing for a
// quote without the members that make it not cloneable.
func TestQuoteCloneSharesNothing(t *testing.T) {
	var q Record
	jsontest.Fill(reflect.ValueOf(&q).Elem(), 1)
	q.PaymentInstructions, q.ScaChallenge, q.ScaNonce, q.ScaSends, q.HeldInstructions = nil, nil, nil, nil, nil
	if !q.Cloneable() {
		t.Fatal("not cloneable")
	}
	jsontest.CheckClone(t, &q, q.Clone(), "")
}
