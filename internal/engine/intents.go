package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Side effects as intents. A transaction that must act on the world (hand
// a payment to the rail, deliver a one-time code) writes an intent
// (TableIntents) instead of acting; after commit the engine hands it over
// (Dispatch), and a worker hands over whatever is left after an error or a
// crash, at least once. An intent's id is "<kind>:<id>"; its kind, which
// an area registers (IntentKind), carries it out.

// TableIntents holds the intents not yet carried out: intent id ->
// {"<kind>": value}.
const TableIntents = "intents"

// dispatchTimeout bounds one hand-over made right after commit; one slower
// than that is left to the worker.
const dispatchTimeout = 10 * time.Second

// IntentKind carries out the intents of one kind.
type IntentKind struct {
	// Name is the kind: the prefix of its intents' ids, and the one member
	// of their stored record, {"<name>": value}.
	Name string
	// Record returns a new value of the member's type; a sandbox import
	// checks stored intents with it.
	Record func() any
	// HandOver carries out one intent. A nil error means it was carried
	// out, and the intent is removed; an error leaves it for the worker,
	// which retries with backoff and then parks it in the dead letters.
	// It runs outside any transaction, may block on the network, and may
	// run again for an intent it already carried out (a crash before the
	// removal), so the provider it calls must be idempotent on h.ID.
	HandOver func(ctx context.Context, h *Handover) error
}

// Handover is one intent being carried out.
type Handover struct {
	// ID is the intent's id, "<kind>:<id>": the idempotency key to give a
	// provider.
	ID    string
	Value []byte // the intent as stored
	// Follow collects the intents the hand-over set in motion (a rail's
	// report that starts another payment); they are handed over next.
	Follow *[]string
	// Taken reports that a transaction of the hand-over removed the
	// intent itself (TakeIntent), so it was carried out whatever HandOver
	// returns.
	Taken bool
}

// intentCheck checks an intent record of a sandbox import: each member
// must decode into the value of its kind (members of no registered kind
// are ignored, as decoding into a record type ignores unknown members).
type intentCheck struct{ r *Registry }

// UnmarshalJSON checks b as intentCheck says; it keeps nothing.
func (c intentCheck) UnmarshalJSON(b []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	for name, raw := range members {
		if k := c.r.intents[name]; k != nil {
			if err := json.Unmarshal(raw, k.Record()); err != nil {
				return err
			}
		}
	}
	return nil
}

// Intend records that the intent id, stored as b ({"<kind>": value}), is
// to be carried out after commit. An intent of a transaction that rolls
// back never existed; one that commits is carried out at least once.
func (t *Txn) Intend(id string, b []byte) error {
	if err := t.Put(TableIntents, id, b); err != nil {
		return err
	}
	t.intents = append(t.intents, id)
	return nil
}

// WithdrawIntent removes an intent not yet carried out, and reports whether
// there was one: an operation that makes a side effect moot (a pull
// returned before its payout was handed to the rail) withdraws it in its
// own transaction, and learns whether the side effect already happened.
func (t *Txn) WithdrawIntent(id string) (bool, error) {
	err := t.Delete(TableIntents, id)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// maxDispatch bounds the intents one dispatch hands over (a payment's
// outcomes may start others, such as a collected pull its payout).
const maxDispatch = 64

// Dispatch carries out the intents of ids, and those they set in motion,
// within dispatchTimeout and maxDispatch; what is left is the worker's.
// One that fails is retried by the worker with backoff, then parked in the
// dead letters. It returns nothing: the operation that wrote the intents
// committed, whatever the hand-over does.
func (e *Handle) Dispatch(ctx context.Context, ids []string) {
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, dispatchTimeout)
	defer cancel()
	for n := 0; len(ids) > 0 && n < maxDispatch && ctx.Err() == nil; n++ {
		id := ids[0]
		ids = ids[1:]
		hctx, sp := ctx, (*span)(nil)
		if e.obs != nil {
			kind, _, _ := strings.Cut(id, ":")
			hctx, sp = e.startWork(ctx, Work{Kind: WorkHandOver, Name: kind, ID: id})
		}
		err := e.handOver(hctx, id, &ids)
		if err != nil {
			e.DueFailed(context.WithoutCancel(hctx), TableIntents, id, err)
		}
		if sp != nil {
			sp.end(handOverOutcome(err), err)
		}
	}
}

// handOverOutcome is the Outcome of a hand-over that returned err.
func handOverOutcome(err error) string {
	if err != nil {
		return "failed"
	}
	return "ok"
}

// handOver carries out one waiting intent through its kind and, once it
// was carried out, removes it. An intent already carried out or withdrawn
// is skipped.
func (e *Handle) handOver(ctx context.Context, id string, follow *[]string) error {
	var b []byte
	err := e.View(ctx, func(t *Txn) error {
		var err error
		b, err = t.Get(TableIntents, id)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	name, _, _ := strings.Cut(id, ":")
	kind := e.Registry.intents[name]
	if kind == nil {
		return fmt.Errorf("payments: intent %s is of no registered kind", id)
	}
	h := &Handover{ID: id, Value: b, Follow: follow}
	err = kind.HandOver(ctx, h)
	if h.Taken {
		// A transaction of the hand-over removed the intent: it was
		// carried out (a rail that reported on a payment took it),
		// whatever it answered after.
		if err != nil {
			e.Log.InfoContext(ctx, "intent failed after it was taken", "intent", id, "err", err)
		}
		return nil
	}
	if err != nil {
		return err
	}
	return e.Update(ctx, func(t *Txn) error { return t.TakeIntent(id) })
}

// TakeIntent removes the intent id, carried out, with its backoff record.
func (t *Txn) TakeIntent(id string) error {
	if _, err := t.WithdrawIntent(id); err != nil {
		return err
	}
	if err := t.Delete(TableDueRetry, TableIntents+"\x00"+id); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// handOverPending hands the waiting intents whose backoff has passed over;
// the intent worker and ProcessDue call it. It returns how many were taken.
func (e *Handle) handOverPending(ctx context.Context) (int, error) {
	now := e.Now()
	var ids []string
	err := e.View(ctx, func(t *Txn) error {
		return t.Scan(TableIntents, ScanOptions{}, func(k string, _ []byte) (bool, error) {
			var r DueRetry
			if err := GetJSON(t, TableDueRetry, TableIntents+"\x00"+k, &r); err == nil && r.NextAttemptAt.After(now) {
				return true, nil // backing off
			}
			ids = append(ids, k)
			return len(ids) < dueBatch, nil
		})
	})
	if err != nil {
		return 0, err
	}
	// With several processes on one store, hand over only the intents this
	// one claimed (claims.go).
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = "intent/" + id
	}
	mine, err := ClaimWork(e, ctx, names)
	if err != nil {
		return 0, err
	}
	defer ReleaseWork(e, mine)
	if mine != nil {
		ids = slices.DeleteFunc(ids, func(id string) bool { return !mine["intent/"+id] })
	}
	e.Dispatch(ctx, ids)
	taken := 0
	err = e.View(ctx, func(t *Txn) error {
		for _, id := range ids {
			if _, err := t.Get(TableIntents, id); errors.Is(err, ErrNotFound) {
				taken++
			} else if err != nil {
				return err
			}
		}
		return nil
	})
	return taken, err
}
