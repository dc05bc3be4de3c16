package httpapi_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIncomingPayments_SandboxSenders: the UMA test addresses steer an
// incoming payment too: success lands at once,
// $pending.long stays PENDING for six minutes, $fail.compliance fails.
func TestIncomingPayments_SandboxSenders(t *testing.T) {
	for _, tc := range []struct {
		sender, first, final, reason string
		credited                     bool
		events                       []string
	}{
		{sandbox.UMASuccessUSD, "COMPLETED", "COMPLETED", "", true, []string{"PENDING", "COMPLETED"}},
		{sandbox.UMAPendingLongUSD, "PENDING", "COMPLETED", "", true, []string{"PENDING", "COMPLETED"}},
		{sandbox.UMAFailComplianceUS, "FAILED", "FAILED", "COMPLIANCE_REJECTED", false, []string{"PENDING", "FAILED"}},
	} {
		t.Run(tc.sender, func(t *testing.T) {
			s := moneyServer(t)
			_, acct := s.funded(0, set("umaAddress", "$jane@sandbox.uma.money"))
			r := s.do("POST", "/sandbox/uma/receive", map[string]any{"senderUmaAddress": tc.sender, "receiverUmaAddress": "$jane@sandbox.uma.money",
				"receivingCurrencyCode": "USD", "receivingCurrencyAmount": 2500})
			require.Equal(t, 200, r.Status, "%s", r.Raw)
			assert.Equal(t, tc.first, r.Body["status"])
			id := r.Body["id"].(string)
			if tc.first == "PENDING" {
				s.clock.Advance(payments.SandboxSlowIncoming - 1e9)
				_, err := s.eng.ProcessDue(ctx)
				require.NoError(t, err)
				assert.Equal(t, "PENDING", s.do("GET", "/transactions/"+id, nil).Body["status"], "not before six minutes")
				bal, _ := s.usdBalance(acct)
				assert.Zero(t, bal)
				s.clock.Advance(1e9)
				_, err = s.eng.ProcessDue(ctx)
				require.NoError(t, err)
			}
			tx := s.do("GET", "/transactions/"+id, nil)
			assert.Equal(t, tc.final, tx.Body["status"])
			if tc.reason != "" {
				assert.Equal(t, tc.reason, tx.Body["failureReason"])
			}
			var want []string
			for _, e := range tc.events {
				want = append(want, "INCOMING_PAYMENT."+e)
			}
			assert.Equal(t, want, s.eventsOf(id))
			bal, _ := s.usdBalance(acct)
			if tc.credited {
				assert.Equal(t, 2500.0, bal)
			} else {
				assert.Zero(t, bal)
			}
			require.NoError(t, payments.CheckLedger(ctx, s.store))
		})
	}
}
