package quotes_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingRates is a RateSource that counts its calls and answers the rate
// currently set.
type countingRates struct {
	mu    sync.Mutex
	calls int
	rate  string
}

func (c *countingRates) Rate(context.Context, string, string) (money.Rate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	return money.MustRate(c.rate), nil
}

func (c *countingRates) set(rate string) (calls int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rate = rate
	return c.calls
}

// TestEngine_ExchangeRatesCache: a rate is fetched once and reused for
// RateCacheTTL on the engine clock, by GET /exchange-rates and quotes alike;
// after that the source is asked again and the new rate shows.
func TestEngine_ExchangeRatesCache(t *testing.T) {
	src := &countingRates{rate: "1.25"}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Rates = src })
	start := e.Eng.Now()

	rates, err := e.Eng.Quotes.ExchangeRates(ctx, payments.RateQuery{Source: "USD", Destinations: []string{"EUR"}, SendingAmount: 10_000})
	require.NoError(t, err)
	require.Len(t, rates, 1)
	assert.EqualValues(t, 8000, rates[0].ReceivingAmount, "10000 cents at 1.25 USD per EUR")
	assert.True(t, rates[0].UpdatedAt.Equal(start))
	assert.Equal(t, 1, src.set("2"), "the first request asks the source")

	e.Clock.Advance(payments.RateCacheTTL - time.Second)
	rates, err = e.Eng.Quotes.ExchangeRates(ctx, payments.RateQuery{Source: "USD", Destinations: []string{"EUR"}, SendingAmount: 10_000})
	require.NoError(t, err)
	assert.EqualValues(t, 8000, rates[0].ReceivingAmount, "still the cached rate")
	assert.True(t, rates[0].UpdatedAt.Equal(start), "updatedAt is when the rate was fetched")
	assert.Equal(t, 1, src.set("2"))

	e.Clock.Advance(time.Second)
	rates, err = e.Eng.Quotes.ExchangeRates(ctx, payments.RateQuery{Source: "USD", Destinations: []string{"EUR"}, SendingAmount: 10_000})
	require.NoError(t, err)
	assert.EqualValues(t, 5000, rates[0].ReceivingAmount, "refetched after RateCacheTTL")
	assert.True(t, rates[0].UpdatedAt.Equal(start.Add(payments.RateCacheTTL)))
	assert.Equal(t, 2, src.set("2"))

	t.Run("QuotesShareTheCache", func(t *testing.T) {
		from := e.USDAccount(t, "Ann Payer")
		_, err := e.Eng.Sandbox.Fund(ctx, from, 10_000)
		require.NoError(t, err)
		in := enginetest.FullIndividual("Bo Payee")
		in.Currencies = []string{"EUR"}
		c, err := e.Eng.Customers.Create(ctx, in)
		require.NoError(t, err)
		page, err := e.Eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID, Currency: "EUR"}, payments.CustomerScope, payments.ListParams{})
		require.NoError(t, err)
		q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, page.Data[0].ID, 10_000, false))
		require.NoError(t, err)
		assert.Equal(t, "2", q.ExchangeRate.String())
		assert.EqualValues(t, 5000, q.TotalReceivingAmount)
		assert.Equal(t, 2, src.set("2"), "the quote used the cached rate")
	})
	t.Run("ErrInvalidInput", func(t *testing.T) {
		_, err := e.Eng.Quotes.ExchangeRates(ctx, payments.RateQuery{Source: "XXX", Destinations: []string{"EUR", "YYY"}, SendingAmount: -1})
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "sourceCurrency", "destinationCurrency.1", "sendingAmount")
		assert.Equal(t, 2, src.set("2"), "invalid requests never reach the source")
	})
}

// writeFlagStore marks the Updates running on it for the operation whose
// context carries a txnMark, so that a RateSource asked with that context
// can tell whether it was asked from one of its write transactions.
type writeFlagStore struct {
	*memstore.Store
}

func (s *writeFlagStore) Update(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.Update(ctx, func(tx payments.Tx) error {
		defer enter(ctx)()
		return fn(tx)
	})
}

// writeProbeRates answers 1.25 and counts the calls made while a write
// transaction of the asking operation ran.
type writeProbeRates struct {
	calls, inWrite atomic.Int32
}

func (r *writeProbeRates) Rate(ctx context.Context, _, _ string) (money.Rate, error) {
	r.calls.Add(1)
	if m, ok := ctx.Value(txnMark{}).(*opMark); ok && m.running.Load() > 0 {
		r.inWrite.Add(1)
	}
	return money.MustRate("1.25"), nil
}

