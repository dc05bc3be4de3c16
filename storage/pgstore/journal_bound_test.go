package pgstore

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/google/uuid"
)

// TestUUIDBound: for bounds of every kind (ids of the engine's form, their
// prefixes, ids with a character changed, added or cut, texts of other
// forms), every id of the engine's form on a side of the bound has a UUID
// within uuidBound's, and uuidBound finds none only where there is none;
// an id of the form bounds at its own UUID.
func TestUUIDBound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var ids []string
	for range 200 {
		var u uuid.UUID
		for i := range u {
			u[i] = byte(r.IntN(4) * 85) // few digits: many shared prefixes
		}
		ids = append(ids, entryIDPrefix+u.String())
	}
	ids = append(ids, entryIDPrefix+"00000000-0000-0000-0000-000000000000", entryIDPrefix+"ffffffff-ffff-ffff-ffff-ffffffffffff")
	chars := []byte("0159aefg-:;LE{~ ")
	bounds := []string{"", "A", "Ledger", "LedgerEntry", "LedgerEntry:", "LedgerEntry;", "ledgerentry", "~"}
	for range 3000 {
		b := []byte(ids[r.IntN(len(ids))])
		switch r.IntN(4) {
		case 0:
			b = b[:r.IntN(len(b))]
		case 1:
			b[r.IntN(len(b))] = chars[r.IntN(len(chars))]
		case 2:
			b = append(b, chars[r.IntN(len(chars))])
		}
		bounds = append(bounds, string(b))
	}
	for _, id := range ids {
		// An id bounds at its own UUID: the range is read from it.
		for _, lower := range []bool{true, false} {
			if u, ok := uuidBound(id, lower); !ok || u != entryUUID([]byte(id)) {
				t.Fatalf("bound %q (lower %v): %x, %v", id, lower, u, ok)
			}
		}
	}
	for _, v := range bounds {
		for _, lower := range []bool{true, false} {
			u, ok := uuidBound(v, lower)
			for _, id := range ids {
				if lower && id < v || !lower && id > v {
					continue
				}
				require := func(cond bool) {
					t.Helper()
					if !cond {
						t.Fatalf("bound %q (lower %v): %x, %v; id %s", v, lower, u, ok, id)
					}
				}
				require(ok)
				got := entryUUID([]byte(id))
				if lower {
					require(bytes.Compare(got[:], u[:]) >= 0)
				} else {
					require(bytes.Compare(got[:], u[:]) <= 0)
				}
			}
		}
	}
}
