package sandbox_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
)

// TestControls_TriggerEveryType triggers every type TriggerTypes lists on
// one server and checks that the platform's webhook endpoint received an
// event of that type, that the answer names the records made and the
// event's id (the engine keeps its event history), and that every type
// the engine emits is listed.
func TestControls_TriggerEveryType(t *testing.T) {
	s := sandbox.NewServer(t, func(c *payments.Config) { c.EventHistory = true })
	ctx := context.Background()
	for _, typ := range sandbox.TriggerTypes() {
		t.Run(string(typ), func(t *testing.T) {
			before := len(s.Webhooks.Events())
			got, err := s.Controls.Trigger(ctx, typ)
			require.NoError(t, err)
			require.NoError(t, s.RunDue())
			assert.Equal(t, typ, got.EventType)
			var types []string
			for _, ev := range s.Webhooks.Events()[before:] {
				types = append(types, string(ev.Type))
			}
			assert.Contains(t, types, string(typ), "received")
			if typ != payments.EventTest { // sent at once, outside the outbox and the history
				assert.NotEmpty(t, got.Records)
				assert.NotEmpty(t, got.EventIDs, "%+v", got)
			}
		})
	}
	_, err := s.Controls.Trigger(ctx, "NO_SUCH.EVENT")
	var pe *payments.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, payments.CodeInvalidInput, pe.Code)
	require.Len(t, pe.Fields, 1)
	assert.Equal(t, "eventType", pe.Fields[0].Field)
	assert.True(t, slices.IsSorted(sandbox.TriggerTypes()))
	require.NoError(t, payments.CheckLedger(ctx, s.Engine.Store()))
}
