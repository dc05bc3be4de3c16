package customers_test

import (
	"errors"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodes_DeliveredAfterCommit: one-time codes reach the CodeSender only
// for records that committed, after commit, and again after a refusal.
func TestCodes_DeliveredAfterCommit(t *testing.T) {
	box := &enginetest.CodeBox{}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Codes = box })
	in := enginetest.FullIndividual("Erika Mustermann")
	in.Region, in.Email, in.PhoneNumber = "DE", "erika@example.com", "+4915112345678"
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)

	require.NoError(t, e.Eng.Customers.SendContactCode(ctx, c.ID, payments.ChannelEmail))
	got := box.Messages()
	require.Len(t, got, 1)
	assert.Equal(t, payments.CodeMessage{ID: got[0].ID, CustomerID: c.ID, Channel: payments.ChannelEmail, To: "erika@example.com",
		Code: sandbox.ContactCode, Purpose: "CONTACT_VERIFICATION"}, got[0])
	_, err = e.Eng.Customers.ConfirmContactCode(ctx, c.ID, payments.ChannelEmail, got[0].Code)
	require.NoError(t, err, "the delivered code is the stored one")

	us, err := e.Eng.Customers.Create(ctx, enginetest.FullIndividual("Jane Doe"))
	require.NoError(t, err)
	enginetest.RequireCode(t, e.Eng.Customers.SendContactCode(ctx, us.ID, payments.ChannelEmail), payments.CodeConflict)
	assert.Len(t, box.Messages(), 1, "no code for a request that did not commit")

	box.FailWith(errors.New("SMS gateway down"))
	require.NoError(t, e.Eng.Customers.SendContactCode(ctx, c.ID, payments.ChannelPhone), "the code is issued; delivery is retried")
	assert.Len(t, box.Messages(), 1)
	box.FailWith(nil)
	e.Clock.Advance(time.Minute)
	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	got = box.Messages()
	require.Len(t, got, 2)
	assert.Equal(t, "+4915112345678", got[1].To)
	assert.Equal(t, payments.ChannelPhone, got[1].Channel)
}
