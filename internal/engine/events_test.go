package engine_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEngine_Outbox(t *testing.T) {
	e := enginetest.NewEnv(t)
	hook := "https://hooks.example.com/a"
	_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &hook})
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{string(payments.EventTest)}, e.Rec.Types())
	pending, err := e.Eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	assert.Empty(t, pending)

	t.Run("a rejected change writes no event", func(t *testing.T) {
		bad := "ftp://x"
		_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &bad})
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "webhookEndpoint")
		pending, _ := e.Eng.Webhooks.Pending(ctx)
		assert.Empty(t, pending)
	})
	t.Run("a failed TEST event is not retried", func(t *testing.T) {
		e.Rec.FailWith(errors.New("receiver down"))
		other := "https://hooks.example.com/b"
		_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &other})
		require.NoError(t, err)
		_, err = e.Eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		pending, _ := e.Eng.Webhooks.Pending(ctx)
		assert.Empty(t, pending, "TEST deliveries are never retried")
	})
	t.Run("permanent failures go to the dead letters", func(t *testing.T) {
		e.Rec.FailWith(payments.ErrPermanent)
		third := "https://hooks.example.com/c"
		_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &third})
		require.NoError(t, err)
		_, _ = e.Eng.Webhooks.Flush(ctx)
		pending, _ := e.Eng.Webhooks.Pending(ctx)
		assert.Empty(t, pending)
	})
}
