package pgstore

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/paygrid/payments/quotes"
)

// BenchmarkColumnArgs: the rows' arguments of one transaction, as a
// commit makes them (its columns and its doc).
func BenchmarkColumnArgs(b *testing.B) {
	sh, v := benchTransaction(b)
	keys, values := []string{benchKey}, [][]byte{v}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := columnArgs(sh, keys, values, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// benchUSD is the currency object of testdata/transaction.json.
const benchUSD = `{"code":"USD","name":"United States Dollar","symbol":"$","decimals":2}`

// benchKey is the key of testdata/transaction.json.
const benchKey = "Transaction:01a22557-25bb-7f16-8972-0bcac7185800"

// benchTransaction returns the table of the transactions as the quotes
// area declares it, its columns numbered as a table created for it
// numbers them and its currency objects of USD kept, and a transaction the
// engine wrote.
func benchTransaction(b *testing.B) (*shape, []byte) {
	l, err := newLayout(quotes.Area(nil, quotes.Options{}).Tables)
	if err != nil {
		b.Fatal(err)
	}
	v, err := os.ReadFile("testdata/transaction.json")
	if err != nil {
		b.Fatal(err)
	}
	sh := l.shapes["transactions"]
	sh.kept = &keptObjects{known: map[objectKey]string{
		{"transactions", "sent_currency", "USD"}:     benchUSD,
		{"transactions", "received_currency", "USD"}: benchUSD,
	}}
	sh.setCodes(func(name string) int {
		if name == "id" {
			return 1
		}
		return slices.IndexFunc(sh.cols, func(c column) bool { return c.name == name }) + 2
	})
	return sh, v
}

// BenchmarkRecord: one transaction spelled back from its row (its doc and
// its stripped columns), as every read of it does.
func BenchmarkRecord(b *testing.B) {
	sh, v := benchTransaction(b)
	row := make([]pgtype.Text, len(sh.cols))
	spans := make([]span, 2*len(sh.cols))
	if err := extract(v, sh.paths, sh.absent, row, spans); err != nil {
		b.Fatal(err)
	}
	doc := sh.appendDoc(nil, benchKey, v, row, spans, &docBuf{})
	vals := make([]pgtype.Text, sh.nvals())
	for j, i := range sh.strip {
		vals[j] = pgText(sh.cols[i].typ, row[i])
	}
	vals[len(sh.strip)] = pgtype.Text{String: benchKey, Valid: true}
	for _, k := range sh.objVals {
		if k >= 0 {
			vals[k] = pgtype.Text{String: benchUSD, Valid: true}
		}
	}
	if !strings.Contains(string(doc), `"sentAmount":{}`) {
		b.Fatalf("the currency objects are in doc: %s", doc)
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := sh.record(doc, vals)
		if err != nil || string(got) != string(v) {
			b.Fatalf("%s, %v", got, err)
		}
	}
}
