package cards_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/cards"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cardEnv is a sandbox engine with the sandbox card issuer on a platform
// whose individuals are APPROVED at creation.
func cardEnv(t testing.TB, mutate ...func(*payments.Config)) *enginetest.Env {
	return enginetest.MoneyEnv(t, append([]func(*payments.Config){func(c *payments.Config) {
		c.CardIssuer = sandbox.Issuer{Now: c.Now}
		c.Platform.SkipVerificationPaperwork = true
	}}, mutate...)...)
}

// fundedCard returns a card on a new cardholder's USD account holding funds.
func fundedCard(t testing.TB, e *enginetest.Env, funds int64) (card *payments.Card, acct string) {
	t.Helper()
	acct = e.USDAccount(t, "Ann Holder")
	if funds > 0 {
		_, err := e.Eng.Sandbox.Fund(ctx, acct, funds)
		require.NoError(t, err)
	}
	a, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	card, err = e.Eng.Cards.Create(ctx, payments.CreateCardRequest{CardholderID: a.CustomerID, Form: "VIRTUAL", FundingSources: []string{acct}})
	require.NoError(t, err)
	require.Equal(t, cards.Active, card.State)
	return card, acct
}

func purchase(amount int64, descriptor string) payments.CardSimulation {
	return payments.CardSimulation{Amount: &amount, Currency: &payments.CurrencyCode{Code: "USD"},
		Merchant: &payments.CardMerchant{Descriptor: descriptor}}
}

// TestCards_ConcurrentAuthorizations: 64 concurrent authorizations of 300
// against 10,000 approve exactly 33 and never overspend, on every store.
func TestCards_ConcurrentAuthorizations(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := cardEnv(t, store)
			card, acct := fundedCard(t, e, 10000)
			var approved []string
			declines := map[string]int{}
			results := make(chan *payments.CardSimulationResult, 64)
			codes := enginetest.Concurrently(64, func() error {
				res, err := e.Eng.Cards.Simulate(ctx, card.ID, payments.CardAuthorization, purchase(300, "SHOP"))
				if err == nil {
					results <- res
				}
				return err
			})
			close(results)
			assert.Equal(t, map[payments.Code]int{"": 64}, codes)
			for r := range results {
				if r.Decline != "" {
					declines[r.Decline]++
				} else {
					approved = append(approved, r.Transaction.ID)
				}
			}
			assert.Len(t, approved, 33)
			assert.Equal(t, map[string]int{cards.DeclineInsufficientFunds: 31}, declines)
			a, err := e.Eng.Accounts.Internal(ctx, acct)
			require.NoError(t, err)
			assert.EqualValues(t, 100, a.Balance.Amount)
			assert.EqualValues(t, 10000, a.TotalBalance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))

			// Clearing every one concurrently, each with a tip the rest
			// of the balance covers only in part: nothing goes negative.
			tip := int64(310)
			ids := make(chan string, len(approved))
			for _, id := range approved {
				ids <- id
			}
			codes = enginetest.Concurrently(len(approved), func() error {
				_, err := e.Eng.Cards.Simulate(ctx, card.ID, payments.CardClearing, payments.CardSimulation{CardTransactionID: <-ids, Amount: &tip})
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": len(approved)}, codes)
			a, err = e.Eng.Accounts.Internal(ctx, acct)
			require.NoError(t, err)
			assert.EqualValues(t, 0, a.TotalBalance.Amount, "10 tips of 10 were pulled, the rest owed")
			require.NoError(t, payments.CheckLedger(ctx, e.Eng.Store()))
		})
	}
}

func TestCards_NotImplementedWithoutIssuer(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	_, err := e.Eng.Cards.Create(ctx, payments.CreateCardRequest{})
	enginetest.RequireCode(t, err, payments.CodeNotImplemented)
	_, err = e.Eng.Cards.Get(ctx, "Card:x")
	enginetest.RequireCode(t, err, payments.CodeNotImplemented)
	_, err = e.Eng.Cards.List(ctx, payments.CardFilter{}, payments.ListParams{})
	enginetest.RequireCode(t, err, payments.CodeNotImplemented)
	_, err = e.Eng.Cards.Simulate(ctx, "Card:x", payments.CardAuthorization, purchase(1, "X"))
	enginetest.RequireCode(t, err, payments.CodeNotImplemented)
	_, err = payments.New(payments.Config{Store: e.Store, CardLimits: payments.CardLimits{MaxLive: -1}})
	require.Error(t, err)
}

