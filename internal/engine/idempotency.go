package engine

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/paygrid/payments/validate"
)

// Idempotency tables: the records by scope and key, and their keys by
// expiry so that purging reads only what expired.
const (
	tableIdempotency       = "idempotency"
	tableIdempotencyExpiry = "idempotency_expiry"
)

// MaxIdempotencyKeyLength is the longest accepted key.
const MaxIdempotencyKeyLength = 255

// Idempotency names one client request so that the engine carries it out at
// most once. Scope separates key spaces (the HTTP layer uses the method and
// path); Key is the client's idempotency key; Request identifies the
// request's content (the HTTP layer passes the body): the same key with
// another Request is CONFLICT. An empty Request makes each operation
// fingerprint its own typed input.
type Idempotency struct {
	Scope   string
	Key     string
	Request []byte
}

// idemState is the per-request state of a handle made by WithIdempotency.
type idemState struct {
	Idempotency
	calls    int  // write operations run through the handle so far
	replayed bool // the last one replayed a recorded answer
}

// idemRecord is what a key remembers: the fingerprint of the request that
// used it and the answer the operation gave, both written in the
// operation's own transaction.
type idemRecord struct {
	Hash      []byte          `json:"hash"`
	Answer    json.RawMessage `json:"answer,omitempty"`
	Err       *storedError    `json:"error,omitempty"`
	ExpiresAt time.Time       `json:"expiresAt"`
}

// storedError is an *Error answer as recorded.
type storedError struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Fields  []FieldError   `json:"fields,omitempty"`
	Details map[string]any `json:"details,omitempty"`
}

// WithIdempotency returns a handle on e's core carrying k, or e itself when
// k has no key (the root's Engine.WithIdempotency wraps it). INVALID_INPUT
// on Idempotency-Key for a key longer than MaxIdempotencyKeyLength.
func (e *Handle) WithIdempotency(k Idempotency) (*Handle, error) {
	if k.Key == "" {
		return e, nil
	}
	if len(k.Key) > MaxIdempotencyKeyLength {
		var fe validate.Errors
		fe.MaxLen("Idempotency-Key", k.Key, MaxIdempotencyKeyLength)
		return nil, Invalid(fe)
	}
	return &Handle{core: e.core, idem: &idemState{Idempotency: k}}, nil
}

// ReplayedLast reports whether the last write operation made through e
// returned a recorded answer instead of running.
func (e *Handle) ReplayedLast() bool { return e.idem != nil && e.idem.replayed }

// Keep marks an error whose operation still commits its writes: the
// transaction function returns Keep(err) when the decision itself changed
// state (a quote found expired is marked EXPIRED, then refused). Once
// commits and records err as the answer, then returns it; outside Once a
// kept error rolls back like any other.
func Keep(err error) error { return keptError{err} }

// keptError is an error Keep marked.
type keptError struct{ err error }

func (k keptError) Error() string { return k.err.Error() }
func (k keptError) Unwrap() error { return k.err }

// idemCall is one write operation of a handle: the record key and the
// fingerprint of its request.
type idemCall struct {
	key  string
	hash []byte
}

// call starts the next write operation of the handle, or returns nil on a
// handle without a key. The n-th write of one request is recorded under
// the key with n appended, so an HTTP request that makes several writes
// (one operation built on another) replays each of them.
func (e *Handle) call(input any) (*idemCall, error) {
	s := e.idem
	if s == nil {
		return nil, nil
	}
	s.replayed = false
	s.calls++
	req := s.Request
	if req == nil {
		b, err := json.Marshal(input)
		if err != nil {
			return nil, err
		}
		req = b
	}
	sum := sha256.Sum256(req)
	key := s.Scope + "\x00" + s.Key
	if s.calls > 1 {
		key += "\x00" + strconv.Itoa(s.calls)
	}
	return &idemCall{key: key, hash: sum[:]}, nil
}

// Recorded returns the answer recorded for c, if any: found reports a live
// record; a record of another request is CONFLICT. A record past its
// retention counts as none, so the key runs again.
func Recorded[T any](tx Tx, c *idemCall, now time.Time) (v T, found bool, err error) {
	b, err := tx.Get(tableIdempotency, c.key)
	if errors.Is(err, ErrNotFound) {
		return v, false, nil
	}
	if err != nil {
		return v, false, err
	}
	var r idemRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return v, false, err
	}
	if !now.Before(r.ExpiresAt) {
		return v, false, nil
	}
	if string(r.Hash) != string(c.hash) {
		return v, true, Errorf(CodeConflict, "this Idempotency-Key was already used with a different request")
	}
	if r.Err != nil {
		return v, true, &Error{Code: r.Err.Code, Message: r.Err.Message, Fields: r.Err.Fields, Details: r.Err.Details}
	}
	if len(r.Answer) > 0 {
		err = json.Unmarshal(r.Answer, &v)
	}
	return v, true, err
}

