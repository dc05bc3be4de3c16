package httpapi_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuotes_ReturnReversesFees: the platform's fee is credited when a
// payout completes and taken back when the receiving bank returns it
// (suffix 005), so the sender gets every cent back and the
// platform keeps nothing; when the platform has spent the fee meanwhile,
// the sender is still refunded in full.
func TestQuotes_ReturnReversesFees(t *testing.T) {
	for _, tc := range []struct {
		name     string
		spendFee bool
	}{{"FeeReversed", false}, {"FeeAlreadySpent", true}} {
		t.Run(tc.name, func(t *testing.T) {
			s := moneyServer(t)
			require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"feeConfigs": []any{map[string]any{"feeType": "CROSS_CURRENCY_TRANSACTION",
				"sourceCurrency": "USD", "variableFeeBps": 30, "fixedFee": map[string]any{"amount": 50, "currency": "USD"}}}}).Status)
			platform := s.do("GET", "/platform/internal-accounts?currency=USD", nil).Body["data"].([]any)[0].(map[string]any)["id"].(string)
			id, acct := s.funded(10_000)
			q := s.do("POST", "/quotes", quoteBody(acct, s.eurAccount(id, deIBAN("005")), 10_000))
			require.Equal(t, 201, q.Status, "%s", q.Raw)
			pf := q.Body["platformFeesIncluded"].(float64)
			assert.Equal(t, 80.0, pf, "50 fixed + 30 bps of 9950, rounded")
			require.Equal(t, 200, s.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil).Status)

			fee, _ := s.usdBalance(platform)
			assert.Equal(t, pf, fee, "credited at completion")
			if tc.spendFee {
				out := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": platform, "customerId": id},
					"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": s.eurAccount(id, deIBAN("000"))},
					"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": int64(pf), "immediatelyExecute": true,
					"platformFeeOverride": map[string]any{"platformFixedFee": map[string]any{"amount": 0, "currency": "USD"}, "platformVariableFeeBps": 0}})
				require.Equal(t, 201, out.Status, "%s", out.Raw)
			}

			s.clock.Advance(sandbox.ReturnAfter)
			_, err := s.eng.ProcessDue(ctx)
			require.NoError(t, err)
			tx := s.do("GET", "/transactions/"+q.Body["transactionId"].(string), nil)
			assert.Equal(t, "FAILED", tx.Body["status"])
			assert.Equal(t, "PAYOUT_RETURNED", tx.Body["failureReason"])
			bal, _ := s.usdBalance(acct)
			assert.Equal(t, 10_000.0, bal, "the sender gets the whole sending amount back")
			fee, _ = s.usdBalance(platform)
			if tc.spendFee {
				assert.Equal(t, -pf, fee, "the platform spent its fee: the shortfall is its own, a negative balance")
			} else {
				assert.Zero(t, fee, "the fee is reversed")
			}
			require.NoError(t, payments.CheckLedger(ctx, s.store))
		})
	}
}
