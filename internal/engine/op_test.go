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

// TestRun_Refetches: an operation may declare how often its decision
// sends Run back to Prefetch (Unbounded: as long as it reports Missing);
// a Prefetch that reports Missing itself (the operation it handed the work
// to found the state moved) is called again with its error; and every
// rerun is the same keyed write, recorded under the call it began with,
// whatever writes rolled back in between.
func TestRun_Refetches(t *testing.T) {
	e := enginetest.NewEnv(t)
	h := engine.HandleOf(e.Eng.Webhooks)

	t.Run("unbounded refetching decides until nothing is missing", func(t *testing.T) {
		var c echoCalls
		op := echoOp(&c, 10)
		op.Refetches = engine.Unbounded
		out, err := engine.Run(ctx, h, op, echoIn{Word: "hi"})
		require.NoError(t, err)
		assert.Equal(t, "[hi]", out)
		assert.Equal(t, echoCalls{prefetch: 11, decide: 11, answer: 1}, c)
	})
	t.Run("a declared bound", func(t *testing.T) {
		var c echoCalls
		op := echoOp(&c, 10)
		op.Refetches = 4
		_, err := engine.Run(ctx, h, op, echoIn{Word: "hi"})
		require.Error(t, err)
		assert.Equal(t, 5, c.prefetch, "the first fetch and four more")
		assert.Equal(t, 5, c.decide)
	})

	// movedOp hands its work to a keyed write (inner) from Prefetch; the
	// inner write rolls back reporting the state moved the first `moves`
	// times, and then Prefetch leaves the decision to its own write.
	errMoved := errors.New("the state moved")
	var inner = engine.Op[echoIn, string, struct{}]{Area: "test", Name: "Inner",
		Decide: func(*engine.Txn, *echoIn, *struct{}) (string, error) { return "", errMoved },
	}
	movedOp := func(prefetches *int, moves int) engine.Op[echoIn, string, string] {
		return engine.Op[echoIn, string, string]{Area: "test", Name: "Moved", Refetches: engine.Unbounded,
			Prefetch: func(ctx context.Context, e *engine.Handle, in *echoIn, f *string, missed error) error {
				*prefetches++
				if *prefetches <= moves {
					_, err := engine.Run(ctx, e, inner, *in)
					require.ErrorIs(t, err, errMoved)
					return engine.Missing(err)
				}
				if !errors.Is(missed, errMoved) {
					return errors.New("prefetch got another error")
				}
				*f = "moved " + in.Word
				return nil
			},
			Decide: func(t *engine.Txn, _ *echoIn, f *string) (string, error) {
				return *f, t.Put("test_words", *f, []byte(*f))
			},
		}
	}
	t.Run("a prefetch that reports missing is called again, as the same keyed write", func(t *testing.T) {
		k, err := h.WithIdempotency(engine.Idempotency{Scope: "test", Key: "moved"})
		require.NoError(t, err)
		n := 0
		out, err := engine.Run(ctx, k, movedOp(&n, 3), echoIn{Word: "w"})
		require.NoError(t, err)
		assert.Equal(t, "moved w", out)
		assert.Equal(t, 4, n)
		k, err = h.WithIdempotency(engine.Idempotency{Scope: "test", Key: "moved"})
		require.NoError(t, err)
		n = 0
		out, err = engine.Run(ctx, k, movedOp(&n, 3), echoIn{Word: "w"})
		require.NoError(t, err)
		assert.Equal(t, "moved w", out)
		assert.True(t, k.ReplayedLast(), "recorded under the key's first call")
		assert.Zero(t, n, "replayed before the prefetch")
	})
	t.Run("a missing decision of a keyed write is recorded under the key's call it began with", func(t *testing.T) {
		k, err := h.WithIdempotency(engine.Idempotency{Scope: "test", Key: "second"})
		require.NoError(t, err)
		var c echoCalls
		_, err = engine.Run(ctx, k, echoOp(&c, 0), echoIn{Word: "first"})
		require.NoError(t, err)
		c = echoCalls{}
		op := echoOp(&c, 3)
		op.Refetches = engine.Unbounded
		_, err = engine.Run(ctx, k, op, echoIn{Word: "second"})
		require.NoError(t, err)
		k, err = h.WithIdempotency(engine.Idempotency{Scope: "test", Key: "second"})
		require.NoError(t, err)
		for _, w := range []string{"first", "second"} {
			c = echoCalls{}
			out, err := engine.Run(ctx, k, echoOp(&c, 0), echoIn{Word: w})
			require.NoError(t, err)
			assert.Equal(t, "["+w+"]", out)
			assert.True(t, k.ReplayedLast(), w)
		}
	})
}

// TestRun_ReadFingerprint: a keyed write whose fingerprint depends on what
// is stored reads it before its recorded answer is looked for: a repeat
// under the key replays when the stored fingerprint is the same and is
// CONFLICT when it changed; without a stored one nothing is replayed and
// the decision answers.
func TestRun_ReadFingerprint(t *testing.T) {
	e := enginetest.NewEnv(t)
	h := engine.HandleOf(e.Eng.Webhooks)
	set := engine.Op[[2]string, struct{}, struct{}]{Area: "test", Name: "Set", Access: engine.Unkeyed,
		Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (struct{}, error) {
			return struct{}{}, t.Put("test_kinds", in[0], []byte(in[1]))
		}}
	decided := 0
	op := engine.Op[string, string, struct{}]{Area: "test", Name: "Kinded",
		ReadFingerprint: func(t *engine.Txn, in *string) (any, error) {
			kind, err := t.Get("test_kinds", *in)
			return []any{string(kind), *in}, err
		},
		Decide: func(t *engine.Txn, in *string, _ *struct{}) (string, error) {
			decided++
			kind, err := t.Get("test_kinds", *in)
			return string(kind) + " " + *in, err
		}}
	keyed := func() *engine.Handle {
		k, err := h.WithIdempotency(engine.Idempotency{Scope: "test", Key: "kinded"})
		require.NoError(t, err)
		return k
	}
	_, err := engine.Run(ctx, keyed(), op, "x")
	require.ErrorIs(t, err, engine.ErrNotFound, "no fingerprint stored: the decision answers")
	assert.Equal(t, 1, decided)

	_, err = engine.Run(ctx, h, set, [2]string{"x", "red"})
	require.NoError(t, err)
	out, err := engine.Run(ctx, keyed(), op, "x")
	require.NoError(t, err)
	assert.Equal(t, "red x", out)
	k := keyed()
	out, err = engine.Run(ctx, k, op, "x")
	require.NoError(t, err)
	assert.Equal(t, "red x", out)
	assert.True(t, k.ReplayedLast())
	assert.Equal(t, 2, decided)

	_, err = engine.Run(ctx, h, set, [2]string{"x", "blue"})
	require.NoError(t, err)
	_, err = engine.Run(ctx, keyed(), op, "x")
	enginetest.RequireCode(t, err, payments.CodeConflict)
	assert.Equal(t, 2, decided, "the stored fingerprint changed: CONFLICT before deciding")
}
