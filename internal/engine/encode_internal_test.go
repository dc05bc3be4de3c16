package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/paygrid/payments/internal/jsontest"
)

func FuzzAppendOutbox(f *testing.F) {
	f.Add("Webhook:1", "OUTGOING_PAYMENT.COMPLETED", `{"id":"x"}`, int64(1700000000), int64(5), int32(0), 3, "", "")
	f.Add("", "", "", int64(-1), int64(0), int32(7200), 0, "timeout <after> 10s & \"more\"", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	f.Add("\x80", "\u2029", "null", int64(300000000000), int64(0), int32(0), -1, "\x01", "\"")
	f.Fuzz(func(t *testing.T, id, typ, data string, sec, nsec int64, off int32, attempts int, lastError, trace string) {
		at := jsontest.FuzzTime(sec, nsec, off)
		var raw json.RawMessage
		if data != "" { // compact, valid JSON, as encodeRecord returns
			raw, _ = json.Marshal(map[string]string{"data": data})
		}
		r := outboxRecord{Event: Event{ID: id, Type: EventType(typ), Timestamp: at, Data: raw},
			Attempts: attempts, NextAttemptAt: at.Add(time.Second), LastError: lastError, Trace: trace}
		ours, err := r.encode()
		model, modelErr := json.Marshal(r)
		jsontest.CheckSame(t, ours, err, model, modelErr)
		for _, status := range []string{DeliveryPending, DeliveryDelivered, DeliveryNotSent, ""} {
			d := deliveryOf(r, status)
			if status == DeliveryNotSent {
				d.Reason = lastError
			}
			d.FinishedAt = at.Add(time.Duration(attempts) * time.Second)
			ours, err := appendDelivery(nil, &d)
			model, modelErr := json.Marshal(d)
			jsontest.CheckSame(t, ours, err, model, modelErr)
		}
		if err == nil {
			back, err := decodeOutbox(ours)
			if err != nil || !bytes.Equal(back.Event.Data, raw) && len(raw) > 0 {
				t.Fatalf("%s decodes to %+v, %v", ours, back, err)
			}
		}
	})
}

// FuzzResourceOf holds resourceOf's in-place read of an event's "id" to
// decoding the data.
func FuzzResourceOf(f *testing.F) {
	for _, data := range []string{`{"id":"Transaction:1","status":"x"}`, `{"id":"a\"b"}`, `{"id":"\u0041"}`, `{"id":"x`, `{"status":"y","id":"z"}`, `[]`, ``, `{"id":"é"}`} {
		f.Add([]byte(data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v struct {
			ID string `json:"id"`
		}
		want := ""
		if json.Unmarshal(data, &v) == nil {
			want = v.ID
		}
		if !json.Valid(data) || bytes.Count(data, []byte(`"id"`)) > 1 {
			return // event data is valid JSON without repeated members (Emit)
		}
		if got := resourceOf(data); got != want {
			t.Fatalf("resourceOf(%s) = %q, want %q", data, got, want)
		}
	})
}

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
		b, err = o.encode()
		check("outboxRecord", b, err, o)
		d := deliveryOf(o, DeliveryPending)
		if n > 0 {
			d.FinishedAt = d.NextAttemptAt.Add(time.Minute)
		}
		b, err = appendDelivery(nil, &d)
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

// FuzzSortKey checks sortKey and sortSuffix against the padded hex they
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
		if got := sortSuffix(at, id); got != "|"+want+"|"+id {
			t.Fatalf("sortSuffix(%d, %q) = %q", ms, id, got)
		}
		if got := escapedValue(id); got != EscapeValue(id) {
			t.Fatalf("escapedValue(%q) = %q, want %q", id, got, EscapeValue(id))
		}
		if strings.Contains(EscapeValue(id), "|") {
			t.Fatalf("EscapeValue(%q) = %q keeps a '|'", id, EscapeValue(id))
		}
	})
}
