package cards_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments/cards"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTransition_EveryPair pins the card state machine over every
// (from, to) pair of the five states.
func TestTransition_EveryPair(t *testing.T) {
	ok := error(nil)
	inv, closed, immut := cards.ErrInvalidTransition, cards.ErrAlreadyClosed, cards.ErrNotMutable
	want := map[cards.State]map[cards.State]error{
		cards.PendingKYC: {cards.PendingKYC: inv, cards.Processing: inv, cards.Active: inv, cards.Frozen: inv, cards.Closed: inv},
		cards.Processing: {cards.PendingKYC: inv, cards.Processing: inv, cards.Active: inv, cards.Frozen: inv, cards.Closed: inv},
		cards.Active:     {cards.PendingKYC: inv, cards.Processing: inv, cards.Active: inv, cards.Frozen: ok, cards.Closed: ok},
		cards.Frozen:     {cards.PendingKYC: inv, cards.Processing: inv, cards.Active: ok, cards.Frozen: inv, cards.Closed: ok},
		cards.Closed:     {cards.PendingKYC: immut, cards.Processing: immut, cards.Active: immut, cards.Frozen: immut, cards.Closed: closed},
	}
	require.Len(t, want, len(cards.States))
	for _, from := range cards.States {
		for _, to := range cards.States {
			got := cards.Transition(from, to)
			w := want[from][to]
			if w == nil {
				assert.NoError(t, got, "%s -> %s", from, to)
			} else {
				assert.ErrorIs(t, got, w, "%s -> %s", from, to)
			}
		}
	}
}

func TestCheckUpdate(t *testing.T) {
	assert.ErrorIs(t, cards.CheckUpdate(cards.Closed, "", true), cards.ErrNotMutable)
	assert.ErrorIs(t, cards.CheckUpdate(cards.Closed, cards.Closed, false), cards.ErrAlreadyClosed)
	assert.ErrorIs(t, cards.CheckUpdate(cards.Active, cards.Closed, true), cards.ErrCloseWithSettings)
	assert.NoError(t, cards.CheckUpdate(cards.Active, "", true))
	assert.NoError(t, cards.CheckUpdate(cards.Frozen, cards.Active, true))
	assert.ErrorIs(t, cards.CheckUpdate(cards.Processing, cards.Frozen, false), cards.ErrInvalidTransition)
	assert.NoError(t, cards.CheckUpdate(cards.Processing, "", true), "settings may change while provisioning")
}

func TestProvisioned(t *testing.T) {
	for p, want := range map[cards.Provisioning][2]string{
		cards.ProvisionActive:   {"ACTIVE", ""},
		cards.ProvisionRejected: {"CLOSED", "ISSUER_REJECTED"},
		cards.ProvisionDelayed:  {"PROCESSING", ""},
		cards.ProvisionPending:  {"PROCESSING", ""},
	} {
		s, r := cards.Provisioned(p)
		assert.Equal(t, want, [2]string{string(s), string(r)}, p)
	}
}

func TestLimits(t *testing.T) {
	l := cards.Limits{MaxLive: 3, PerCardholder: 2}
	assert.NoError(t, l.CheckIssue(2, 1))
	assert.ErrorIs(t, l.CheckIssue(3, 0), cards.ErrLimitReached)
	assert.ErrorIs(t, l.CheckIssue(0, 2), cards.ErrLimitReached)
	d := cards.Limits{}
	assert.NoError(t, d.CheckIssue(cards.DefaultMaxLive-1, 0))
	assert.ErrorIs(t, d.CheckIssue(cards.DefaultMaxLive, 0), cards.ErrLimitReached)
	assert.ErrorIs(t, d.CheckIssue(0, 1), cards.ErrLimitReached, "one card per cardholder by default")
	assert.True(t, cards.Closed.Live() == false && cards.Frozen.Live() && cards.Processing.Live())
}

func ptr(n int64) *int64 { return &n }

func TestAuthorize(t *testing.T) {
	_, _, d := cards.Authorize(5001, 10000, ptr(5000), false)
	assert.Equal(t, cards.DeclineSpendLimit, d)
	p, mv, d := cards.Authorize(5000, 10000, ptr(5000), false)
	require.Empty(t, d, "exactly the limit is allowed")
	assert.Equal(t, cards.Movement{Hold: 5000}, mv)
	assert.Equal(t, cards.Authorized, p.Status)
	_, mv, d = cards.Authorize(10001, 10000, nil, false)
	assert.Equal(t, cards.DeclineInsufficientFunds, d)
	assert.Zero(t, mv)
	p, _, _ = cards.Authorize(100, 100, nil, true)
	assert.Equal(t, cards.Exception, p.Status)
	assert.True(t, p.Open)
	p, mv, _ = cards.FinancialAuthorize(100, 100, nil, false)
	assert.Equal(t, cards.Settled, p.Status)
	assert.Equal(t, cards.Movement{Pull: 100}, mv)
}

