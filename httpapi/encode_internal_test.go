package httpapi

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/paygrid/payments"
)

// TestEncodeJSONWritesWhatTheEncoderWrites: values that encode themselves
// skip encoding/json's pass over their output, so the bytes must be the ones
// the encoder (no HTML escaping) would have written, nil pointers included.
func TestEncodeJSONWritesWhatTheEncoderWrites(t *testing.T) {
	at := time.Date(2026, 11, 24, 9, 30, 0, 123000000, time.UTC)
	q := payments.Quote{ID: "Quote:1", Status: payments.QuoteProcessing, CreatedAt: at, ExpiresAt: at.Add(time.Minute),
		PurposeOfPayment: `<b>"rent" & more</b> \ é`, TransactionID: "Transaction:1"}
	tx := payments.Transaction{ID: "Transaction:1", Status: payments.TxCompleted, CreatedAt: at, Description: "a <script>"}
	var nilQuote *payments.Quote
	for name, v := range map[string]any{
		"quote": q, "*quote": &q, "nil *quote": nilQuote,
		"transaction": tx, "*transaction": &tx,
		"map": map[string]any{"html": "<&>"},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := encodeJSON(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want.Bytes())
		}
	}
}
