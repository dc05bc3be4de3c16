package httpapi_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuotes_SCAChallengeLapses: a quote whose SCA challenge is never
// satisfied fails with SCA_NOT_COMPLETED, and the challenge
// never outlives the quote's rate. Authorizing it afterwards answers
// SCA_SESSION_REQUIRED every time, whether or not due work ran first.
func TestQuotes_SCAChallengeLapses(t *testing.T) {
	for _, via := range []string{"ProcessDue", "authorize"} {
		t.Run(via, func(t *testing.T) {
			s := moneyServer(t)
			eu := s.customer(set("region", "DE"), set("currencies", []string{"USD", "EUR"}))
			q := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "REALTIME_FUNDING", "currency": "USD", "customerId": eu},
				"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": s.eurAccount(eu, "DE89370400440532013000")},
				"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 2000})
			require.Equal(t, 202, q.Status, "%s", q.Raw)
			qid, txID := q.Body["id"].(string), q.Body["transactionId"].(string)
			expires, err := time.Parse(time.RFC3339, q.Body["expiresAt"].(string))
			require.NoError(t, err)
			challenge, err := time.Parse(time.RFC3339, q.Body["scaChallenge"].(map[string]any)["expiresAt"].(string))
			require.NoError(t, err)
			assert.False(t, challenge.After(expires), "challenge %s outlives the quote %s", challenge, expires)

			s.clock.Advance(expires.Sub(s.clock.Now()) + time.Second)
			got := s.do("GET", "/quotes/"+qid, nil)
			assert.Equal(t, "FAILED", got.Body["status"])
			assert.Nil(t, got.Body["scaChallenge"])
			// The engine's own worker may fail the quote at any moment now;
			// the answers below must not depend on whether it did.
			if via == "ProcessDue" {
				_, err = s.eng.ProcessDue(ctx)
				require.NoError(t, err)
			}
			requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeScaSessionRequired)
			tx := s.do("GET", "/transactions/"+txID, nil)
			assert.Equal(t, "FAILED", tx.Body["status"])
			assert.Equal(t, "SCA_NOT_COMPLETED", tx.Body["failureReason"])
			assert.Equal(t, "FAILED", s.do("GET", "/quotes/"+qid, nil).Body["status"])
			assert.Equal(t, []string{"OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PENDING_AUTHORIZATION", "OUTGOING_PAYMENT.FAILED"}, s.eventsOf(txID))
			requireError(t, s.do("POST", "/quotes/"+qid+"/authorize", map[string]any{"code": "123456"}), 409, payments.CodeScaSessionRequired)
			requireError(t, s.do("POST", "/sandbox/send", map[string]any{"quoteId": qid, "currencyCode": "USD"}), 400, payments.CodeQuoteExpired)
			require.NoError(t, payments.CheckLedger(ctx, s.store))
		})
	}
}
