package eventrec

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/paygrid/payments/internal/jsontest"
)

// FuzzDecodeOutbox checks that Decode reads every record as
// json.Unmarshal does: records encode wrote (the in-place path) and any
// other bytes (the fallback).
func FuzzDecodeOutbox(f *testing.F) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 123456789, time.UTC)
	f.Add("Webhook:1", "OUTGOING_PAYMENT.COMPLETED", `{"id":"Transaction:1","amount":{"amount":100}}`, 0, "", at.UnixNano(), "")
	f.Add("Webhook:2", "TEST", `null`, 3, `endpoint answered 500: "oops"`, at.UnixNano(), "")
	f.Add("Webhook:3", "TEST", `{}`, 0, "", at.UnixNano(), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	f.Add("Webhook:4", "TEST", `{}`, 2, "refused", at.UnixNano(), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")
	f.Add(`We"b`, `T\y`, `[1,2]`, -1, "\x00", int64(0), `x"y`)
	f.Fuzz(func(t *testing.T, id, typ, data string, attempts int, lastError string, nanos int64, trace string) {
		if !json.Valid([]byte(data)) {
			return
		}
		ts := time.Unix(0, nanos).UTC()
		r := Record{Event: Event{ID: id, Type: EventType(typ), Timestamp: ts, Data: json.RawMessage(data)},
			Attempts: attempts, NextAttemptAt: ts.Add(time.Second), LastError: lastError, Trace: trace}
		var compact bytes.Buffer // as Emit keeps it: EncodeRecord's output is compact
		if err := json.Compact(&compact, []byte(data)); err != nil {
			return
		}
		r.Event.Data = compact.Bytes()
		b, err := r.Encode()
		if err != nil {
			return // a year outside 0..9999
		}
		plain := func(s string) bool { q, _ := json.Marshal(s); return string(q) == `"`+s+`"` }
		if _, ok := DecodeInPlace(b); !ok && plain(id) && plain(typ) && plain(lastError) && plain(trace) {
			t.Fatalf("Decode fell back to json.Unmarshal on %q", b)
		}
		for _, raw := range [][]byte{b, []byte(id + data + lastError)} {
			var want Record
			wantErr := json.Unmarshal(raw, &want)
			got, gotErr := Decode(raw)
			if (gotErr != nil) != (wantErr != nil) {
				t.Fatalf("Decode(%q) error %v, json.Unmarshal %v", raw, gotErr, wantErr)
			}
			if wantErr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("Decode(%q) =\n%+v, json.Unmarshal =\n%+v", raw, got, want)
			}
		}
	})
}

// FuzzAppendOutbox holds the hand-written encoders of Record and
// WebhookDelivery to encoding/json, and Decode to reading back.
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
		r := Record{Event: Event{ID: id, Type: EventType(typ), Timestamp: at, Data: raw},
			Attempts: attempts, NextAttemptAt: at.Add(time.Second), LastError: lastError, Trace: trace}
		ours, err := r.Encode()
		model, modelErr := json.Marshal(r)
		jsontest.CheckSame(t, ours, err, model, modelErr)
		for _, status := range []string{DeliveryPending, DeliveryDelivered, DeliveryNotSent, ""} {
			d := DeliveryOf(r, status)
			if status == DeliveryNotSent {
				d.Reason = lastError
			}
			d.FinishedAt = at.Add(time.Duration(attempts) * time.Second)
			ours, err := AppendDelivery(nil, &d)
			model, modelErr := json.Marshal(d)
			jsontest.CheckSame(t, ours, err, model, modelErr)
		}
		if err == nil {
			back, err := Decode(ours)
			if err != nil || !bytes.Equal(back.Event.Data, raw) && len(raw) > 0 {
				t.Fatalf("%s decodes to %+v, %v", ours, back, err)
			}
		}
	})
}

// FuzzResourceOf holds ResourceOf's in-place read of an event's "id" to
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
		if got := ResourceOf(data); got != want {
			t.Fatalf("ResourceOf(%s) = %q, want %q", data, got, want)
		}
	})
}
