package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
)

// TestTrigger_EveryType: GET /sandbox/trigger lists the types POST
// /sandbox/trigger accepts; triggering each over HTTP on one server makes
// the platform's webhook endpoint receive an event of that type, and the
// answer names the records made and the event's id (the engine keeps its
// event history). The ledger stays balanced.
func TestTrigger_EveryType(t *testing.T) {
	s := sandbox.NewServer(t, func(c *payments.Config) { c.EventHistory = true })
	var list struct{ EventTypes []payments.EventType }
	require.NoError(t, s.Call("GET", "/sandbox/trigger", nil, &list))
	assert.Equal(t, sandbox.TriggerTypes(), list.EventTypes)
	assert.True(t, slices.IsSorted(list.EventTypes))
	for _, typ := range list.EventTypes {
		t.Run(string(typ), func(t *testing.T) {
			before := len(s.Webhooks.Events())
			var got payments.Triggered
			require.NoError(t, s.Call("POST", "/sandbox/trigger", map[string]any{"eventType": typ}, &got))
			require.NoError(t, s.RunDue())
			assert.Equal(t, typ, got.EventType)
			var types []string
			for _, ev := range s.Webhooks.Events()[before:] {
				types = append(types, string(ev.Type))
			}
			assert.Contains(t, types, string(typ), "received")
			if typ != payments.EventTest { // sent at once, outside the outbox and the history
				assert.NotEmpty(t, got.Records)
				require.NotEmpty(t, got.EventIDs, "%+v", got)
				received := map[string]payments.EventType{}
				for _, ev := range s.Webhooks.Events() {
					received[ev.ID] = ev.Type
				}
				for _, id := range got.EventIDs {
					assert.Equal(t, typ, received[id], "event %s", id)
				}
			}
		})
	}
	require.NoError(t, payments.CheckLedger(context.Background(), s.Engine.Store()))
}

// TestTrigger_UnknownType: a type the sandbox does not trigger, or none,
// is 400 INVALID_INPUT naming eventType, and makes nothing.
func TestTrigger_UnknownType(t *testing.T) {
	s := sandbox.NewServer(t)
	for _, body := range []string{`{"eventType":"NO_SUCH.EVENT"}`, `{}`, `{"eventType":""}`} {
		req, err := http.NewRequest("POST", s.BaseURL+"/sandbox/trigger", bytes.NewBufferString(body))
		require.NoError(t, err)
		req.SetBasicAuth(s.ClientID, s.ClientSecret)
		req.Header.Set("Content-Type", "application/json")
		res, err := s.Client().Do(req)
		require.NoError(t, err)
		var e struct {
			Code    string
			Message string
			Details struct{ Errors []struct{ Field string } }
		}
		require.NoError(t, json.NewDecoder(res.Body).Decode(&e))
		res.Body.Close()
		assert.Equal(t, 400, res.StatusCode, body)
		assert.Equal(t, "INVALID_INPUT", e.Code, body)
		require.Len(t, e.Details.Errors, 1, body)
		assert.Equal(t, "eventType", e.Details.Errors[0].Field, body)
	}
	var customers struct{ Data []any }
	require.NoError(t, s.Call("GET", "/customers", nil, &customers))
	assert.Empty(t, customers.Data)
}

// TestTriggerTypes_EveryEmittedType: every event type the engine emits
// with the sandbox providers can be triggered. VERIFICATION.IN_PROGRESS
// and READY_FOR_VERIFICATION are decisions the sandbox KYC provider never
// makes (it decides at once), so the sandbox never emits them.
func TestTriggerTypes_EveryEmittedType(t *testing.T) {
	emitted := []payments.EventType{
		payments.EventOutgoingPaymentPending, payments.EventOutgoingPaymentPendingAuthorization, payments.EventOutgoingPaymentProcessing,
		payments.EventOutgoingPaymentCompleted, payments.EventOutgoingPaymentFailed, payments.EventOutgoingPaymentExpired,
		payments.EventOutgoingPaymentRefundPending, payments.EventOutgoingPaymentRefundCompleted, payments.EventOutgoingPaymentRefundFailed,
		payments.EventIncomingPaymentPending, payments.EventIncomingPaymentCompleted, payments.EventIncomingPaymentFailed,
		payments.EventCustomerKYCApproved, payments.EventCustomerKYCRejected, payments.EventCustomerKYCPending,
		payments.EventCustomerKYBApproved, payments.EventCustomerKYBRejected, payments.EventCustomerKYBPending,
		payments.EventVerificationApproved, payments.EventVerificationRejected, payments.EventVerificationResolveErrors,
		payments.EventVerificationPendingManualReview,
		payments.EventBulkUploadCompleted, payments.EventBulkUploadFailed,
		payments.EventCardStateChange, payments.EventCardFundingSourceChange,
		payments.EventCardTransactionAuthorized, payments.EventCardTransactionPartiallySettled, payments.EventCardTransactionSettled,
		payments.EventCardTransactionRefunded, payments.EventCardTransactionException,
		payments.EventAgentActionPendingApproval, payments.EventInternalAccountBalanceUpdated, payments.EventExternalAccountStatusUpdated,
		payments.EventInvitationClaimed, payments.EventTest,
	}
	slices.Sort(emitted)
	assert.Equal(t, emitted, sandbox.TriggerTypes())
}
