package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// FuzzDecodeOutbox checks that decodeOutbox reads every record as
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
		r := outboxRecord{Event: Event{ID: id, Type: EventType(typ), Timestamp: ts, Data: json.RawMessage(data)},
			Attempts: attempts, NextAttemptAt: ts.Add(time.Second), LastError: lastError, Trace: trace}
		var compact bytes.Buffer // as Emit keeps it: EncodeRecord's output is compact
		if err := json.Compact(&compact, []byte(data)); err != nil {
			return
		}
		r.Event.Data = compact.Bytes()
		b, err := r.encode()
		if err != nil {
			return // a year outside 0..9999
		}
		plain := func(s string) bool { q, _ := json.Marshal(s); return string(q) == `"`+s+`"` }
		if _, ok := decodeOutboxInPlace(b); !ok && plain(id) && plain(typ) && plain(lastError) && plain(trace) {
			t.Fatalf("decodeOutbox fell back to json.Unmarshal on %q", b)
		}
		for _, raw := range [][]byte{b, []byte(id + data + lastError)} {
			var want outboxRecord
			wantErr := json.Unmarshal(raw, &want)
			got, gotErr := decodeOutbox(raw)
			if (gotErr != nil) != (wantErr != nil) {
				t.Fatalf("decodeOutbox(%q) error %v, json.Unmarshal %v", raw, gotErr, wantErr)
			}
			if wantErr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("decodeOutbox(%q) =\n%+v, json.Unmarshal =\n%+v", raw, got, want)
			}
		}
	})
}
