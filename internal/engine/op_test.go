package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/validate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echoIn is the request of the operations TestRun declares.
type echoIn struct {
	Word string `json:"word"`
}

// echoCalls counts what Run called of an echo operation.
type echoCalls struct{ prefetch, decide, answer int }

// echoOp declares an operation that answers its word upper-cased by the
// prefetch, after decide reported the prefetch missing `misses` times.
func echoOp(c *echoCalls, misses int) engine.Op[echoIn, string, string] {
	errMissing := errors.New("the word is not fetched yet")
	return engine.Op[echoIn, string, string]{Area: "test", Name: "Echo",
		Validate: func(in *echoIn) error {
			var fe validate.Errors
			fe.Required("word", in.Word)
			return engine.Invalid(fe.Err())
		},
		Prefetch: func(_ context.Context, _ *engine.Handle, in *echoIn, f *string, missed error) error {
			c.prefetch++
			if missed != nil {
				if !errors.Is(missed, errMissing) {
					return errors.New("prefetch got another error")
				}
				*f = "[" + in.Word + "]"
			}
			return nil
		},
		Decide: func(t *engine.Txn, in *echoIn, f *string) (string, error) {
			c.decide++
			if *f == "" || c.decide <= misses {
				return "", engine.Missing(errMissing)
			}
			return *f, nil
		},
		Answer: func(_ *engine.Handle, _ *echoIn, _ *string, out string, err error) (string, error) {
			c.answer++
			return out, err
		},
	}
}

// TestRun: the runner validates before anything, sends a decision that
// reports a prefetch missing back to Prefetch (a bounded number of times),
// replays a keyed write's recorded answer without prefetching or deciding,
// and skips the transaction when Prefetch settles the answer.
func TestRun(t *testing.T) {
	e := enginetest.NewEnv(t)
	h := engine.HandleOf(e.Eng.Webhooks)

	t.Run("an invalid request stops before the prefetch", func(t *testing.T) {
		var c echoCalls
		_, err := engine.Run(ctx, h, echoOp(&c, 0), echoIn{})
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "word")
		assert.Equal(t, echoCalls{}, c)
	})
	t.Run("a missing prefetch is fetched and the decision made again", func(t *testing.T) {
		var c echoCalls
		out, err := engine.Run(ctx, h, echoOp(&c, 1), echoIn{Word: "hi"})
		require.NoError(t, err)
		assert.Equal(t, "[hi]", out)
		assert.Equal(t, echoCalls{prefetch: 2, decide: 2, answer: 1}, c)
	})
	t.Run("refetching is bounded", func(t *testing.T) {
		var c echoCalls
		_, err := engine.Run(ctx, h, echoOp(&c, 100), echoIn{Word: "hi"})
		require.Error(t, err)
		assert.Equal(t, 3, c.prefetch, "the first fetch and two more")
		assert.Equal(t, 3, c.decide)
	})
	t.Run("a keyed write replays its recorded answer", func(t *testing.T) {
		k, err := h.WithIdempotency(engine.Idempotency{Scope: "test", Key: "k"})
		require.NoError(t, err)
		var c echoCalls
		out, err := engine.Run(ctx, k, echoOp(&c, 1), echoIn{Word: "once"})
		require.NoError(t, err)
		assert.Equal(t, "[once]", out)
		k, err = h.WithIdempotency(engine.Idempotency{Scope: "test", Key: "k"})
		require.NoError(t, err)
		c = echoCalls{}
		out, err = engine.Run(ctx, k, echoOp(&c, 0), echoIn{Word: "once"})
		require.NoError(t, err)
		assert.Equal(t, "[once]", out)
		assert.True(t, k.ReplayedLast())
		assert.Equal(t, echoCalls{answer: 1}, c, "replayed: neither prefetched nor decided")
	})
	t.Run("a settled prefetch runs no transaction", func(t *testing.T) {
		decided := false
		op := engine.Op[echoIn, string, string]{Area: "test", Name: "Cached", Access: engine.Read,
			Prefetch: func(_ context.Context, _ *engine.Handle, in *echoIn, f *string, _ error) error {
				*f = "cached " + in.Word
				return engine.Settled
			},
			Decide: func(*engine.Txn, *echoIn, *string) (string, error) { decided = true; return "", nil },
			Answer: func(_ *engine.Handle, _ *echoIn, f *string, _ string, err error) (string, error) { return *f, err },
		}
		out, err := engine.Run(ctx, h, op, echoIn{Word: "x"})
		require.NoError(t, err)
		assert.Equal(t, "cached x", out)
		assert.False(t, decided)
	})
}

// TestRun_ContendedFromPrefetch: an operation without Read names the
// records it contends on from what Prefetch gathered, and the store's
// Update is told them.
func TestRun_ContendedFromPrefetch(t *testing.T) {
	probe := &enginetest.Probe{Store: memstore.New()}
	e := enginetest.NewEnv(t, func(c *payments.Config) { c.Store = probe })
	h := engine.HandleOf(e.Eng.Webhooks)
	hot := engine.RecordKey{Table: "balances", Key: "acct"}
	op := engine.Op[echoIn, string, string]{Area: "test", Name: "Hot", Access: engine.Write,
		Prefetch: func(_ context.Context, _ *engine.Handle, in *echoIn, f *string, _ error) error {
			*f = in.Word
			return nil
		},
		Contended: func(_ *echoIn, f *string) []engine.RecordKey {
			return []engine.RecordKey{{Table: hot.Table, Key: *f}}
		},
		Decide: func(*engine.Txn, *echoIn, *string) (string, error) { return "ok", nil },
	}
	_, err := engine.Run(ctx, h, op, echoIn{Word: "acct"})
	require.NoError(t, err)
	assert.Equal(t, []engine.RecordKey{hot}, probe.Contended())
}
