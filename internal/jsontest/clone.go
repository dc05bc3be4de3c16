package jsontest

import (
	"reflect"
	"testing"
)

// CheckClone fails unless c equals orig and shares nothing with it (but
// the member named skip).
func CheckClone[T any](t testing.TB, orig, c *T, skip string) {
	t.Helper()
	if !reflect.DeepEqual(orig, c) {
		t.Fatalf("clone differs:\n%+v\n%+v", *orig, *c)
	}
	checkSharesNothing(t, reflect.TypeFor[T]().Name(), reflect.ValueOf(*orig), reflect.ValueOf(*c), skip)
}

// checkSharesNothing fails for every pointer, slice or map reachable from a
// through exported fields (but the one named skip) that b holds too.
func checkSharesNothing(t testing.TB, path string, a, b reflect.Value, skip string) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		if !a.IsNil() && a.UnsafePointer() == b.UnsafePointer() {
			t.Errorf("%s is shared", path)
		}
		if a.Kind() == reflect.Pointer && !a.IsNil() {
			checkSharesNothing(t, path, a.Elem(), b.Elem(), skip)
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() && f.Name != skip {
				checkSharesNothing(t, path+"."+f.Name, a.Field(i), b.Field(i), skip)
			}
		}
	}
}
