package payments_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codeBox is a CodeSender that keeps what it was given and can be told to
// refuse.
type codeBox struct {
	mu   sync.Mutex
	sent []payments.CodeMessage
	fail error
}

func (b *codeBox) SendCode(_ context.Context, m payments.CodeMessage) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return b.fail
	}
	b.sent = append(b.sent, m)
	return nil
}

func (b *codeBox) messages() []payments.CodeMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]payments.CodeMessage(nil), b.sent...)
}

// TestCodes_DeliveredAfterCommit: one-time codes reach the CodeSender only
// for records that committed, after commit, and again after a refusal.
func TestCodes_DeliveredAfterCommit(t *testing.T) {
	box := &codeBox{}
	e := moneyEnv(t, func(c *payments.Config) { c.Codes = box })
	in := fullIndividual("Erika Mustermann")
	in.Region, in.Email, in.PhoneNumber = "DE", "erika@example.com", "+4915112345678"
	c, err := e.eng.Customers.Create(ctx, in)
	require.NoError(t, err)

	require.NoError(t, e.eng.Customers.SendContactCode(ctx, c.ID, payments.ChannelEmail))
	got := box.messages()
	require.Len(t, got, 1)
	assert.Equal(t, payments.CodeMessage{ID: got[0].ID, CustomerID: c.ID, Channel: payments.ChannelEmail, To: "erika@example.com",
		Code: sandbox.ContactCode, Purpose: "CONTACT_VERIFICATION"}, got[0])
	_, err = e.eng.Customers.ConfirmContactCode(ctx, c.ID, payments.ChannelEmail, got[0].Code)
	require.NoError(t, err, "the delivered code is the stored one")

	us, err := e.eng.Customers.Create(ctx, fullIndividual("Jane Doe"))
	require.NoError(t, err)
	requireCode(t, e.eng.Customers.SendContactCode(ctx, us.ID, payments.ChannelEmail), payments.CodeConflict)
	assert.Len(t, box.messages(), 1, "no code for a request that did not commit")

	box.mu.Lock()
	box.fail = errors.New("SMS gateway down")
	box.mu.Unlock()
	require.NoError(t, e.eng.Customers.SendContactCode(ctx, c.ID, payments.ChannelPhone), "the code is issued; delivery is retried")
	assert.Len(t, box.messages(), 1)
	box.mu.Lock()
	box.fail = nil
	box.mu.Unlock()
	e.clock.Advance(time.Minute)
	_, err = e.eng.ProcessDue(ctx)
	require.NoError(t, err)
	got = box.messages()
	require.Len(t, got, 2)
	assert.Equal(t, "+4915112345678", got[1].To)
	assert.Equal(t, payments.ChannelPhone, got[1].Channel)
}
