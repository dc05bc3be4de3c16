package engine

import (
	"context"
	"slices"
)

// Store is the engine's persistence port: named tables of byte records, ordered
// by key, changed only inside closure transactions.
//
// Update runs fn in a read-write transaction: when fn returns nil the changes
// commit atomically and, for durable stores, are on stable storage when Update
// returns; when fn returns an error or panics nothing persists and Update
// returns that error (a panic is returned as an error, not re-raised). Writes
// are serializable: no two Update calls interleave as seen by their fns. A
// context cancelled before commit aborts the transaction with ctx.Err().
//
// View runs fn in a read-only snapshot and never sees uncommitted writes.
// It runs fn once (a store that may run a read more than once offers it as
// RetryableViewer).
//
// Records returned by a Tx are copies the caller owns; a Tx must not be used
// after its fn returns. The behaviours are pinned by storage/storetest, which
// every implementation runs.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
	// Close releases the store. Later calls return ErrClosed.
	Close() error
}

// Tx is one transaction over the store's tables. Table names are plain
// identifiers; a table springs into existence on its first write, and reading a
// table never written is reading an empty table.
type Tx interface {
	// Get returns the record at key, or ErrNotFound. The bytes stay valid
	// after the transaction ends and are read-only: a store may share them
	// with other readers, and a caller never modifies them.
	Get(table, key string) ([]byte, error)
	// Put creates or replaces the record at key. ErrReadOnly inside View.
	// The store may keep value itself: the caller never modifies it after
	// the call (the engine always passes a fresh encoding).
	Put(table, key string, value []byte) error
	// Insert creates the record at key, or returns ErrConflict when one exists.
	// It is how unique indexes are kept. value is kept as Put keeps it.
	Insert(table, key string, value []byte) error
	// Delete removes the record at key, or returns ErrNotFound.
	Delete(table, key string) error
	// Scan calls fn with each record of table in key order (byte-wise), as
	// narrowed by opts, until fn returns false or an error (which Scan returns).
	// Values are read-only, as Get's are. Inside Update fn may write to the
	// table; a record it removes ahead of the scan is not visited.
	Scan(table string, opts ScanOptions, fn func(key string, value []byte) (bool, error)) error
}

// ScanOptions narrows a Scan. The zero value scans the whole table ascending.
type ScanOptions struct {
	// Prefix keeps only keys that start with it.
	Prefix string
	// After starts strictly after this key (ascending) or strictly before it
	// (Reverse). Empty starts at the first (or last) key.
	After string
	// Reverse scans in descending key order.
	Reverse bool
}

// RecordKey names one record of a store: its table and key.
type RecordKey struct{ Table, Key string }

type contendedKey struct{}

// WithContended returns ctx carrying a hint for the store: the operation
// run with it will read and rewrite these records, which concurrent
// operations may rewrite too (the balance a payment draws on). A store that
// schedules contention per record may take their locks before the
// transaction begins, instead of learning it in a first attempt it then
// throws away (pgstore); others ignore it. The transaction may touch other
// records, or not these.
func WithContended(ctx context.Context, keys ...RecordKey) context.Context {
	return context.WithValue(ctx, contendedKey{}, slices.Concat(ContendedKeys(ctx), keys))
}

// ContendedKeys returns the records WithContended named in ctx.
func ContendedKeys(ctx context.Context) []RecordKey {
	keys, _ := ctx.Value(contendedKey{}).([]RecordKey)
	return keys
}

// RetryableViewer is the optional capability of a Store that may run a
// read's function more than once: RetryableView is View for a function
// that starts afresh each time and acts only through what it sets when it
// returns (every View of the engine's operations, Handle.View). Such a
// store may answer the reads from a cache it checks once at the end
// (pgstore), running fn again when the cache was stale, instead of reading
// in a snapshot round trip by round trip. Only the last run's outcome
// counts.
type RetryableViewer interface {
	RetryableView(ctx context.Context, fn func(Tx) error) error
}

// UpdateReader is the optional capability of a Store on which an
// operation that reads and then writes reads best inside its Update, not in
// a View before it (ReadsInUpdate): reading there costs no more, and the
// View would cost a transaction of its own. pgstore runs Update functions
// concurrently, without locks, and checks what they read in the commit
// that writes, where a View checks its reads in a round trip more;
// memstore runs its Views one after another with the Updates whenever any
// run, so under load a View is only one more turn of its writer.
type UpdateReader interface {
	// ReadsInUpdate reports whether operations should read inside their
	// Updates.
	ReadsInUpdate() bool
}

// ReadsInUpdate reports whether an operation on s reads inside its Update
// rather than in a View before it (UpdateReader).
func ReadsInUpdate(s Store) bool {
	o, ok := s.(UpdateReader)
	return ok && o.ReadsInUpdate()
}

// viewRetryable runs fn as a retryable read of s when s offers it, else as
// its View.
func viewRetryable(ctx context.Context, s Store, fn func(Tx) error) error {
	if rv, ok := s.(RetryableViewer); ok {
		return rv.RetryableView(ctx, fn)
	}
	return s.View(ctx, fn)
}

// TableOutbox holds events written in the same transaction as the change they
// describe; the engine hands them to the Notifier after commit.
const TableOutbox = "outbox"

// PrefixEnd returns the smallest key greater than every key that starts with
// prefix, or "" when there is none (a prefix of 0xff bytes). Store
// implementations use it to bound a Prefix scan.
func PrefixEnd(prefix string) string {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return ""
}
