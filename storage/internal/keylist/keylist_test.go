package keylist

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKeyList checks the chunked key list against a sorted slice through
// random inserts, adds and removes that split and empty many chunks, and
// keys above every other (appends).
func TestKeyList(t *testing.T) {
	var l List
	set := map[string]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 20000 {
		k := fmt.Sprintf("k%05d", r.IntN(5000))
		if n%5 == 4 {
			k = fmt.Sprintf("z%05d", n) // above every key: the append path
		}
		if l.Has(k) != set[k] {
			t.Fatalf("Has(%s) = %v, want %v", k, !set[k], set[k])
		}
		if above := l.Above(k); (above && set[k]) || (!above && n%5 == 4) {
			t.Fatalf("Above(%s) = %v with the key present: %v", k, above, set[k])
		}
		switch {
		case n%3 == 0:
			if l.Remove(k) != set[k] {
				t.Fatalf("Remove(%s) reported %v, want %v", k, !set[k], set[k])
			}
			delete(set, k)
		case n%3 == 1:
			if l.Add(k) == set[k] {
				t.Fatalf("Add(%s) reported %v with the key present: %v", k, !set[k], set[k])
			}
			set[k] = true
		case !set[k]:
			l.Insert(k)
			set[k] = true
		}
	}
	var want []string
	for k := range set {
		want = append(want, k)
	}
	slices.Sort(want)
	if got := l.Ascend(nil, "", false, len(want)+1); !slices.Equal(got, want) || l.Len() != len(want) {
		t.Fatalf("ascend: %d keys (n=%d), want %d", len(got), l.n, len(want))
	}
	rev := slices.Clone(want)
	slices.Reverse(rev)
	if got := l.Descend(nil, "", len(want)+1); !slices.Equal(got, rev) {
		t.Fatalf("descend: %d keys, want %d", len(got), len(rev))
	}
	mid := want[len(want)/2]
	if got := l.Ascend(nil, mid, true, 3); !slices.Equal(got, want[len(want)/2+1:len(want)/2+4]) {
		t.Fatalf("ascend after %s: %v", mid, got)
	}
	if got := l.Descend(nil, mid, 3); !slices.Equal(got, rev[len(rev)-len(want)/2:len(rev)-len(want)/2+3]) {
		t.Fatalf("descend before %s: %v", mid, got)
	}
}
