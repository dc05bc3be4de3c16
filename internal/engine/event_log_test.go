package engine_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
)

// TestEngine_Deliveries: an engine with EventHistory keeps every event
// whose delivery ended, by the record it describes and in order; pending events show
// their attempts and next retry; events given up are dead.
func TestEngine_Deliveries(t *testing.T) {
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.EventHistory = true })
	a := e.USDAccount(t, "Ann Able")
	_, err := e.Eng.Sandbox.Fund(ctx, a, 500)
	require.NoError(t, err)
	_, err = e.Eng.Sandbox.Fund(ctx, a, 700)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	mine, err := e.Eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Resource: a}, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, mine.Data, 2)
	for i, amount := range []int64{500, 1200} {
		d := mine.Data[i]
		assert.Equal(t, payments.EventType("INTERNAL_ACCOUNT.BALANCE_UPDATED"), d.Event.Type)
		assert.Equal(t, payments.DeliveryDelivered, d.Status)
		assert.Equal(t, 0, d.Attempts)
		assert.Equal(t, e.Clock.Now(), d.FinishedAt)
		assert.Contains(t, string(d.Event.Data), `"amount":`+strconv.FormatInt(amount, 10))
	}
	all, err := e.Eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{Desc: true})
	require.NoError(t, err)
	assert.Equal(t, mine.Data[1].Event.ID, all.Data[0].Event.ID, "newest first")

	// A failing endpoint: the event waits with its attempts; a permanent
	// failure gives it up.
	e.Rec.FailWith(errors.New("503"))
	_, err = e.Eng.Sandbox.Fund(ctx, a, 1)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	pending, err := e.Eng.Webhooks.PendingDeliveries(ctx, a, 0)
	require.NoError(t, err)
	require.Len(t, pending, 1)
	assert.Equal(t, payments.DeliveryPending, pending[0].Status)
	assert.Equal(t, 1, pending[0].Attempts)
	assert.Equal(t, "503", pending[0].LastError)
	assert.Equal(t, e.Clock.Now().Add(time.Second), pending[0].NextAttemptAt)
	other, err := e.Eng.Webhooks.PendingDeliveries(ctx, "InternalAccount:other", 0)
	require.NoError(t, err)
	assert.Empty(t, other)

	e.Rec.FailWith(payments.ErrPermanent)
	e.Clock.Advance(time.Second)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	// The funding's INCOMING_PAYMENT.COMPLETED (its transaction's) and the
	// account's balance event both failed.
	dead, err := e.Eng.Webhooks.DeadEvents(ctx, 0)
	require.NoError(t, err)
	require.Len(t, dead, 2)
	assert.Equal(t, payments.EventType("INCOMING_PAYMENT.COMPLETED"), dead[0].Event.Type)
	assert.Equal(t, pending[0].Event.ID, dead[1].Event.ID)
	assert.Equal(t, 2, dead[1].Attempts)
	failed, err := e.Eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Status: payments.DeliveryFailed}, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, failed.Data, 2)
	assert.Equal(t, dead[0].Event.ID, failed.Data[0].Event.ID)
	assert.Equal(t, dead[1].Event.ID, failed.Data[1].Event.ID)
	// Delivered ones (not in the status index: nearly every event is),
	// a page at a time, by resource too: every one but the failed one.
	for _, f := range []payments.DeliveryFilter{{Status: payments.DeliveryDelivered}, {Status: payments.DeliveryDelivered, Resource: a}} {
		var ids []string
		for d, err := range e.Eng.Webhooks.ListDeliveriesAll(ctx, f, payments.ListParams{Limit: 1, Desc: true}) {
			require.NoError(t, err)
			assert.Equal(t, payments.DeliveryDelivered, d.Status)
			ids = append(ids, d.Event.ID)
		}
		assert.NotContains(t, ids, dead[0].Event.ID, "%+v", f)
		assert.NotContains(t, ids, dead[1].Event.ID, "%+v", f)
		if f.Resource != "" {
			assert.Equal(t, []string{mine.Data[1].Event.ID, mine.Data[0].Event.ID}, ids, "the account's delivered events, newest first")
		}
		var all []string
		for d, err := range e.Eng.Webhooks.AllDeliveriesAll(ctx, f, payments.ListParams{Limit: 1, Desc: true}) {
			require.NoError(t, err)
			assert.Equal(t, payments.DeliveryDelivered, d.Status)
			all = append(all, d.Event.ID)
		}
		assert.Equal(t, ids, all, "AllDeliveries lists the delivered ones alike")
	}
	pending, err = e.Eng.Webhooks.PendingDeliveries(ctx, "", 0)
	require.NoError(t, err)
	assert.Empty(t, pending)

	_, err = e.Eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Status: "PENDING"}, payments.ListParams{})
	enginetest.RequireCode(t, err, payments.CodeInvalidInput, "status")
	_, err = e.Eng.Webhooks.PendingDeliveries(ctx, "", 1001)
	enginetest.RequireCode(t, err, payments.CodeInvalidInput, "limit")
	_, err = e.Eng.Webhooks.DeadEvents(ctx, -1)
	enginetest.RequireCode(t, err, payments.CodeInvalidInput, "limit")
}

// TestEngine_DeliveriesNotKeptByDefault: without EventHistory an engine
// keeps no event log (a delivered event leaves no trace), sandbox or not.
func TestEngine_DeliveriesNotKeptByDefault(t *testing.T) {
	e := enginetest.NewEnv(t)
	endpoint := "https://example.com/hooks"
	_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &endpoint})
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{string(payments.EventTest)}, e.Rec.Types(), "delivered")
	all, err := e.Eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
	require.NoError(t, err)
	assert.Empty(t, all.Data)
}