// Replay answers a repeated request before its operation gathers anything
// from the outside world: ok reports that *out (or err) is the answer
// recorded for the handle's next write operation, which then does not run.
func Replay[T any](ctx context.Context, e *Handle, input any, out *T) (ok bool, err error) {
	if e.idem == nil {
		return false, nil
	}
	c, err := e.call(input)
	if err != nil {
		return true, err
	}
	err = e.Store.View(ctx, func(tx Tx) error {
		*out, ok, err = Recorded[T](tx, c, e.Now())
		return err
	})
	if !ok {
		e.idem.calls-- // the operation's own write makes this call
		return false, err
	}
	e.idem.replayed = CodeOf(err) != CodeConflict
	return true, err
}

// KeyedID derives the id of the record that the handle's next write
// operation creates from its idempotency key and request fingerprint (a
// UUIDv8 over their SHA-256), for operations that ask a provider to act
// before their transaction: every retry of one request (after a crash
// between the provider's answer and the commit, or a concurrent duplicate)
// names the same record, so a provider idempotent on that id acts once for
// it. c is the call the operation's once will make; both are zero on a
// handle without a key.
func (e *Handle) KeyedID(prefix string, input any) (id string, c *idemCall, err error) {
	if e.idem == nil {
		return "", nil, nil
	}
	if c, err = e.call(input); err != nil {
		return "", nil, err
	}
	e.idem.calls-- // the operation's own write makes this call
	sum := sha256.Sum256(append([]byte(c.key+"\x00"), c.hash...))
	var u uuid.UUID
	copy(u[:], sum[:16])
	u[6] = u[6]&0x0f | 0x80 // version 8
	u[8] = u[8]&0x3f | 0x80 // the RFC 9562 variant
	return recordID(prefix, u), c, nil
}

// Once runs one write operation: fn in a single store transaction, which
// the store may run more than once, leaving the operation's answer in *out.
// On a handle with an idempotency key the answer (*out, or an error fn kept
// with Keep) is recorded in that same transaction, and a recorded answer is
// returned instead of running fn. input is the operation's typed request,
// fingerprinted when the handle carries no request bytes.
//
// Because the record and the changes commit together, a crash leaves
// either both or neither: a retry replays what committed or runs what did
// not, with no lease or "in progress" state. Two concurrent requests with
// one key serialize in the store; the second finds the first's record. An
// error fn returns without Keep rolls back and records nothing, so the
// request may be retried. *out must encode to JSON and back unchanged.
func Once[T any](ctx context.Context, e *Handle, input any, out *T, fn func(t *Txn) error) error {
	c, err := e.call(input)
	if err != nil {
		return err
	}
	var answer error
	err = e.Update(ctx, func(t *Txn) error {
		answer = nil
		if c != nil {
			v, found, err := Recorded[T](t, c, t.Now)
			if found {
				*out, answer = v, err
				e.idem.replayed = CodeOf(err) != CodeConflict
				return nil
			}
			if err != nil {
				return err
			}
		}
		err := fn(t)
		var k keptError
		if errors.As(err, &k) {
			answer, err = k.err, nil
		}
		if err != nil || c == nil {
			return err
		}
		return t.recordAnswer(c, *out, answer)
	})
	if err != nil {
		return err
	}
	return answer
}

// recordAnswer writes the idempotency record of c with its answer, and its
// expiry entry for purgeIdempotency. Only an *Error is recorded as an
// answer; any other error is a fault, and rolls the operation back.
func (t *Txn) recordAnswer(c *idemCall, v any, answerErr error) error {
	r := idemRecord{Hash: c.hash, ExpiresAt: t.Now.Add(t.Handle.Config.IdempotencyRetention)}
	if answerErr != nil {
		var pe *Error
		if !errors.As(answerErr, &pe) {
			return answerErr // not a client answer: roll back
		}
		r.Err = &storedError{Code: pe.Code, Message: pe.Message, Fields: pe.Fields, Details: pe.Details}
	} else {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		r.Answer = b
	}
	if err := PutJSON(t, tableIdempotency, c.key, r); err != nil {
		return err
	}
	return t.Put(tableIdempotencyExpiry, DueKey(r.ExpiresAt, c.key), nil)
}

// purgeIdempotency deletes the records whose retention ended, oldest first,
// a bounded batch per call.
func (e *Handle) purgeIdempotency(ctx context.Context) {
	err := e.Update(ctx, func(t *Txn) error {
		keys, err := t.dueKeys(tableIdempotencyExpiry, DueKey(t.Now, "~"), 500)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := t.Delete(tableIdempotencyExpiry, k); err != nil {
				return err
			}
			rk := k[len(DueLayout)+1:]
			b, err := t.Get(tableIdempotency, rk)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			var r idemRecord
			if err := json.Unmarshal(b, &r); err != nil {
				return err
			}
			if !t.Now.Before(r.ExpiresAt) { // not re-used since
				if err := t.Delete(tableIdempotency, rk); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		e.Log.WarnContext(ctx, "idempotency purge failed", "err", err)
	}
}
