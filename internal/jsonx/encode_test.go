package jsonx

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/paygrid/payments/internal/jsontest"
)

// FuzzAppendRaw holds AppendRaw, which copies JSON that json.Marshal would
// leave as it is (marshalsAsIs), to json.Marshal of a json.RawMessage.
func FuzzAppendRaw(f *testing.F) {
	for _, raw := range []string{`{"iban":"DE89 3704","beneficiary":{"fullName":"Perf Payee"}}`, `{"a": 1}`, `"a\"<b"`,
		"\"\u2028\"", "\"\xe2\x80\xa9\"", `["x",  "y"]`, `"\\"`, `{"&":true}`, "\"\x80\"", `null`, ``, ` 1 `} {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if raw != nil && !json.Valid(raw) {
			return // the encoders hand it valid JSON only
		}
		ours, err := AppendRaw([]byte("x"), raw)
		model, modelErr := json.Marshal(json.RawMessage(raw))
		if err == nil {
			ours = ours[1:]
		}
		jsontest.CheckSame(t, ours, err, model, modelErr)
	})
}

// TestAppendFloat holds AppendFloat to encoding/json at the edges of its
// two formats.
func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1e-6, 9.99999e-7, 1e20, 1e21, -1e21, 1.5e-9, 123456.789, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(-1)} {
		ours, err := AppendFloat(nil, f)
		model, modelErr := json.Marshal(f)
		jsontest.CheckSame(t, ours, err, model, modelErr)
	}
}

// FuzzAppendTime: AppendTime writes what encoding/json writes for a time,
// in UTC and in other zones.
func FuzzAppendTime(f *testing.F) {
	f.Add(int64(0), int64(0), 0)
	f.Add(int64(1760356800), int64(123456789), 0)
	f.Add(int64(1760356800), int64(120000000), 3600)
	f.Add(int64(-62135596800), int64(1), 0)
	f.Add(int64(253402300799), int64(999999999), -18000)
	f.Fuzz(func(t *testing.T, sec, nsec int64, off int) {
		tm := time.Unix(sec, nsec).UTC()
		if off != 0 {
			tm = tm.In(time.FixedZone("Z", off%(30*3600)))
		}
		want, werr := json.Marshal(tm)
		got, gerr := AppendTime([]byte("x"), tm)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("%v: error %v, encoding/json's %v", tm, gerr, werr)
		}
		if werr == nil && string(got) != "x"+string(want) {
			t.Fatalf("%v: %s, encoding/json writes %s", tm, got, want)
		}
	})
}
