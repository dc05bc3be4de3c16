package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
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

// FuzzSortKey checks sortKey and SortSuffix against the padded hex they
// replaced, and the index value's escape in place against EscapeValue.
func FuzzSortKey(f *testing.F) {
	f.Add(int64(0), "Transaction:1")
	f.Add(int64(-62135596800000), "")
	f.Add(int64(1795000000000), "x|y")
	f.Add(int64(1), "100%|%7C|")
	f.Fuzz(func(t *testing.T, ms int64, id string) {
		at := time.UnixMilli(ms)
		h := strconv.FormatUint(uint64(at.UnixMilli())^1<<63, 16)
		want := strings.Repeat("0", 16-len(h)) + h
		if got := sortKey(at); got != want {
			t.Fatalf("sortKey(%d) = %q, want %q", ms, got, want)
		}
		if got := SortSuffix(at, id); got != "|"+want+"|"+id {
			t.Fatalf("SortSuffix(%d, %q) = %q", ms, id, got)
		}
		if got := escapedValue(id); got != EscapeValue(id) {
			t.Fatalf("escapedValue(%q) = %q, want %q", id, got, EscapeValue(id))
		}
		if strings.Contains(EscapeValue(id), "|") {
			t.Fatalf("EscapeValue(%q) = %q keeps a '|'", id, EscapeValue(id))
		}
	})
}
