package records_test

import (
	"testing"

	"github.com/paygrid/payments/quotes/records"
	"github.com/stretchr/testify/assert"
)

// TestQuoteStateMachine checks every pair of quote states:
// waiting states go anywhere forward, PROCESSING only ends, a completed
// payment may still fail (a return), FAILED and EXPIRED are final.
func TestQuoteStateMachine(t *testing.T) {
	all := []records.Status{records.Pending, records.PendingAuthorization, records.Processing, records.Completed, records.Failed, records.Expired}
	allowed := map[[2]records.Status]bool{
		{records.Pending, records.PendingAuthorization}: true, {records.Pending, records.Processing}: true,
		{records.Pending, records.Completed}: true, {records.Pending, records.Failed}: true, {records.Pending, records.Expired}: true,
		{records.PendingAuthorization, records.Pending}: true, {records.PendingAuthorization, records.Processing}: true,
		{records.PendingAuthorization, records.Failed}: true, {records.PendingAuthorization, records.Expired}: true,
		{records.Processing, records.Completed}: true, {records.Processing, records.Failed}: true,
		{records.Completed, records.Failed}: true,
	}
	for _, from := range all {
		for _, to := range all {
			err := from.Check(to)
			if from == to || allowed[[2]records.Status{from, to}] {
				assert.NoError(t, err, "%s -> %s", from, to)
			} else {
				assert.Error(t, err, "%s -> %s", from, to)
			}
		}
	}
}

func TestTransactionStateMachine(t *testing.T) {
	for _, final := range []records.TxStatus{records.TxFailed, records.TxExpired, records.TxRejected} {
		for _, to := range []records.TxStatus{records.TxPending, records.TxProcessing, records.TxCompleted} {
			assert.Error(t, final.Check(to), "%s is final, not -> %s", final, to)
		}
	}
	assert.Error(t, records.TxProcessing.Check(records.TxPending), "no way back to waiting")
	assert.Error(t, records.TxCompleted.Check(records.TxProcessing))
	assert.NoError(t, records.TxCompleted.Check(records.TxFailed), "a returned payment fails after completing")
	assert.NoError(t, records.TxPendingAuthorization.Check(records.TxPending), "an authorized quote's payment waits for funds")
	assert.NoError(t, records.TxStatus("").Check(records.TxPending), "a new record has no state to leave")
}
