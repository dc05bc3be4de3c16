package invitations_test

import (
	"context"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ctx is the context of the tests' engine calls.
var ctx = context.Background()

// invitationEnv is a sandbox engine whose platform has a webhook endpoint
// (invitations need one) and an inviter holding EUR and USD accounts; it
// returns the inviter's UMA address.
func invitationEnv(t *testing.T) (*enginetest.Env, string) {
	t.Helper()
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Platform.WebhookEndpoint = "https://platform.example/hooks" })
	in := enginetest.FullIndividual("Ann Inviter")
	in.Currencies = []string{"USD", "EUR"}
	c, err := e.Eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	return e, c.UmaAddress
}

// TestInvitations_AmountInInvitersFirstCurrency: the promised amount is in
// the currency of the inviter's first account in currency-code order (EUR
// before USD, whatever order the customer listed them in).
func TestInvitations_AmountInInvitersFirstCurrency(t *testing.T) {
	e, inviter := invitationEnv(t)
	amount := int64(12550)
	inv, err := e.Eng.Invitations.Create(ctx, payments.InvitationRequest{InviterUma: inviter, AmountToSend: &amount})
	require.NoError(t, err)
	require.NotNil(t, inv.AmountToSend)
	assert.Equal(t, "EUR", inv.AmountToSend.Currency.Code)
	assert.EqualValues(t, 12550, inv.AmountToSend.Amount)
}

// TestInvitations_Idempotency: under one idempotency key a repeated create
// or claim replays its answer, and another request under the key is
// CONFLICT, since the key's record fingerprints the whole request (the
// invitee's address included).
func TestInvitations_Idempotency(t *testing.T) {
	e, inviter := invitationEnv(t)
	keyed := func(key string) *payments.Engine {
		k, err := e.Eng.WithIdempotency(payments.Idempotency{Scope: "invitations", Key: key})
		require.NoError(t, err)
		return k
	}
	req := payments.InvitationRequest{InviterUma: inviter, FirstName: "Jane"}
	first, err := keyed("create").Invitations.Create(ctx, req)
	require.NoError(t, err)
	h := keyed("create")
	again, err := h.Invitations.Create(ctx, req)
	require.NoError(t, err)
	assert.True(t, h.Replayed())
	assert.Equal(t, first.Code, again.Code, "a replay draws no second code")
	_, err = keyed("create").Invitations.Create(ctx, payments.InvitationRequest{InviterUma: inviter, FirstName: "Joan"})
	enginetest.RequireCode(t, err, payments.CodeConflict)

	claimed, err := keyed("claim").Invitations.Claim(ctx, first.Code, "$bob@other.example")
	require.NoError(t, err)
	h = keyed("claim")
	again, err = h.Invitations.Claim(ctx, first.Code, "$bob@other.example")
	require.NoError(t, err)
	assert.True(t, h.Replayed())
	assert.Equal(t, claimed.ClaimedAt, again.ClaimedAt)
	_, err = keyed("claim").Invitations.Claim(ctx, first.Code, "$carol@other.example")
	enginetest.RequireCode(t, err, payments.CodeConflict)

	inv, err := e.Eng.Invitations.Create(ctx, req)
	require.NoError(t, err)
	_, err = keyed("cancel").Invitations.Cancel(ctx, inv.Code)
	require.NoError(t, err)
	h = keyed("cancel")
	cancelled, err := h.Invitations.Cancel(ctx, inv.Code)
	require.NoError(t, err, "a replay, not INVITATION_CANCELLED")
	assert.True(t, h.Replayed())
	assert.Equal(t, payments.InvitationCancelled, cancelled.Status)
	_, err = keyed("cancel").Invitations.Cancel(ctx, first.Code)
	enginetest.RequireCode(t, err, payments.CodeConflict)
}