// TestClearing covers the clearing arithmetic: over-authorization,
// unfundable excess, partial clearings, expiry and credits.
func TestClearing(t *testing.T) {
	p, _, _ := cards.Authorize(1250, 5000, nil, false)
	t.Run("over-authorization is a second pull", func(t *testing.T) {
		q, mv, err := cards.Clear(p, 1500, 3750)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Capture: 1250, Pull: 250}, mv)
		assert.Equal(t, cards.Settled, q.Status)
		assert.Equal(t, 2, q.Pulls)
		assert.EqualValues(t, 1500, q.PullTotal)
		assert.EqualValues(t, 1500, q.Settled)
		_, _, err = cards.Clear(q, 1, 0)
		assert.ErrorIs(t, err, cards.ErrNotApplicable, "a settled transaction takes no more clearings")
	})
	t.Run("unfundable excess is owed and an exception", func(t *testing.T) {
		q, mv, err := cards.Clear(p, 1500, 100)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Capture: 1250, Shortfall: 250}, mv)
		assert.Equal(t, cards.Exception, q.Status)
		assert.EqualValues(t, 250, q.Owed)
		r, mv, err := cards.Return(q, 1500)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Credit: 1250, Repay: 250}, mv)
		assert.Zero(t, r.Owed)
	})
	t.Run("partial then final", func(t *testing.T) {
		q, mv, err := cards.Clear(p, 1000, 0)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Capture: 1000}, mv)
		assert.Equal(t, cards.PartiallySettled, q.Status)
		q, mv, err = cards.Clear(q, 0, 0)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Release: 250}, mv)
		assert.Equal(t, cards.Settled, q.Status)
	})
	t.Run("expiry releases everything", func(t *testing.T) {
		q, mv, err := cards.Clear(p, 0, 0)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Release: 1250}, mv)
		assert.Zero(t, q.Settled)
		_, _, err = cards.Return(q, 1)
		assert.ErrorIs(t, err, cards.ErrNotApplicable)
	})
	t.Run("credit clears by crediting", func(t *testing.T) {
		c, mv := cards.CreditAuthorize(700, false, false)
		assert.Zero(t, mv)
		c, mv, err := cards.Clear(c, 700, 0)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Credit: 700}, mv)
		assert.Equal(t, cards.Settled, c.Status)
	})
}

func TestAdvice(t *testing.T) {
	p, _, _ := cards.Authorize(1000, 1000, nil, false)
	q, mv, err := cards.Advise(p, 1500, 500)
	require.NoError(t, err)
	assert.Equal(t, cards.Movement{Hold: 500}, mv)
	assert.EqualValues(t, 1500, q.Held)
	q, mv, err = cards.Advise(q, 400, 0)
	require.NoError(t, err)
	assert.Equal(t, cards.Movement{Release: 1100}, mv)
	t.Run("unfundable advice is an exception", func(t *testing.T) {
		x, mv, err := cards.Advise(p, 3000, 10)
		require.NoError(t, err)
		assert.Zero(t, mv)
		assert.Equal(t, cards.Exception, x.Status)
		assert.EqualValues(t, 3000, x.Authorized)
		x, mv, err = cards.Clear(x, 3000, 0)
		require.NoError(t, err)
		assert.Equal(t, cards.Movement{Capture: 1000, Shortfall: 2000}, mv)
		assert.Equal(t, cards.Exception, x.Status)
	})
	partial, _, _ := cards.Clear(p, 600, 0)
	_, _, err = cards.Advise(partial, 500, 0)
	assert.ErrorIs(t, err, cards.ErrNotApplicable, "below what cleared")
	_, _, err = cards.Advise(partial, 0, 0)
	assert.ErrorIs(t, err, cards.ErrNotApplicable)
}

func TestReturnAndReversal(t *testing.T) {
	p, _, _ := cards.FinancialAuthorize(1500, 1500, nil, false)
	_, _, err := cards.Return(p, 1501)
	assert.ErrorIs(t, err, cards.ErrNotApplicable)
	_, _, err = cards.ReverseReturn(p, 0)
	assert.ErrorIs(t, err, cards.ErrNotApplicable, "needs REFUNDED")
	q, mv, err := cards.Return(p, 500)
	require.NoError(t, err)
	assert.Equal(t, cards.Movement{Credit: 500}, mv)
	assert.Equal(t, cards.Settled, q.Status, "partial return keeps SETTLED")
	q, _, err = cards.Return(q, 1000)
	require.NoError(t, err)
	assert.Equal(t, cards.Refunded, q.Status)
	r, mv, err := cards.ReverseReturn(q, 2000)
	require.NoError(t, err)
	assert.Equal(t, cards.Movement{Pull: 1500}, mv)
	assert.Equal(t, cards.Settled, r.Status)
	r, mv, err = cards.ReverseReturn(q, 10)
	require.NoError(t, err)
	assert.Equal(t, cards.Movement{Shortfall: 1500}, mv)
	assert.Equal(t, cards.Exception, r.Status)
	assert.False(t, errors.Is(err, cards.ErrNotApplicable))
}
