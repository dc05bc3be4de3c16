package httpapi_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// railBalance is the sandbox rail's ledger balance in currency: what the
// platform has collected from (negative) or paid out to the world.
func (s *server) railBalance(currency string) int64 {
	s.t.Helper()
	var n int64
	require.NoError(s.t, s.store.View(ctx, func(tx payments.Tx) error {
		var err error
		n, err = payments.Balance(tx, "external:rail:sandbox", currency)
		return err
	}))
	return n
}

// pullAccount registers a USD bank account (ACH pullable) whose account
// number ends in suffix.
func (s *server) pullAccount(customerID, suffix string) string {
	s.t.Helper()
	r := s.do("POST", "/customers/external-accounts", usdAccount(customerID, "777888"+suffix))
	require.Equal(s.t, 201, r.Status, "%s", r.Raw)
	return r.Body["id"].(string)
}

// TestQuotes_DirectPullSource: a quote funded by an ACH pull from the
// customer's US bank account, steered by the source's sandbox suffix
// (003 and 005 fail like 002, and TestSandboxScenarios_UMAAndPulls
// covers every pull suffix), with the destination's suffix applied afterwards.
func TestQuotes_DirectPullSource(t *testing.T) {
	for _, tc := range []struct {
		name, source, dest string
		status, reason     string
		events             []string
		collected          bool // the rail ends owed the sending total
	}{
		{"collected and paid", "001", "000", "COMPLETED", "", []string{"PENDING", "PROCESSING", "COMPLETED"}, true},
		{"002 pull refused", "002", "000", "FAILED", "QUOTE_EXECUTION_FAILED", []string{"PENDING", "FAILED"}, false},
		{"004 rejected by the bank", "004", "000", "FAILED", "COMPLIANCE_REJECTED", []string{"PENDING", "FAILED"}, false},
		{"009 collected then returned", "009", "000", "FAILED", "QUOTE_EXECUTION_FAILED", []string{"PENDING", "PROCESSING", "FAILED"}, false},
		{"payout 002 refunded to the pulled account", "001", "002", "FAILED", "QUOTE_EXECUTION_FAILED",
			[]string{"PENDING", "PROCESSING", "FAILED", "REFUND_PENDING", "REFUND_COMPLETED"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := moneyServer(t)
			id, acct := s.funded(0)
			src, dest := s.pullAccount(id, tc.source), s.eurAccount(id, deIBAN(tc.dest))
			body := quoteBody(src, dest, 50000)
			body["immediatelyExecute"] = true
			q := s.do("POST", "/quotes", body)
			require.Equal(t, 201, q.Status, "%s", q.Raw)
			assert.Nil(t, q.Body["paymentInstructions"], "a pulled quote needs no instructions")
			txID := q.Body["transactionId"].(string)
			tx := s.do("GET", "/transactions/"+txID, nil)
			require.Equal(t, 200, tx.Status, "%s", tx.Raw)
			assert.Equal(t, tc.status, tx.Body["status"])
			assert.Equal(t, src, tx.Body["source"].(map[string]any)["accountId"])
			if tc.reason != "" {
				assert.Equal(t, tc.reason, tx.Body["failureReason"])
			}
			var want []string
			for _, e := range tc.events {
				want = append(want, "OUTGOING_PAYMENT."+e)
			}
			assert.Equal(t, want, s.eventsOf(txID))
			// The pull never touches the customer's internal account.
			bal, total := s.usdBalance(acct)
			assert.Zero(t, bal)
			assert.Zero(t, total)
			if tc.collected {
				assert.EqualValues(t, -50000, s.railBalance("USD"))
			} else {
				assert.Zero(t, s.railBalance("USD"), "an uncollected or refunded pull nets to zero")
			}
			require.NoError(t, payments.CheckLedger(ctx, s.store))
		})
	}

	t.Run("execute later into the customer's own internal account", func(t *testing.T) {
		s := moneyServer(t)
		id, acct := s.funded(0)
		q := s.do("POST", "/quotes", quoteBody(s.pullAccount(id, "001"), acct, 25000))
		require.Equal(t, 201, q.Status, "%s", q.Raw)
		assert.Equal(t, "PENDING", q.Body["status"])
		x := s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil)
		require.Equal(t, 200, x.Status, "%s", x.Raw)
		assert.Equal(t, "PROCESSING", x.Body["status"], "pulling")
		assert.Equal(t, "COMPLETED", s.do("GET", "/quotes/"+q.Body["id"].(string), nil).Body["status"])
		requireError(t, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil), 409, payments.CodeConflict)
		bal, _ := s.usdBalance(acct)
		assert.Equal(t, x.Body["totalReceivingAmount"], bal)
		assert.Positive(t, bal)
		require.NoError(t, payments.CheckLedger(ctx, s.store))
	})

	t.Run("Errors", func(t *testing.T) {
		s := moneyServer(t)
		id, acct := s.funded(0)
		eur := s.eurAccount(id, deIBAN("000"))
		requireError(t, s.do("POST", "/quotes", quoteBody(eur, acct, 1000)), 400, payments.CodeInvalidInput, "source.accountId")
		requireError(t, s.do("POST", "/quotes", quoteBody(id, acct, 1000)), 400, payments.CodeInvalidInput, "source.accountId")
		usd := s.pullAccount(id, "001")
		requireError(t, s.do("POST", "/quotes", quoteBody(usd, usd, 1000)), 400, payments.CodeSelfPayment)
		requireError(t, s.do("POST", "/quotes", quoteBody("ExternalAccount:0198c6a4-0000-7000-8000-000000000000", acct, 1000)), 404, payments.CodeAccountNotFound)
		requireError(t, s.do("POST", "/quotes", quoteBody(s.pullAccount(id, "108"), acct, 1000)), 409, payments.CodeBankAccountValidationPending)
	})
}
