package engine_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/require"
)

// TestTxn_AtEnd: functions registered with AtEnd run after the operation's
// function, in order (those they register after them), see its writes, and
// commit with it; an error from one rolls the whole transaction back.
func TestTxn_AtEnd(t *testing.T) {
	e := enginetest.NewEnv(t)
	h := engine.HandleOf(e.Eng.Webhooks)
	const table = "due_retry" // any registered table
	var order []string
	answered := ""
	err := h.Update(ctx, func(t *engine.Txn) error {
		order = order[:0]
		t.AtEnd(func(t *engine.Txn) error {
			b, err := t.Get(table, "k")
			if err != nil {
				return err
			}
			order = append(order, "first saw "+string(b))
			t.AtEnd(func(t *engine.Txn) error {
				order = append(order, "registered by first")
				return t.Put(table, "k", []byte("settled"))
			})
			return nil
		})
		t.AtEnd(func(*engine.Txn) error { order = append(order, "second"); return nil })
		if err := t.Put(table, "k", []byte("sent")); err != nil {
			return err
		}
		b, _ := t.Get(table, "k")
		answered = string(b) // what the operation answers: before AtEnd
		order = append(order, "operation")
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, []string{"operation", "first saw sent", "second", "registered by first"}, order)
	require.Equal(t, "sent", answered)
	var stored []byte
	require.NoError(t, h.View(ctx, func(tx *engine.Txn) (err error) {
		stored, err = tx.Get(table, "k")
		return err
	}))
	require.Equal(t, "settled", string(stored), "AtEnd's writes commit with the operation")

	boom := errors.New("boom")
	err = h.Update(ctx, func(t *engine.Txn) error {
		t.AtEnd(func(*engine.Txn) error { return boom })
		return t.Put(table, "k2", []byte("x"))
	})
	require.ErrorIs(t, err, boom)
	err = h.View(ctx, func(tx *engine.Txn) error {
		_, err := tx.Get(table, "k2")
		return err
	})
	require.ErrorIs(t, err, engine.ErrNotFound, "an AtEnd error rolls the operation back")
}