func TestCards_SimulatorsNeedTheSandbox(t *testing.T) {
	e := cardEnv(t, func(c *payments.Config) { c.Sandbox = false })
	_, err := e.Eng.Cards.Simulate(ctx, "Card:x", payments.CardAuthorization, purchase(1, "X"))
	enginetest.RequireCode(t, err, payments.CodeForbidden)
}

func TestCards_RevealNeedsAnActor(t *testing.T) {
	e := cardEnv(t)
	card, _ := fundedCard(t, e, 0)
	_, err := e.Eng.Cards.Reveal(ctx, card.ID, "")
	enginetest.RequireCode(t, err, payments.CodeForbidden)
	rv, err := e.Eng.Cards.Reveal(ctx, card.ID, "Token:ops")
	require.NoError(t, err)
	assert.Equal(t, e.Clock.Now().UTC().Add(sandbox.RevealTTL).Truncate(1e6), rv.ExpiresAt)
	raw, err := json.Marshal(card)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), rv.PanEmbedURL)
}

func TestCards_Idempotency(t *testing.T) {
	e := cardEnv(t)
	acct := e.USDAccount(t, "Ann Holder")
	_, err := e.Eng.Sandbox.Fund(ctx, acct, 1000)
	require.NoError(t, err)
	a, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	req := payments.CreateCardRequest{CardholderID: a.CustomerID, Form: "VIRTUAL", FundingSources: []string{acct}}
	h := func() *payments.Engine {
		k, err := e.Eng.WithIdempotency(payments.Idempotency{Scope: "POST /cards", Key: "k1"})
		require.NoError(t, err)
		return k
	}
	c1, err := h().Cards.Create(ctx, req)
	require.NoError(t, err)
	c2, err := h().Cards.Create(ctx, req)
	require.NoError(t, err, "a replay is not a second card (which the one-per-cardholder rule would refuse)")
	assert.Equal(t, c1.ID, c2.ID)

	sim := func() *payments.CardSimulationResult {
		k, err := e.Eng.WithIdempotency(payments.Idempotency{Scope: "POST sim", Key: "k2"})
		require.NoError(t, err)
		r, err := k.Cards.Simulate(ctx, c1.ID, payments.CardAuthorization, purchase(400, "SHOP"))
		require.NoError(t, err)
		return r
	}
	r1, r2 := sim(), sim()
	assert.Equal(t, r1.IssuerTransactionToken, r2.IssuerTransactionToken)
	page, err := e.Eng.Transactions.List(ctx, payments.TransactionFilter{Type: "CARD"}, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	got, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	assert.EqualValues(t, 600, got.Balance.Amount, "held once")
}

// TestCards_TransactionsList: card transactions are listed with the others,
// by type and account, and encode as the reference's CardTransaction.
func TestCards_TransactionsList(t *testing.T) {
	e := cardEnv(t)
	card, acct := fundedCard(t, e, 1000)
	res, err := e.Eng.Cards.Simulate(ctx, card.ID, payments.CardAuthorization, purchase(250, "SHOP"))
	require.NoError(t, err)
	for _, f := range []payments.TransactionFilter{{Type: "CARD"}, {AccountIdentifier: acct, Type: "CARD"}, {Status: "AUTHORIZED"}, {CustomerID: card.CardholderID, Type: "CARD"}} {
		page, err := e.Eng.Transactions.List(ctx, f, payments.ListParams{})
		require.NoError(t, err)
		require.Len(t, page.Data, 1, "%+v", f)
		require.NotNil(t, page.Data[0].Card)
		assert.Equal(t, res.Transaction.ID, page.Data[0].ID)
	}
	page, err := e.Eng.Transactions.List(ctx, payments.TransactionFilter{Type: "INCOMING"}, payments.ListParams{})
	require.NoError(t, err)
	for _, tx := range page.Data {
		assert.Nil(t, tx.Card)
	}
	tx, err := e.Eng.Transactions.Get(ctx, res.Transaction.ID)
	require.NoError(t, err)
	raw, err := json.Marshal(tx)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	assert.Equal(t, "CARD", m["type"])
	assert.Equal(t, "SHOP", m["merchant"].(map[string]any)["descriptor"])
	assert.NotContains(t, m, "source", "not an incoming or outgoing shape")
	var back payments.Transaction
	require.NoError(t, json.Unmarshal(raw, &back))
	assert.Equal(t, *tx, back)
}

// countingIssuer is the sandbox issuer counting the cards it is asked for,
// by card id.
type countingIssuer struct {
	sandbox.Issuer
	mu  sync.Mutex
	ids []string
}

func (c *countingIssuer) IssueCard(ctx context.Context, req payments.CardIssueRequest) (payments.CardIssue, error) {
	c.mu.Lock()
	c.ids = append(c.ids, req.CardID)
	c.mu.Unlock()
	return c.Issuer.IssueCard(ctx, req)
}

// asked returns the card ids the issuer was asked for, in order.
func (c *countingIssuer) asked() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.ids)
}

