package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
)

// TestSandboxSend_OnRampKeepsInstructions: an on-ramp (a real-time funded
// quote from USD to the customer's USDC account) paid with POST
// /sandbox/send completes with the instructions its payer was given on the
// transaction, in GET /transactions/{id} and in OUTGOING_PAYMENT.COMPLETED.
func TestSandboxSend_OnRampKeepsInstructions(t *testing.T) {
	s := moneyServer(t)
	id := s.customer(set("currencies", []string{"USD", "USDC"}))
	usdc := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USDC", nil).Body["data"].([]any)[0].(map[string]any)["id"].(string)
	q := s.do("POST", "/quotes", map[string]any{"source": map[string]any{"sourceType": "REALTIME_FUNDING", "currency": "USD", "customerId": id},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": usdc},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": 2000})
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	given := q.Body["paymentInstructions"].([]any)
	require.NotEmpty(t, given)
	sent := s.do("POST", "/sandbox/send", map[string]any{"quoteId": q.Body["id"], "currencyCode": "USD"})
	require.Equal(t, 200, sent.Status, "%s", sent.Raw)
	txID := sent.Body["id"].(string)
	tx := s.do("GET", "/transactions/"+txID, nil)
	require.Equal(t, "COMPLETED", tx.Body["status"], "%s", tx.Raw)
	assert.Equal(t, given, tx.Body["paymentInstructions"])
	ins := given[0].(map[string]any)
	assert.NotEmpty(t, ins["instructionsNotes"])
	assert.Equal(t, q.Body["id"], ins["accountOrWalletInfo"].(map[string]any)["reference"])

	require.Contains(t, s.eventsOf(txID), "OUTGOING_PAYMENT.COMPLETED")
	for _, ev := range s.events() {
		if ev.Type != "OUTGOING_PAYMENT.COMPLETED" {
			continue
		}
		x, err := payments.TransactionOf(ev)
		require.NoError(t, err)
		if x.ID == txID {
			require.Len(t, x.PaymentInstructions, 1)
			assert.Equal(t, ins["instructionsNotes"], x.PaymentInstructions[0].InstructionsNotes)
		}
	}

	// A quote paid from an account has none to keep.
	_, acct := s.funded(5000)
	dst := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USD", nil).Body["data"].([]any)[0].(map[string]any)["id"].(string)
	body := quoteBody(acct, dst, 100)
	body["immediatelyExecute"] = true
	p := s.do("POST", "/quotes", body)
	require.Equal(t, 201, p.Status, "%s", p.Raw)
	assert.Nil(t, s.do("GET", "/transactions/"+p.Body["transactionId"].(string), nil).Body["paymentInstructions"])
}

// TestQuotes_EmbeddedWalletInstructionsNotes: a quote funded from an
// embedded wallet tells its payer, in instructionsNotes, how to authorize
// it with payloadToSign.
func TestQuotes_EmbeddedWalletInstructionsNotes(t *testing.T) {
	s := moneyServer(t)
	cfg := s.do("GET", "/config", nil)
	currencies := append(cfg.Body["supportedCurrencies"].([]any), map[string]any{"currencyCode": "USDB", "minAmount": 1,
		"maxAmount": 1_000_000_000_000, "requiredCounterpartyFields": []any{}, "enabledTransactionTypes": []string{"INCOMING", "OUTGOING"}})
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"supportedCurrencies": currencies}).Status)
	id := s.customer()
	wallet := s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=USDB", nil).Body["data"].([]any)[0].(map[string]any)["id"].(string)
	require.Equal(t, 200, s.do("POST", "/sandbox/internal-accounts/"+wallet+"/fund", map[string]any{"amount": 50_000_000}).Status)
	bank := s.do("POST", "/customers/external-accounts", usdAccount(id, "123456789"))
	require.Equal(t, 201, bank.Status, "%s", bank.Raw)
	q := s.do("POST", "/quotes", quoteBody(wallet, bank.Body["id"].(string), 10_000_000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	ins := q.Body["paymentInstructions"].([]any)[0].(map[string]any)
	assert.Equal(t, "EMBEDDED_WALLET", ins["accountOrWalletInfo"].(map[string]any)["accountType"])
	notes, _ := ins["instructionsNotes"].(string)
	assert.True(t, strings.Contains(notes, "payloadToSign") && strings.Contains(notes, q.Body["id"].(string)), "instructionsNotes: %q", notes)
}
