package ixkey_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"

	"github.com/paygrid/payments/internal/ixkey"
)

// FuzzTimeKey: a time key splits back into its sort key and id, its sort
// key parses back to the millisecond, and keys order by time first.
func FuzzTimeKey(f *testing.F) {
	f.Add(int64(0), int64(1), "Webhook:a")
	f.Add(int64(-5), int64(5), "x|y")
	f.Fuzz(func(t *testing.T, a, b int64, id string) {
		ta, tb := time.UnixMilli(a%(1<<50)).UTC(), time.UnixMilli(b%(1<<50)).UTC()
		k := ixkey.TimeKey(ta, id)
		at, got, ok := ixkey.SplitTimeKey(k)
		if !ok || got != id || at != ixkey.SortKey(ta) || !ixkey.ParseSortKey(at).Equal(ta) {
			t.Fatalf("%q: %q %q %v", k, at, got, ok)
		}
		if ta.Before(tb) && !(ixkey.TimeKey(ta, id) < ixkey.TimeKey(tb, "")) {
			t.Fatalf("%v before %v, keys out of order", ta, tb)
		}
	})
}

// TestIDFloor: every version-7 id made at or after t sorts at or above
// the floor of t, every one made before it below; other ids are not
// ordered ones.
func TestIDFloor(t *testing.T) {
	now := time.Now()
	id, err := uuid.NewV7()
	assert.NoError(t, err)
	k := "Webhook:" + id.String()
	assert.True(t, ixkey.OrderedID("Webhook:", k))
	assert.LessOrEqual(t, ixkey.IDFloor("Webhook:", now), k)
	assert.Greater(t, ixkey.IDFloor("Webhook:", now.Add(time.Second)), k)
	assert.False(t, ixkey.OrderedID("Webhook:", "Webhook:"+uuid.New().String()), "a random (version 4) id")
	assert.False(t, ixkey.OrderedID("Webhook:", "Other:"+id.String()))
	assert.True(t, ixkey.ParseSortKey("zz").IsZero())
}
