package sandbox_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/rails/railtest"
	"github.com/paygrid/payments/sandbox"
)

// usAccount is a US bank account whose number ends in suffix.
func usAccount(suffix string) *payments.ExternalAccount {
	info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "123456" + suffix, "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe"}})
	return &payments.ExternalAccount{ID: "ExternalAccount:" + suffix, Currency: "USD", AccountInfo: info}
}

// suffixes cycle the payments of the suite through the sandbox's outcomes.
var suffixes = []string{"000", "002", "003", "004", "005", "006", "007", "009"}

func TestRail_Conformance(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	railtest.Run(t, railtest.Harness{
		Rail: sandbox.Rail{},
		Payment: func(n int) payments.OutgoingPayment {
			return payments.OutgoingPayment{ID: fmt.Sprintf("send:Transaction:%d", n), TransactionID: fmt.Sprintf("Transaction:%d", n),
				Currency: "USD", Amount: 1000, Destination: usAccount(suffixes[n%len(suffixes)]), SubmittedAt: at}
		},
		Pull: func(n int) payments.PullRequest {
			return payments.PullRequest{ID: fmt.Sprintf("pull:Transaction:%d", n), TransactionID: fmt.Sprintf("Transaction:%d", n),
				Currency: "USD", Amount: 1000, From: usAccount(suffixes[n%len(suffixes)]), SubmittedAt: at}
		},
		Account: func() *payments.ExternalAccount { return usAccount("103") },
	})
}

// TestRail_ReportsLaterOutcomesWithTheirTime: outcomes that take effect
// later are announced at once with their instant on the engine clock,
// counted from the payment's submission, not from the hand-over.
func TestRail_ReportsLaterOutcomesWithTheirTime(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rec := railtest.NewRecorder()
	p := payments.OutgoingPayment{ID: "send:Transaction:5", Currency: "USD", Amount: 1, Destination: usAccount("005"), SubmittedAt: at}
	if err := (sandbox.Rail{}).Send(t.Context(), p, rec); err != nil {
		t.Fatal(err)
	}
	got := rec.Reports(p.ID)
	if len(got) != 2 || got[0].Outcome != payments.RailCompleted || !got[0].At.IsZero() ||
		got[1].Outcome != payments.RailReturned || !got[1].At.Equal(at.Add(sandbox.ReturnAfter)) || got[1].FailureReason != "PAYOUT_RETURNED" {
		t.Fatalf("005 reported %+v, want COMPLETED now and RETURNED (PAYOUT_RETURNED) at submission + %v", got, sandbox.ReturnAfter)
	}
}
