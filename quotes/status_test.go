package quotes_test

import (
	"testing"

	"github.com/paygrid/payments/quotes"
	"github.com/stretchr/testify/assert"
)

// TestQuoteStateMachine checks every pair of quote states:
// waiting states go anywhere forward, PROCESSING only ends, a completed
// payment may still fail (a return), FAILED and EXPIRED are final.
func TestQuoteStateMachine(t *testing.T) {
	all := []quotes.Status{quotes.Pending, quotes.PendingAuthorization, quotes.Processing, quotes.Completed, quotes.Failed, quotes.Expired}
	allowed := map[[2]quotes.Status]bool{
		{quotes.Pending, quotes.PendingAuthorization}: true, {quotes.Pending, quotes.Processing}: true,
		{quotes.Pending, quotes.Completed}: true, {quotes.Pending, quotes.Failed}: true, {quotes.Pending, quotes.Expired}: true,
		{quotes.PendingAuthorization, quotes.Pending}: true, {quotes.PendingAuthorization, quotes.Processing}: true,
		{quotes.PendingAuthorization, quotes.Failed}: true, {quotes.PendingAuthorization, quotes.Expired}: true,
		{quotes.Processing, quotes.Completed}: true, {quotes.Processing, quotes.Failed}: true,
		{quotes.Completed, quotes.Failed}: true,
	}
	for _, from := range all {
		for _, to := range all {
			err := from.Check(to)
			if from == to || allowed[[2]quotes.Status{from, to}] {
				assert.NoError(t, err, "%s -> %s", from, to)
			} else {
				assert.Error(t, err, "%s -> %s", from, to)
			}
		}
	}
}

func TestTransactionStateMachine(t *testing.T) {
	for _, final := range []quotes.TxStatus{quotes.TxFailed, quotes.TxExpired, quotes.TxRejected} {
		for _, to := range []quotes.TxStatus{quotes.TxPending, quotes.TxProcessing, quotes.TxCompleted} {
			assert.Error(t, final.Check(to), "%s is final, not -> %s", final, to)
		}
	}
	assert.Error(t, quotes.TxProcessing.Check(quotes.TxPending), "no way back to waiting")
	assert.Error(t, quotes.TxCompleted.Check(quotes.TxProcessing))
	assert.NoError(t, quotes.TxCompleted.Check(quotes.TxFailed), "a returned payment fails after completing")
	assert.NoError(t, quotes.TxPendingAuthorization.Check(quotes.TxPending), "an authorized quote's payment waits for funds")
	assert.NoError(t, quotes.TxStatus("").Check(quotes.TxPending), "a new record has no state to leave")
}
