package dashboard

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
)

// TestResendOutcome: what a Resend's try did, as the page it returns to
// says it: delivered; failed with the status class the endpoint answered,
// or without an answer; not sent when no try was made.
func TestResendOutcome(t *testing.T) {
	for want, dl := range map[string]payments.WebhookDelivery{
		"delivered":  {Status: payments.DeliveryDelivered},
		"failed-4xx": {Status: payments.DeliveryPending, LastError: "webhook endpoint answered 404"},
		"failed-5xx": {Status: payments.DeliveryFailed, LastError: "webhook endpoint answered 503"},
		"failed-3xx": {Status: payments.DeliveryPending, LastError: "webhook endpoint answered 302"},
		"failed":     {Status: payments.DeliveryPending, LastError: "dial tcp 127.0.0.1:1: connect: connection refused"},
		"not-sent":   {Status: payments.DeliveryPending},
	} {
		assert.Equal(t, want, resendOutcome(&dl), "%+v", dl)
		assert.NotEmpty(t, resendMessages[want])
	}
}
