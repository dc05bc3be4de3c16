package payments_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ctx is the context of the tests' engine calls.
var ctx = context.Background()

func TestNew_RequiresStore(t *testing.T) {
	_, err := payments.New(payments.Config{})
	assert.Error(t, err)
	_, err = payments.New(payments.Config{Store: memstore.New(), IdempotencyRetention: -time.Second})
	assert.Error(t, err)
}

// jsonOf is v as JSON, the form an answer is recorded and replayed in.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// idem returns a handle of eng for one request with key.
func idem(t testing.TB, eng *payments.Engine, key string) *payments.Engine {
	t.Helper()
	h, err := eng.WithIdempotency(payments.Idempotency{Scope: "test", Key: key})
	require.NoError(t, err)
	return h
}

func TestEngine_WithIdempotency(t *testing.T) {
	e := enginetest.MoneyEnv(t)
	acct := e.USDAccount(t, "Idem Payer")
	balance := func() int64 {
		t.Helper()
		v, err := e.Eng.Accounts.Internal(ctx, acct)
		require.NoError(t, err)
		return v.Balance.Amount
	}

	h1 := idem(t, e.Eng, "k1")
	first, err := h1.Sandbox.Fund(ctx, acct, 500)
	require.NoError(t, err)
	assert.False(t, h1.Replayed())
	h2 := idem(t, e.Eng, "k1")
	again, err := h2.Sandbox.Fund(ctx, acct, 500)
	require.NoError(t, err)
	assert.True(t, h2.Replayed())
	assert.Equal(t, jsonOf(t, first), jsonOf(t, again), "a replay returns the first answer")
	assert.EqualValues(t, 500, balance(), "money moved once")

	t.Run("ErrConflict on another request", func(t *testing.T) {
		_, err := idem(t, e.Eng, "k1").Sandbox.Fund(ctx, acct, 501)
		enginetest.RequireCode(t, err, payments.CodeConflict)
		assert.EqualValues(t, 500, balance())
	})
	t.Run("ErrInvalidInput on a long key", func(t *testing.T) {
		_, err := e.Eng.WithIdempotency(payments.Idempotency{Key: strings.Repeat("k", 256)})
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "Idempotency-Key")
	})
	t.Run("scopes are separate", func(t *testing.T) {
		h, err := e.Eng.WithIdempotency(payments.Idempotency{Scope: "other", Key: "k1"})
		require.NoError(t, err)
		_, err = h.Sandbox.Fund(ctx, acct, 500)
		require.NoError(t, err)
		assert.False(t, h.Replayed())
		assert.EqualValues(t, 1000, balance())
	})
	t.Run("a request that did not commit runs when retried", func(t *testing.T) {
		_, err := idem(t, e.Eng, "k-missing").Sandbox.Fund(ctx, "InternalAccount:nope", 1)
		enginetest.RequireCode(t, err, payments.CodeAccountNotFound)
		h := idem(t, e.Eng, "k-missing")
		_, err = h.Sandbox.Fund(ctx, "InternalAccount:nope", 1)
		enginetest.RequireCode(t, err, payments.CodeAccountNotFound)
		assert.False(t, h.Replayed())
	})
	t.Run("a refusal that committed is replayed", func(t *testing.T) {
		dest := e.USDAccount(t, "Idem Payee")
		q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(acct, dest, 100, false))
		require.NoError(t, err)
		e.Clock.Advance(time.Hour)
		_, err = idem(t, e.Eng, "k-expired").Quotes.Execute(ctx, q.ID)
		enginetest.RequireCode(t, err, payments.CodeQuoteExpired)
		h := idem(t, e.Eng, "k-expired")
		_, err = h.Quotes.Execute(ctx, q.ID)
		enginetest.RequireCode(t, err, payments.CodeQuoteExpired)
		assert.True(t, h.Replayed())
	})
	t.Run("keys expire after the retention", func(t *testing.T) {
		e.Clock.Advance(24*time.Hour + time.Second)
		_, err := e.Eng.ProcessDue(ctx)
		require.NoError(t, err)
		h := idem(t, e.Eng, "k1")
		_, err = h.Sandbox.Fund(ctx, acct, 7)
		require.NoError(t, err)
		assert.False(t, h.Replayed())
		assert.EqualValues(t, 1007, balance())
	})
}

// TestEngine_WithIdempotency_Concurrent: 50 concurrent requests with one key
// move money once and all get the first answer.
func TestEngine_WithIdempotency_Concurrent(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			src, dst := e.USDAccount(t, "Payer"), e.USDAccount(t, "Payee")
			_, err := e.Eng.Sandbox.Fund(ctx, src, 1000)
			require.NoError(t, err)
			var mu sync.Mutex
			var answers []*payments.Quote
			codes := enginetest.Concurrently(50, func() error {
				q, err := idem(t, e.Eng, "pay-once").Quotes.Create(ctx, enginetest.Transfer(src, dst, 1000, true))
				if err == nil {
					mu.Lock()
					answers = append(answers, q)
					mu.Unlock()
				}
				return err
			})
			assert.Equal(t, map[payments.Code]int{"": 50}, codes)
			for _, q := range answers {
				assert.Equal(t, answers[0].ID, q.ID)
			}
			v, err := e.Eng.Accounts.Internal(ctx, src)
			require.NoError(t, err)
			assert.Zero(t, v.Balance.Amount)
			require.NoError(t, payments.CheckLedger(ctx, e.Store))
		})
	}
}
