// Package jsontest holds the helpers of the tests that hold the engine's
// hand-written JSON encoders to encoding/json: values with every member
// set, times from fuzz input, and the comparison.
package jsontest

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/paygrid/payments/money"
	"github.com/shopspring/decimal"
)

// FuzzTime makes a time from fuzz input, in a fixed zone of off seconds.
func FuzzTime(sec int64, nsec int64, off int32) time.Time {
	return time.Unix(sec, nsec%1e9).In(time.FixedZone("", int(off)))
}

// CheckSame fails unless ours and model are the same bytes, or both errors.
func CheckSame(t testing.TB, ours []byte, oursErr error, model []byte, modelErr error) {
	t.Helper()
	if (oursErr != nil) != (modelErr != nil) {
		t.Fatalf("error %v, encoding/json's %v", oursErr, modelErr)
	}
	if modelErr == nil && !bytes.Equal(ours, model) {
		t.Fatalf("encoded\n%s\nencoding/json\n%s", ours, model)
	}
}

// Fill sets every field reachable from v that encoding/json encodes to a
// value derived from n that no omitempty drops, so that comparing with the
// model catches a member a hand-written encoder leaves out, including one
// added to the type later.
func Fill(v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(n) + 1)
	case reflect.Uint8:
		v.SetUint(uint64(n%200) + 1)
	case reflect.Float64:
		v.SetFloat(float64(n) + 0.25)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		Fill(v.Elem(), n+1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		Fill(v.Index(0), n+1)
		Fill(v.Index(1), n+2)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		Fill(k, n+1)
		Fill(e, n+2)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(fmt.Sprintf("i%d", n)))
	case reflect.Struct:
		switch v.Type() {
		case reflect.TypeFor[time.Time]():
			v.Set(reflect.ValueOf(time.Unix(1.7e9+int64(n), int64(n)*1001).UTC()))
			return
		case reflect.TypeFor[money.Rate]():
			v.Set(reflect.ValueOf(money.RateOf(decimal.New(int64(n)*17+3, -3))))
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				Fill(v.Field(i), n+i)
			}
		}
	}
}
