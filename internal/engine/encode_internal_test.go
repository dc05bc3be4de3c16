package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/paygrid/payments/internal/eventrec"
	"github.com/paygrid/payments/internal/jsontest"
)

// plainLedgerEntry is LedgerEntry encoded by encoding/json's reflection,
// the model of appendLedgerEntry.
type plainLedgerEntry LedgerEntry

// TestEncodersCoverEveryMember compares each hand-written encoder of the
// kernel with its model on values with every member set, and on zero
// values.
func TestEncodersCoverEveryMember(t *testing.T) {
	for n := range 3 {
		var l LedgerEntry
		var o outboxRecord
		if n > 0 {
			for _, v := range []any{&l, &o} {
				jsontest.Fill(reflect.ValueOf(v).Elem(), n)
			}
			o.Event.Data = json.RawMessage(`{"a":[1,"b"]}`)
		}
		check := func(name string, ours []byte, err error, model any) {
			t.Helper()
			want, wantErr := json.Marshal(model)
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) { jsontest.CheckSame(t, ours, err, want, wantErr) })
		}
		b, err := appendLedgerEntry(nil, &l)
		check("LedgerEntry", b, err, plainLedgerEntry(l))
		b, err = o.Encode()
		check("outboxRecord", b, err, o)
		d := eventrec.DeliveryOf(o, DeliveryPending)
		if n > 0 {
			d.FinishedAt = d.NextAttemptAt.Add(time.Minute)
		}
		b, err = eventrec.AppendDelivery(nil, &d)
		check("WebhookDelivery", b, err, d)
	}
}

// FuzzRecordID checks recordID against the concatenation it replaced.
func FuzzRecordID(f *testing.F) {
	f.Add("Quote", []byte("0123456789abcdef"))
	f.Add("", []byte{0xff, 0, 0x80, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Fuzz(func(t *testing.T, prefix string, b []byte) {
		var u uuid.UUID
		copy(u[:], b)
		if got, want := recordID(prefix, u), prefix+":"+u.String(); got != want {
			t.Fatalf("recordID(%q, %v) = %q, want %q", prefix, u, got, want)
		}
	})
}
