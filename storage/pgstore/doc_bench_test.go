package pgstore

import (
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments/quotes"
)

// BenchmarkColumnArgs: the rows' arguments of one transaction, as a
// commit makes them (its columns and its doc).
func BenchmarkColumnArgs(b *testing.B) {
	sh, v := benchTransaction(b)
	keys, values := []string{"t"}, [][]byte{v}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := columnArgs(sh, keys, values, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// benchTransaction returns the table of the transactions as the quotes
// area declares it, and a transaction the engine wrote.
func benchTransaction(b *testing.B) (*shape, []byte) {
	l, err := newLayout(quotes.Area(nil, quotes.Options{}).Tables)
	if err != nil {
		b.Fatal(err)
	}
	v, err := os.ReadFile("testdata/transaction.json")
	if err != nil {
		b.Fatal(err)
	}
	return l.shapes["transactions"], v
}

// BenchmarkRecord: one transaction spelled back from its row (its doc and
// its stripped columns), as every read of it does.
func BenchmarkRecord(b *testing.B) {
	sh, v := benchTransaction(b)
	row := make([]pgtype.Text, len(sh.cols))
	spans := make([]span, len(sh.cols))
	if err := extract(v, sh.paths, sh.absent, row, spans); err != nil {
		b.Fatal(err)
	}
	doc := sh.appendDoc(nil, v, row, spans, &docBuf{})
	vals := make([]pgtype.Text, len(sh.strip))
	for j, i := range sh.strip {
		vals[j] = pgText(sh.cols[i].typ, row[i])
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := sh.record(doc, vals)
		if err != nil || string(got) != string(v) {
			b.Fatalf("%s, %v", got, err)
		}
	}
}
