package quotes

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckPaymentEvent: a payment event announces only a transaction of
// its own type; another event is no payment event at all.
func TestCheckPaymentEvent(t *testing.T) {
	out := &Transaction{ID: "Transaction:1", Type: TxOutgoing}
	in := &Transaction{ID: "Transaction:2", Type: TxIncoming}
	assert.NoError(t, checkPaymentEvent(out, EventOutgoingPaymentRefundCompleted))
	assert.NoError(t, checkPaymentEvent(in, EventIncomingPaymentPending))
	assert.Error(t, checkPaymentEvent(out, EventIncomingPaymentCompleted))
	assert.Error(t, checkPaymentEvent(in, EventOutgoingPaymentCompleted))
	assert.Error(t, checkPaymentEvent(out, EventInvitationClaimed))
}
