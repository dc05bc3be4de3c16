package ixkey_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments/internal/ixkey"
)

// FuzzSortKey checks SortKey and SortSuffix against the padded hex they
// replaced, and the index value's escape in place against EscapeValue.
func FuzzSortKey(f *testing.F) {
	f.Add(int64(0), "Transaction:1")
	f.Add(int64(-62135596800000), "")
	f.Add(int64(1795000000000), "x|y")
	f.Add(int64(1), "100%|%7C|")
	f.Fuzz(func(t *testing.T, ms int64, id string) {
		at := time.UnixMilli(ms)
		h := strconv.FormatUint(uint64(at.UnixMilli())^1<<63, 16)
		want := strings.Repeat("0", 16-len(h)) + h
		if got := ixkey.SortKey(at); got != want {
			t.Fatalf("SortKey(%d) = %q, want %q", ms, got, want)
		}
		if got := ixkey.SortSuffix(at, id); got != "|"+want+"|"+id {
			t.Fatalf("SortSuffix(%d, %q) = %q", ms, id, got)
		}
		if got := ixkey.Escaped(id); got != ixkey.EscapeValue(id) {
			t.Fatalf("Escaped(%q) = %q, want %q", id, got, ixkey.EscapeValue(id))
		}
		if strings.Contains(ixkey.EscapeValue(id), "|") {
			t.Fatalf("EscapeValue(%q) = %q keeps a '|'", id, ixkey.EscapeValue(id))
		}
	})
}
