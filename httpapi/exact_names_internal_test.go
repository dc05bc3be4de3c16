package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/paygrid/payments"
)

// exactNameBodies seed FuzzExactNames: members with their case changed at
// every depth, escaped names, and bodies exactNames leaves alone.
var exactNameBodies = []string{
	`{"lockedCurrencyAmount":5,"LOCKEDCURRENCYAMOUNT":1000}`,
	`{"LOCKEDCURRENCYAMOUNT":1000,"lockedCurrencyAmount":5}`,
	`{"LOCKEDCURRENCYAMOUNT":1000}`,
	`{ "Source" : {"accountId":"a"} , "source":{"ACCOUNTID":"b","accountId":"c","accountid":"d"} }`,
	`{"lockedCurrency\u0041mount":5,"lockedCurrency\u0061mount":1000,"x":[{"A":1}]}`,
	`{"platformFeeOverride":{"platformFixedFee":{"AMOUNT":1,"amount":2},"PlatformVariableFeeBps":5}}`,
	`{"senderCustomerInfo":{"FULL_NAME":"Ann","full_name":"Bob"}}`,
	`{"fullName":"Jane","FULLNAME":"Mallory","address":{"LINE1":"x","line1":"y"},"agreementConsents":[{"TYPE":"a","type":"b"}]}`,
	`{"lockedcurrencyside":"SENDING"}`,
	`{}`, `[]`, `null`, `{"a":`,
}

// FuzzExactNames: what request.decode makes of a body is what encoding/json
// makes of it once every member whose name is not exactly a field's is
// taken out (a reference that knows nothing of case folding), for the
// quote and customer requests; and the quote fast path agrees with both.
func FuzzExactNames(f *testing.F) {
	for _, b := range exactNameBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if !json.Valid(body) {
			return
		}
		if fe, _ := bodyFindings(body, DefaultMaxStringLength); len(fe) > 0 { // refused before decoding: repeated members, bad UTF-8
			return
		}
		sameAsExact[payments.QuoteRequest](t, body)
		sameAsExact[payments.CustomerInput](t, body)
		if q, ok := decodeQuoteRequest(body); ok {
			var want payments.QuoteRequest
			if err := (&request{body: body}).decode(&want); err != nil || !reflect.DeepEqual(q, want) {
				t.Fatalf("%q: fast path %+v, decode %+v (%v)", body, q, want, err)
			}
		}
	})
}

// sameAsExact checks request.decode of body into a T against the reference.
func sameAsExact[T any](t *testing.T, body []byte) {
	t.Helper()
	var got T
	gotErr := (&request{body: body}).decode(&got)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return
	}
	exact, err := json.Marshal(onlyExact(reflect.TypeFor[T](), generic))
	if err != nil {
		t.Fatalf("%q: %v", body, err)
	}
	var want T
	dec = json.NewDecoder(bytes.NewReader(exact))
	dec.UseNumber()
	wantErr := dec.Decode(&want)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%q into %T: decode error %v, reference (%s) error %v", body, got, gotErr, exact, wantErr)
	}
	if gotErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q into %T: decode %+v, reference (%s) %+v", body, got, got, exact, want)
	}
}

// onlyExact is v (decoded into any) with the members of every object that
// decodes into a struct kept only where their name is exactly a field's.
func onlyExact(t reflect.Type, v any) any {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t == rawMessage || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, m := range x {
			switch t.Kind() {
			case reflect.Struct:
				if f, ok := jsonFields(t)[k]; ok {
					out[k] = onlyExact(f.Type, m)
				}
			case reflect.Map:
				out[k] = onlyExact(t.Elem(), m)
			default:
				out[k] = m
			}
		}
		return out
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return v
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = onlyExact(t.Elem(), e)
		}
		return out
	}
	return v
}
