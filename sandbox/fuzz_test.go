package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
)

// send sends method path with body as is and returns the status; an answer
// that takes more than 10 seconds fails t.
func send(t *testing.T, s *sandbox.Server, method, path string, body []byte) int {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	req.Header.Set("Content-Type", "application/json")
	res, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// FuzzImportState posts arbitrary state documents: each is refused with a
// 400 or imported with a balanced ledger, never a 5xx, and the lists still
// answer.
func FuzzImportState(f *testing.F) {
	src := sandbox.NewServer(f)
	busy(f, src)
	var doc json.RawMessage
	if err := src.Call("GET", "/sandbox/state", nil, &doc); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(doc))
	f.Add(bytes.Replace(doc, []byte(`"value":5000`), []byte(`"value":5001`), 1))
	f.Add([]byte(`{"format":"payments-sandbox-state/1","tables":{"platform":[{"key":"config","value":{}}]}}`))
	f.Add([]byte(`{"format":"payments-sandbox-state/1","tables":{"ledger_balances":[{"key":"x|USD","value":1}]}}`))
	s := sandbox.NewServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		switch status := send(t, s, "POST", "/sandbox/state", body); status {
		case 204:
			if err := payments.CheckLedger(t.Context(), s.Engine.Store()); err != nil {
				t.Fatalf("imported a ledger that does not balance: %v", err)
			}
			for _, path := range lists {
				if status := send(t, s, "GET", path, nil); status >= 500 {
					t.Fatalf("GET %s after an import: %d", path, status)
				}
			}
		case 400:
		default:
			t.Fatalf("import answered %d", status)
		}
	})
}