// countingCardEnv is cardEnv with a countingIssuer.
func countingCardEnv(t *testing.T, mutate ...func(*payments.Config)) (*enginetest.Env, *countingIssuer) {
	iss := &countingIssuer{}
	e := cardEnv(t, append([]func(*payments.Config){func(c *payments.Config) {
		iss.Issuer = sandbox.Issuer{Now: c.Now}
		c.CardIssuer = iss
	}}, mutate...)...)
	return e, iss
}

// A create repeated under its idempotency key replays the first answer
// without asking the issuer again; once the key's record expired, the same
// key and request are a new create.
func TestCards_CreateIdempotentAsksIssuerOnce(t *testing.T) {
	e, iss := countingCardEnv(t, func(c *payments.Config) { c.CardLimits = payments.CardLimits{PerCardholder: 2} })
	acct := e.USDAccount(t, "Ann Holder")
	a, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	req := payments.CreateCardRequest{CardholderID: a.CustomerID, Form: "VIRTUAL", FundingSources: []string{acct}}
	key := payments.Idempotency{Scope: "cards", Key: "card-1"}
	create := func() (*payments.Card, bool) {
		h, err := e.Eng.WithIdempotency(key)
		require.NoError(t, err)
		card, err := h.Cards.Create(ctx, req)
		require.NoError(t, err)
		return card, h.Replayed()
	}
	first, replayed := create()
	assert.False(t, replayed)
	again, replayed := create()
	assert.True(t, replayed)
	assert.Equal(t, first, again)
	assert.Equal(t, []string{first.ID}, iss.asked(), "the issuer was asked once")
	page, err := e.Eng.Cards.List(ctx, payments.CardFilter{CardholderID: a.CustomerID}, payments.ListParams{})
	require.NoError(t, err)
	assert.Len(t, page.Data, 1)

	e.Clock.Advance(24*time.Hour + time.Second)
	later, replayed := create()
	assert.False(t, replayed)
	assert.NotEqual(t, first.ID, later.ID, "a key reused after its retention is a new card")
	assert.Equal(t, []string{first.ID, later.ID}, iss.asked())
}

// failingUpdates fails the store's write transactions whose context carries
// failUpdate, as a crash after the issuer answered and before the commit.
type failingUpdates struct{ payments.Store }

type failUpdate struct{}

func (f failingUpdates) Update(ctx context.Context, fn func(payments.Tx) error) error {
	if ctx.Value(failUpdate{}) != nil {
		return errors.New("store unavailable")
	}
	return f.Store.Update(ctx, fn)
}

// A keyed create that reached the issuer but never committed asks the
// issuer for the same card id when retried, so an issuer idempotent on the
// id holds one card for the logical create.
func TestCards_CreateRetriedAfterFailedCommitAsksForTheSameCard(t *testing.T) {
	e, iss := countingCardEnv(t, func(c *payments.Config) { c.Store = failingUpdates{c.Store} })
	acct := e.USDAccount(t, "Ann Holder")
	a, err := e.Eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	req := payments.CreateCardRequest{CardholderID: a.CustomerID, Form: "VIRTUAL", FundingSources: []string{acct}}
	key := payments.Idempotency{Scope: "cards", Key: "card-1"}
	h, err := e.Eng.WithIdempotency(key)
	require.NoError(t, err)
	_, err = h.Cards.Create(context.WithValue(ctx, failUpdate{}, true), req)
	require.Error(t, err)
	require.Len(t, iss.asked(), 1)

	h, err = e.Eng.WithIdempotency(key)
	require.NoError(t, err)
	card, err := h.Cards.Create(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, []string{card.ID, card.ID}, iss.asked(), "both tries asked for one card id")

	// Without a key every create is a new one.
	other := e.USDAccount(t, "Bob Holder")
	b, err := e.Eng.Accounts.Internal(ctx, other)
	require.NoError(t, err)
	_, err = e.Eng.Cards.Create(ctx, payments.CreateCardRequest{CardholderID: b.CustomerID, Form: "VIRTUAL", FundingSources: []string{other}})
	require.NoError(t, err)
	assert.NotEqual(t, card.ID, iss.asked()[2])
}
