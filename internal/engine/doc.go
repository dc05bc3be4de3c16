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
// before the transaction. Keep (and Keeping, for code not yet declared)
// marks a refusal whose writes must still commit, such as a quote found
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
// them. An AreaDef declares:
//
//   - Tables (TableDef): every table the area keeps, with its record type
//     (a sandbox import decodes every record with it), its secondary
//     indexes (Indexed), whether it holds credentials, and how its
//     records look as rows of a relational store (Rows, rows.go);
//   - Due (DueWork): tables of work due on the engine clock and how one
//     item applies; they run in registration order;
//   - Intents (IntentKind): the kinds of side effect the area writes and
//     how each is carried out;
//   - Hooks (DeliveryHooks): what webhook delivery asks of an area (the
//     endpoint, the answers it reads, event types delivered at most once);
//   - Passes: work run after the due tables on every due-work pass;
//   - State: the area's configuration and caches, one value per engine
//     under a Slot key (Slot.With installs it, Slot.Of reads it).
//
// A table, intent kind or hook declared twice panics at registration: it is
// a programming error, found when the engine starts.
//
//	h := engine.New(engine.Config{Store: store, IdempotencyRetention: 24 * time.Hour})
//	if err := h.Register(ctx, widgets.Area(h)); err != nil { ... }
//	h.Run()
//	defer h.Close()
//
// # Records, indexes, lists and cursors
//
// The Store port is small (store.go): closure transactions over ordered
// tables of bytes, with point reads, writes, conditional inserts and
// ordered range scans; storage/storetest pins its contract. Values a store
// returns are read-only on both sides. GetJSON, PutJSON and InsertJSON
// encode records, and PutJSON, InsertJSON and Txn.Delete keep the record's
// index entries in the same transaction (index.go). Every list reads one
// index a page at a time (List, ListQuery, Narrowest), so a page costs
// O(limit + log n) whatever the table's size; its cursor is opaque, names
// the list it was made for, and resumes after the last entry examined, so
// concurrent inserts never cause gaps or repeats. TotalCount is set only
// when the first page holds every match.
//
// # The ledger
//
// Money moves as balanced entries posted in the operation's transaction:
// PostEntry (and PostOverdraftEntry for a debt booked as a negative
// balance) builds the entry, and Post checks it with money.CheckBalanced,
// updates every balance and refuses to take a non-external account below
// zero (INSUFFICIENT_FUNDS), writing the journal entry with it.
// internal/ledger.Check replays the journal and verifies every stored balance, that
// each currency sums to zero and that no account is negative without an
// overdraft entry; tests run it after every scenario.
//
// # Intents and their hand-over
//
// A transaction never acts on the world: it writes an intent
// (Txn.Intend), a record of the side effect to carry out, in the intents
// table (TableIntents). After commit, Update
// hands the operation's intents over (Dispatch) through their IntentKind;
// one that fails, or that a crash left behind, is handed over by the
// intent worker with backoff, and parked in the dead letters after
// MaxDueAttempts. A kind's hand-over must be idempotent on the intent's id:
// it may run more than once.
//
// # Due work
//
// Each due item applies in its own transaction, judged by its due time
// (DueKey), not by when the worker ran. An item that fails is retried with
// backoff (DueRetry) and then parked in the dead letters (DeadLetter) with
// its reason; it never blocks another item. ProcessDue runs what is due
// now at once (tests, the sandbox clock); NextDueAfter (and
// internal/duesnap) tell a test clock where to stop.
//
// # The outbox and its delivery worker
//
// Txn.Emit writes an event to the outbox in the operation's transaction,
// so it exists only if the change committed. The delivery worker, woken by
// every commit that emitted, delivers due events in order to the Notifier
// (or to the platform's endpoint through a WebhookSender), then records
// all outcomes in one commit: a delivered event leaves the outbox (and
// enters the history with Config.EventHistory), a failed one is retried
// under the RetryPolicy and finally dead-lettered. The ports events leave
// through, the RetryPolicy and how a failed try is told are the leaf
// internal/outbound's. Delivery is at least
// once: receivers dedupe on Event.ID. A pass reads the outbox from its
// start, past the events waiting in backoff (scanDue says why no index of
// next attempts is kept). Webhook delivery, due work and
// intent hand-overs run on separate workers, so a slow endpoint never
// delays settlement. Webhooks is the operators' group over all of it.
// The history keeps an event for Config.EventHistoryRetention after its
// delivery ended; a pass of the due-work worker removes older ones, found
// through the history's index of when their delivery ended
// (event_retention.go).
// Events that would reach no one (an EndpointOnly Notifier while no
// endpoint is configured) skip the outbox: they are not written, or, with
// Config.EventHistory, enter the history delivered in the commit itself.
//
// # Several processes
//
// A store shared by several engine processes implements Claimer: before a
// process applies a due item or hands an intent over it claims a lease
// named for the item, and before a pass of webhook deliveries one on the
// outbox (one process delivers at a time); it works only on what it got.
// Leases expire (leaseTTL), so a dead process's work moves on. Claims spare
// duplicate work; correctness still rests on each item's own transaction
// (an item applied twice finds itself gone), and single-process stores
// need no claims at all.
//
// # Observation
//
// An Observer (Config.Observer; nil by default) is told of every unit of
// work: an operation (a group method begins it with Handle.Begin and ends
// it with its error, whose code is the outcome), each store transaction of
// Update and View (read or write, its runs, commit or rollback), each
// intent's hand-over, each webhook delivery attempt and each due item. It
// returns the context the work runs in, so a tracer nests them: the
// transaction in its operation, the hand-over after it. An event stores
// the traceparent of the transaction that emitted it (outboxRecord.Trace),
// so its delivery, later and in any process, continues that trace and
// sends it on (TraceParentFrom). The kernel imports no metrics or
// tracing library: the adapters live in telemetry/. Without an Observer
// each hook is a nil check. internal/backlog counts what waits (events,
// due items, intents, dead letters) for gauges read on demand.
//
// # Errors
//
// Error is the one coded error type: Code is a spec code with its HTTP
// status from one table (Code.Status: the kernel's CodeStatus and the
// codes each area registers, AreaDef.Codes), Message is safe to show,
// Fields list every invalid field (Invalid). CodeOf and MessageOf read any
// error; stores return the sentinels ErrNotFound and ErrConflict, which
// NotFound turns into a coded 404.
//
// # Encoders
//
// Records written on every payment are encoded and decoded by hand
// (encode.go's appenders, Canon) for speed, byte for byte as encoding/json
// would, which fuzz tests compare; anything the fast path does not
// recognise falls back to encoding/json.
package engine
