package quotes_test

import (
	"encoding/json"
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVocabulary_WireValues: a request and a transaction decoded from the
// wire carry the typed values the engine compares with, and PaymentRails
// lists exactly the reference's rails, each a PaymentRail constant.
func TestVocabulary_WireValues(t *testing.T) {
	var req payments.QuoteRequest
	require.NoError(t, json.Unmarshal([]byte(`{"source":{"sourceType":"REALTIME_FUNDING","currency":"USD"},
		"destination":{"destinationType":"ACCOUNT","accountId":"ExternalAccount:x","paymentRail":"SEPA_INSTANT"},
		"lockedCurrencySide":"RECEIVING","lockedCurrencyAmount":100}`), &req))
	assert.Equal(t, payments.SourceRealtimeFunding, req.Source.SourceType)
	assert.Equal(t, payments.DestinationAccount, req.Destination.DestinationType)
	assert.Equal(t, payments.PaymentRailSEPAInstant, req.Destination.PaymentRail)
	assert.Equal(t, payments.LockedReceiving, req.LockedCurrencySide)

	var tx payments.Transaction
	require.NoError(t, json.Unmarshal([]byte(`{"id":"Transaction:1","status":"FAILED","type":"INCOMING","direction":"CREDIT",
		"source":{"sourceType":"UMA_ADDRESS","umaAddress":"$a@b.c"},"destination":{"destinationType":"UMA_ADDRESS","umaAddress":"$d@e.f"},
		"customerId":"Customer:1","platformCustomerId":"p","paymentRail":"PIX",
		"refund":{"reference":"Refund:1","initiatedAt":"2025-01-01T00:00:00Z","status":"PENDING"},
		"createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-01T00:00:00Z"}`), &tx))
	assert.Equal(t, payments.TxIncoming, tx.Type)
	assert.Equal(t, payments.TxCredit, tx.Direction)
	assert.Equal(t, payments.SourceUMAAddress, tx.Source.SourceType)
	assert.Equal(t, payments.DestinationUMAAddress, tx.Destination.DestinationType)
	assert.Equal(t, payments.PaymentRailPIX, tx.PaymentRail)
	assert.Equal(t, payments.RefundPending, tx.Refund.Status)

	fiat := []payments.PaymentRail{payments.PaymentRailACH, payments.PaymentRailACHColombia, payments.PaymentRailBankTransfer,
		payments.PaymentRailBreB, payments.PaymentRailCIPS, payments.PaymentRailFAST, payments.PaymentRailFasterPayments,
		payments.PaymentRailFedNow, payments.PaymentRailInstaPay, payments.PaymentRailMobileMoney, payments.PaymentRailNEFT,
		payments.PaymentRailPayNow, payments.PaymentRailPESONet, payments.PaymentRailPIX, payments.PaymentRailRTGS,
		payments.PaymentRailRTP, payments.PaymentRailSEPA, payments.PaymentRailSEPAInstant, payments.PaymentRailSPEI,
		payments.PaymentRailSWIFT, payments.PaymentRailUnionPay, payments.PaymentRailUPI, payments.PaymentRailWire}
	var names []string
	for _, r := range fiat {
		names = append(names, string(r))
	}
	assert.Equal(t, payments.PaymentRails, names)
}
