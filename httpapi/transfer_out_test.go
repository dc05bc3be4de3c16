package httpapi_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// payoutCase is one sandbox destination suffix: the transaction's status
// right after the request, its final status, failure and refund reasons
// and its OUTGOING_PAYMENT.* events.
type payoutCase struct {
	suffix               string
	first, final, reason string
	refund               string
	events               []string
}

var refunded = []string{"PENDING", "PROCESSING", "FAILED", "REFUND_PENDING", "REFUND_COMPLETED"}

// settleAndCheck advances the clock past the transfer timeout when the
// payment is still processing, then asserts the outcome, the events, the
// source balance and the ledger.
func (s *server) settleAndCheck(t *testing.T, tc payoutCase, txID, acct string, funded, amount int64) {
	t.Helper()
	tx := s.do("GET", "/transactions/"+txID, nil)
	require.Equal(t, 200, tx.Status, "%s", tx.Raw)
	assert.Equal(t, tc.first, tx.Body["status"])
	if tc.first == "PROCESSING" {
		s.clock.Advance(sandbox.TransferTimeout - 1e9)
		_, err := s.eng.ProcessDue(ctx)
		require.NoError(t, err)
		assert.Equal(t, "PROCESSING", s.do("GET", "/transactions/"+txID, nil).Body["status"], "not before the timeout")
		s.clock.Advance(1e9)
		_, err = s.eng.ProcessDue(ctx)
		require.NoError(t, err)
		tx = s.do("GET", "/transactions/"+txID, nil)
	}
	assert.Equal(t, tc.final, tx.Body["status"])
	if tc.reason != "" {
		assert.Equal(t, tc.reason, tx.Body["failureReason"])
		refund, _ := tx.Body["refund"].(map[string]any)
		require.NotNil(t, refund, "%s", tx.Raw)
		assert.Equal(t, tc.refund, refund["reason"])
		assert.Equal(t, "COMPLETED", refund["status"])
	}
	var want []string
	for _, e := range tc.events {
		want = append(want, "OUTGOING_PAYMENT."+e)
	}
	assert.Equal(t, want, s.eventsOf(txID))
	bal, total := s.usdBalance(acct)
	if tc.final == "COMPLETED" {
		assert.EqualValues(t, funded-amount, bal)
	} else {
		assert.EqualValues(t, funded, bal, "refunded")
	}
	assert.Equal(t, bal, total, "nothing left held")
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

// TestTransferOut_SandboxSuffixes: POST /transfer-out is steered by the
// transfer suffixes of sandbox.Rail, not by the quote table.
func TestTransferOut_SandboxSuffixes(t *testing.T) {
	for _, tc := range []payoutCase{
		{"001", "COMPLETED", "COMPLETED", "", "", []string{"PENDING", "PROCESSING", "COMPLETED"}},
		{"002", "FAILED", "FAILED", "ACCOUNT_CANNOT_RECEIVE", "TRANSACTION_FAILED", refunded},
		{"003", "FAILED", "FAILED", "ACCOUNT_INVALID", "TRANSACTION_FAILED", refunded},
		{"004", "FAILED", "FAILED", "PAYOUT_RETURNED", "TRANSACTION_FAILED", refunded},
		{"005", "PROCESSING", "FAILED", "QUOTE_EXECUTION_FAILED", "TIMEOUT", refunded},
		{"006", "COMPLETED", "COMPLETED", "", "", []string{"PENDING", "PROCESSING", "COMPLETED"}},
	} {
		t.Run(tc.suffix, func(t *testing.T) {
			s := moneyServer(t)
			id, acct := s.funded(5000)
			dest := s.do("POST", "/customers/external-accounts", usdAccount(id, "444555"+tc.suffix))
			require.Equal(t, 201, dest.Status, "%s", dest.Raw)
			out := s.do("POST", "/transfer-out", map[string]any{"source": map[string]any{"accountId": acct},
				"destination": map[string]any{"accountId": dest.Body["id"]}, "amount": 1000})
			require.Equal(t, 201, out.Status, "%s", out.Raw)
			s.settleAndCheck(t, tc, out.Body["id"].(string), acct, 5000, 1000)
		})
	}
}

// TestQuotes_WalletSuffixes: crypto wallet destinations of quotes take the
// transfer table's 003 (wallet unavailable) and 005 (times out) rows; their
// other suffixes keep the quote table.
func TestQuotes_WalletSuffixes(t *testing.T) {
	for _, tc := range []payoutCase{
		{"001", "COMPLETED", "COMPLETED", "", "", []string{"PENDING", "PROCESSING", "COMPLETED"}},
		{"002", "FAILED", "FAILED", "QUOTE_EXECUTION_FAILED", "TRANSACTION_FAILED", refunded},
		{"003", "FAILED", "FAILED", "ACCOUNT_INVALID", "TRANSACTION_FAILED", refunded},
		{"005", "PROCESSING", "FAILED", "QUOTE_EXECUTION_FAILED", "TIMEOUT", refunded},
	} {
		t.Run(tc.suffix, func(t *testing.T) {
			s := moneyServer(t)
			id, acct := s.funded(5000)
			w := s.do("POST", "/customers/external-accounts", map[string]any{"customerId": id, "currency": "USDC",
				"accountInfo": map[string]any{"accountType": "BASE_WALLET", "address": "0x52908400098527886e0f7030069857d2e4169" + tc.suffix}})
			require.Equal(t, 201, w.Status, "%s", w.Raw)
			body := quoteBody(acct, w.Body["id"].(string), 1000)
			body["immediatelyExecute"] = true
			q := s.do("POST", "/quotes", body)
			require.Equal(t, 201, q.Status, "%s", q.Raw)
			s.settleAndCheck(t, tc, q.Body["transactionId"].(string), acct, 5000, 1000)
		})
	}
}
