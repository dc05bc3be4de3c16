// Package engine is the kernel every area of the payments platform runs
// on: how one operation runs (transactions, idempotency, intents, events),
// where its records live (the store port, indexes, lists and cursors, the
// ledger) and the background work that follows a commit (due work, intent
// hand-overs, webhook delivery, claims among processes). It is internal:
// programs use the root facade, package payments, which re-exports what
// they see (Store, Error and the codes, Page, ListParams, Event...) as
// aliases.
//
// # It names no area
//
// The kernel imports only the leaves (money, validate) and knows no area:
// no table, event type or intent kind of one is spelled here. Areas tell
// it what they keep and run through registries (AreaDef), filled once at
// New, and the kernel iterates what was registered. This is what lets an
// area be read and changed alone (ARCHITECTURE.md, "The areas");
// the root's import test keeps the direction.
//
// # How one operation runs
//
// An area's operation runs on a *Handle, the engine's shared core plus, on
// a handle made by WithIdempotency, the client's idempotency key. A read is
// Handle.View; a write is one read-write transaction, Handle.Update, which
// commits fn's writes atomically and then hands over the intents it wrote.
// Most writes go through Once, which adds idempotency in that same
// transaction: with a key, the answer (or a client error) is recorded
// beside the changes, and a retry with the same key and request replays
// it instead of running; another request under the key is CONFLICT; a
// request that never committed simply runs. Replay answers a retry before
// the operation gathers anything from the outside world; KeyedID names the
// record an operation will create from the key, for providers asked to act
// before the transaction. Keep marks a refusal whose writes must still commit, such as a quote found
// expired and marked so.
//
// A transaction function must be deterministic and retryable: a store may
// run it more than once (optimistic concurrency, serialization retries,
// group commit). It does no I/O, and reads the clock and draws ids only
// from values fixed before the transaction: Txn.Now is the operation's
// clock reading, and Txn.NewID derives the operation's ids from one UUID
// drawn before it, so every run sees the same time and the same ids.
// Handle.NewID and Handle.Now serve the code outside the transaction. Per
// transaction state an area needs (drafts, a configuration decoded once)
// hangs off a Local key and starts afresh on every run.
//
// An area declares each operation (Op) and runs it with Run, which
// observes it, validates, replays, prefetches outside every transaction,
// decides in one, and answers:
//
//	var renameWidget = engine.Op[renaming, *Widget, struct{}]{Area: "widgets", Name: "Rename",
//		Decide: func(t *engine.Txn, in *renaming, _ *struct{}) (*Widget, error) {
//			var w Widget
//			if err := engine.GetJSON(t, tableWidgets, in.id, &w); err != nil {
//				return nil, engine.NotFound(err, engine.CodeNotFound, "widget", in.id)
//			}
//			w.Name, w.UpdatedAt = in.name, t.Now
//			if err := t.Emit("WIDGET.UPDATED", &w); err != nil {
//				return nil, err
//			}
//			return &w, engine.PutJSON(t, tableWidgets, in.id, &w)
//		}}
//
//	func (s Service) Rename(ctx context.Context, id, name string) (*Widget, error) {
//		return engine.Run(ctx, s.h, renameWidget, renaming{id, name})
//	}
//
// # Registries
//
// New returns a handle with nothing registered; Register adds each area's
// AreaDef (after the kernel's own tables) and builds the indexes a store
// written by another version lacks; Run starts the workers and Close stops
// them. What an AreaDef declares (tables, due work, intent kinds, delivery
// hooks, passes, state) is listed in ARCHITECTURE.md, "How the kernel
// works", with the rest of the kernel's workings: records, indexes and
// lists, the ledger, intents, due work, the outbox and its delivery
// worker, several processes, observation, errors and encoders.
//
//	h := engine.New(engine.Config{Store: store, IdempotencyRetention: 24 * time.Hour})
//	if err := h.Register(ctx, widgets.Area(h)); err != nil { ... }
//	h.Run()
//	defer h.Close()
package engine
