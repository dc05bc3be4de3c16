package engine

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/paygrid/payments/internal/outbound"
)

// The kernel: what every operation runs on. A handle carries the engine's
// shared core (the store, the clock, ids, the registry of what the areas
// declared, the background workers and the kernel's caches) and, on a
// handle made by WithIdempotency, a client's idempotency key. The areas
// run their operations on a handle; the root facade (payments.Engine)
// holds one.

// Handle is what an operation runs through: the engine's shared core and,
// on a handle made by WithIdempotency, the client's idempotency key. The
// core is safe for concurrent use; a handle with a key counts its write
// operations, so it serves one request at a time (the HTTP layer makes one
// per request).
type Handle struct {
	*core
	idem *idemState // nil on the engine New returns
}

// core is the state every handle of one engine shares.
type core struct {
	Store    Store
	notifier outbound.Notifier
	Clock    func() time.Time
	newUUID  func() (uuid.UUID, error)
	Log      *slog.Logger
	Config   Config
	obs      Observer // nil: nothing observed (observe.go)

	written   Bounded[written] // index entries of records written, by table and key (index.go)
	kick      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	closeMu   sync.Once
	flushMu   sync.Mutex
	rideMu    sync.Mutex
	riding    *outcomes     // a webhook pass's outcomes waiting for a commit (events.go)
	hurry     chan struct{} // an explicit Flush waits: record riding outcomes now
	lastPurge time.Time
	pass      passPlace // where the webhook pass reads (outbox_due.go)
	Registry  Registry  // what the areas registered (registry.go)
	owner     string    // this process's name on work claims (claims.go)
}

// Config is what the kernel takes of the facade's payments.Config
// (documented there): zero values of the first five get defaults in New
// (time.Now, UUIDv7, a discarding logger, a Notifier that accepts every
// event); a nil Observer observes nothing (observe.go); the facade
// validated and defaulted the rest. Retry and
// IdempotencyRetention have no defaults here: a zero retention expires
// every recorded answer as it is written, so a caller of New sets it.
type Config struct {
	Store                Store
	Notifier             outbound.Notifier
	Now                  func() time.Time
	NewUUID              func() (uuid.UUID, error)
	Logger               *slog.Logger
	Sandbox              bool
	Retry                outbound.RetryPolicy
	IdempotencyRetention time.Duration
	EventHistory         bool
	// EventHistoryRetention is how long the event history keeps an event
	// after its delivery ended; zero or less keeps it forever (the
	// facade's zero is its default, 7 days).
	EventHistoryRetention time.Duration
	Observer              Observer
}

// New returns the handle of a new engine core on kc, with nothing
// registered yet (Register) and its workers not started (Run). It touches
// neither the store nor the network.
func New(kc Config) *Handle {
	c := &core{Store: kc.Store, notifier: kc.Notifier, Clock: kc.Now, newUUID: kc.NewUUID, Log: kc.Logger, Config: kc, obs: kc.Observer,
		kick: make(chan struct{}, 1), hurry: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
		owner: "engine:" + uuid.NewString()}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	if c.newUUID == nil {
		c.newUUID = uuid.NewV7
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.notifier == nil {
		c.notifier = outbound.NotifierFunc(func(context.Context, Event) error { return nil })
	}
	return &Handle{core: c}
}

// Register adds the declarations of areas (Declare), hands the tables to a
// store that lays them out by their declarations (TableDeclarer) and
// builds the indexes a store written by another version lacks. Call it once, before
// Run: the registry is read without locks afterwards.
func (e *Handle) Register(ctx context.Context, areas ...AreaDef) error {
	e.Declare(areas...)
	if err := e.Registry.declareTo(ctx, e.Store); err != nil {
		return err
	}
	return e.buildIndexes(ctx)
}

// Declare adds the declarations of the kernel and of areas, in the order
// their due work runs, without touching the store (a test learns the
// registered tables this way, with no store at all).
func (e *Handle) Declare(areas ...AreaDef) {
	e.Registry.register(append([]AreaDef{kernelArea(e)}, areas...)...)
}

// Run starts the background workers (webhook delivery, due work, intent
// hand-overs) until Close. Without Run nothing happens after commit but
// the hand-over of an operation's own intents; tests then drive the work
// with ProcessDue and Webhooks.Flush.
func (e *Handle) Run() {
	go e.workers()
	e.poke()
}

// Close stops the background workers and waits for them to finish their
// pass; it is safe to call more than once and always returns nil. It does
// not close the Store, which the caller owns.
func (e *Handle) Close() error {
	e.closeMu.Do(func() {
		close(e.stop)
		<-e.done
	})
	return nil
}

// Now returns the engine's clock reading in UTC, to the millisecond (the
// precision records and cursors keep, so a value read back compares equal).
func (e *Handle) Now() time.Time { return e.Clock().UTC().Truncate(time.Millisecond) }

// NewID returns "<prefix>:<time-ordered uuid>", drawn now: for ids an
// operation needs before its transaction. Inside one, use Txn.NewID.
func (e *Handle) NewID(prefix string) (string, error) {
	u, err := e.newUUID()
	if err != nil {
		return "", err
	}
	return recordID(prefix, u), nil
}

// recordID is "<prefix>:<u>" built in one allocation (u.String and the
// concatenation took two, for every id of every operation).
func recordID(prefix string, u uuid.UUID) string {
	var text [36]byte
	hex.Encode(text[0:8], u[0:4])
	hex.Encode(text[9:13], u[4:6])
	hex.Encode(text[14:18], u[6:8])
	hex.Encode(text[19:23], u[8:10])
	hex.Encode(text[24:], u[10:])
	text[8], text[13], text[18], text[23] = '-', '-', '-', '-'
	var b strings.Builder
	b.Grow(len(prefix) + 1 + len(text))
	b.WriteString(prefix)
	b.WriteByte(':')
	b.Write(text[:])
	return b.String()
}

// RequireSandbox refuses a sandbox-only operation outside the sandbox
// (FORBIDDEN).
func (e *Handle) RequireSandbox() error {
	if !e.Config.Sandbox {
		return Errorf(CodeForbidden, "sandbox operations are not available on this platform")
	}
	return nil
}

// PlatformOwner is the owner key of what the platform owns itself rather
// than one of its customers (its internal and external accounts): the
// areas key records by owner.
const PlatformOwner = "platform"

// RandomHex returns n random bytes in hex: secrets and nonces. Draw them
// before a transaction, never inside one (a retried function would draw
// others).
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand panics on failure since Go 1.24)
	return hex.EncodeToString(b)
}

// HashSecret is the SHA-256 of a secret in hex, as records keep it.
func HashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// RandomBytes returns n random bytes: secrets and nonces.
func RandomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand panics on failure since Go 1.24)
	return b
}