// TestRates_NeverAskedInAWriteTransaction: on a store where a quote is
// priced inside its write transaction (memstore), a rate the cache lacks
// is fetched outside it and the quote priced again with it, so the
// RateSource, which may call the network, is never asked from a write;
// a cached rate is used as is.
func TestRates_NeverAskedInAWriteTransaction(t *testing.T) {
	store := &writeFlagStore{Store: memstore.New()}
	ur, ok := any(store).(payments.UpdateReader)
	require.True(t, ok && ur.ReadsInUpdate(), "the case this test is about")
	src := &writeProbeRates{}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Store, c.Rates = store, src })
	_, acct, payee := e.EUCustomer(t, 100_000)
	var mark opMark
	ctx := context.WithValue(ctx, txnMark{}, &mark)
	for range 2 {
		q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(acct, payee, 10_000, false))
		require.NoError(t, err)
		assert.EqualValues(t, 8000, q.TotalReceivingAmount, "10000 cents at 1.25 USD per EUR")
	}
	assert.EqualValues(t, 1, src.calls.Load(), "fetched once, then cached")
	assert.Zero(t, src.inWrite.Load(), "never from a write transaction")
	assert.Positive(t, mark.ran.Load(), "the operations' writes were marked")
}

// readFirstStore is a memstore that reads before its Updates, as bbolt
// does (it is no payments.UpdateReader), runs every Update's function
// twice (the first run rolled back), and marks the transactions running
// on it for the operation whose context carries a txnMark, so that a
// RateSource asked with that context can tell whether it was asked from
// one of them (the engine's workers' transactions run beside it with
// contexts of their own).
type readFirstStore struct {
	*memstore.Store
}

// txnMark is the context key of an opMark.
type txnMark struct{}

// opMark counts the store transactions of the operations of a context
// that carries it: running now, and run in all.
type opMark struct{ running, ran atomic.Int32 }

// enter marks a transaction of ctx's operations running, and returns its
// end.
func enter(ctx context.Context) func() {
	m, ok := ctx.Value(txnMark{}).(*opMark)
	if !ok {
		return func() {}
	}
	m.running.Add(1)
	m.ran.Add(1)
	return func() { m.running.Add(-1) }
}

func (*readFirstStore) ReadsInUpdate() bool { return false }

var errFirstRun = errors.New("first run discarded")

func (s *readFirstStore) Update(ctx context.Context, fn func(payments.Tx) error) error {
	marked := func(tx payments.Tx) error {
		defer enter(ctx)()
		return fn(tx)
	}
	err := s.Store.Update(ctx, func(tx payments.Tx) error {
		if err := marked(tx); err != nil {
			return err
		}
		return errFirstRun
	})
	if !errors.Is(err, errFirstRun) {
		return err
	}
	return s.Store.Update(ctx, marked)
}

func (s *readFirstStore) View(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.View(ctx, func(tx payments.Tx) error {
		defer enter(ctx)()
		return fn(tx)
	})
}

// txnProbeRates answers 1.25 and counts the calls made while a
// transaction of the asking operation ran (txnMark).
type txnProbeRates struct {
	calls, inTxn atomic.Int32
}

func (r *txnProbeRates) Rate(ctx context.Context, _, _ string) (money.Rate, error) {
	r.calls.Add(1)
	if m, ok := ctx.Value(txnMark{}).(*opMark); ok && m.running.Load() > 0 {
		r.inTxn.Add(1)
	}
	return money.MustRate("1.25"), nil
}

// TestRates_NeverAskedInATransaction: on a store where a quote is priced
// in a read transaction before its write (bbolt), a rate the cache lacks
// is fetched outside every transaction too, and the quote priced again
// with it; a write the store runs twice stores the quote priced once, and
// an idempotent retry replays it.
func TestRates_NeverAskedInATransaction(t *testing.T) {
	store := &readFirstStore{Store: memstore.New()}
	src := &txnProbeRates{}
	e := enginetest.MoneyEnv(t, func(c *payments.Config) { c.Store, c.Rates = store, src })
	_, acct, payee := e.EUCustomer(t, 100_000)
	var mark opMark
	ctx := context.WithValue(ctx, txnMark{}, &mark)
	for _, execute := range []bool{false, true, false} {
		q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(acct, payee, 10_000, execute))
		require.NoError(t, err)
		assert.EqualValues(t, 8000, q.TotalReceivingAmount, "10000 cents at 1.25 USD per EUR")
		got, err := e.Eng.Quotes.Get(ctx, q.ID)
		require.NoError(t, err)
		assert.Equal(t, q.Status, got.Status)
		assert.Equal(t, q.TotalSendingAmount, got.TotalSendingAmount)
	}
	keyed, err := e.Eng.WithIdempotency(payments.Idempotency{Scope: "POST /quotes", Key: "k1"})
	require.NoError(t, err)
	first, err := keyed.Quotes.Create(ctx, enginetest.Transfer(acct, payee, 5_000, false))
	require.NoError(t, err)
	keyed, err = e.Eng.WithIdempotency(payments.Idempotency{Scope: "POST /quotes", Key: "k1"})
	require.NoError(t, err)
	again, err := keyed.Quotes.Create(ctx, enginetest.Transfer(acct, payee, 5_000, false))
	require.NoError(t, err)
	assert.Equal(t, first.ID, again.ID, "the retry replays the quote")
	assert.EqualValues(t, 1, src.calls.Load(), "fetched once, then cached")
	assert.Zero(t, src.inTxn.Load(), "never from a transaction")
	assert.Positive(t, mark.ran.Load(), "the operations' transactions were marked")
}
