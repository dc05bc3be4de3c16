package railside

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/paygrid/payments/internal/jsontest"
	"github.com/paygrid/payments/rails"
)

// TestEncodersCoverEveryMember compares the hand-written encoder of the
// rail intents with its model on values with every member set, and on zero
// values (the records' are compared in quotes/records, the kernel's in
// internal/engine).
func TestEncodersCoverEveryMember(t *testing.T) {
	for n := range 3 {
		var p rails.OutgoingPayment
		if n > 0 {
			jsontest.Fill(reflect.ValueOf(&p).Elem(), n)
			p.Destination.AccountInfo = json.RawMessage(`{"iban":"DE89370400440532013000"}`)
		}
		in := railIntent{Send: &p}
		b, err := in.encode()
		want, wantErr := json.Marshal(in)
		t.Run(fmt.Sprintf("intent/%d", n), func(t *testing.T) { jsontest.CheckSame(t, b, err, want, wantErr) })
	}
}

func FuzzAppendIntent(f *testing.F) {
	f.Add("send:Transaction:1", "<b>&\u2028", `{"iban":"DE89370400440532013000"}`, int64(1700000000), int64(5), int32(0), int64(100), uint8(0xff))
	f.Add("", "", "", int64(-62135596800), int64(0), int32(-3600), int64(-1), uint8(0))
	f.Add("x", "y", "{\"a\" : [1, \"<\"]}", int64(1700000000), int64(1), int32(60), int64(0), uint8(0x03))
	f.Add("x", "y", "not json", int64(0), int64(0), int32(0), int64(0), uint8(0x01))
	f.Fuzz(func(t *testing.T, id, text, info string, sec, nsec int64, off int32, n int64, present uint8) {
		at := jsontest.FuzzTime(sec, nsec, off)
		p := rails.OutgoingPayment{ID: id, TransactionID: text, Currency: id, Amount: n, Rail: text, UmaAddress: id, Transfer: present&8 != 0, SubmittedAt: at}
		if present&1 != 0 {
			p.Destination = &rails.ExternalAccount{ID: text, CustomerID: id, Status: rails.ExternalAccountStatus(text), PlatformAccountID: text,
				OwnershipType: id, Currency: text, DefaultUmaDepositAccount: present&16 != 0, BeneficiaryVerificationStatus: text,
				CreatedAt: at, UpdatedAt: at.Add(time.Duration(n))}
			if present&2 != 0 {
				p.Destination.AccountInfo = json.RawMessage(info)
			}
			if present&4 != 0 {
				p.Destination.BeneficiaryVerifiedData = &rails.BeneficiaryVerifiedData{}
			}
		}
		in := railIntent{Send: &p}
		ours, err := in.encode()
		model, modelErr := json.Marshal(in)
		jsontest.CheckSame(t, ours, err, model, modelErr)
	})
}

// TestIntentCloneSharesNothing is records.TestTransactionCloneSharesNothing for
// the
// intents handed to the rail (an external account's nested members
// included).
func TestIntentCloneSharesNothing(t *testing.T) {
	var in railIntent
	jsontest.Fill(reflect.ValueOf(&in).Elem(), 1)
	jsontest.CheckClone(t, &in, in.clone(), "")
}
