package keylist

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
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
		t.Fatalf("ascend: %d keys (n=%d), want %d", len(got), l.Len(), len(want))
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

// TestSorted checks the values of a Sorted against a map through random
// sets, adds, removes and appends, and its ordered reads against the map's
// sorted keys.
func TestSorted(t *testing.T) {
	var l Sorted[int]
	m := map[string]int{}
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 30000 {
		k := fmt.Sprintf("k%05d", r.IntN(6000))
		if n%4 == 3 {
			k = fmt.Sprintf("z%05d", n) // above every key: the append path
			if !l.Above(k) {
				t.Fatalf("Above(%s) = false", k)
			}
		}
		want, had := m[k]
		if got, ok := l.Get(k); ok != had || got != want {
			t.Fatalf("Get(%s) = %d, %v, want %d, %v", k, got, ok, want, had)
		}
		switch n % 3 {
		case 0:
			prev, ok := l.Remove(k)
			if ok != had || prev != want {
				t.Fatalf("Remove(%s) = %d, %v, want %d, %v", k, prev, ok, want, had)
			}
			delete(m, k)
		case 1:
			if l.Add(k, n) == had {
				t.Fatalf("Add(%s) reported %v with the key present: %v", k, !had, had)
			}
			if !had {
				m[k] = n
			}
		default:
			prev, ok := l.Set(k, n)
			if ok != had || prev != want {
				t.Fatalf("Set(%s) = %d, %v, want %d, %v", k, prev, ok, want, had)
			}
			m[k] = n
		}
	}
	keys := slices.Sorted(maps.Keys(m))
	all := l.Ascend(nil, "", false, len(keys)+1)
	require.Len(t, all, len(keys))
	require.Equal(t, len(keys), l.Len())
	for i, e := range all {
		require.Equal(t, keys[i], e.Key)
		require.Equal(t, m[e.Key], e.Val)
	}
	mid := keys[len(keys)/2]
	desc := l.Descend(nil, mid, 5)
	for i, e := range desc {
		require.Equal(t, keys[len(keys)/2-1-i], e.Key)
	}
	asc := l.Ascend(nil, mid, true, 5)
	for i, e := range asc {
		require.Equal(t, keys[len(keys)/2+1+i], e.Key)
	}
}
