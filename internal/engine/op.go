package engine

import (
	"context"
	"errors"
)

// Op declares one operation of an area, for Run to carry out: a plain
// struct of functions, read top to bottom in the order Run calls them. In
// is the operation's request, Out its answer, F what it gathers before
// deciding (its "fetched" state: provider answers, records read outside
// the transaction, copies kept for reruns; struct{} when it gathers
// nothing). A quote request is declared
//
//	var createQuote = engine.Op[Request, *Quote, fetched]{Area: "quotes", Name: "Create",
//		Validate: validateRequest, Prefetch: fetchQuote, Read: priceQuote, Decide: storeQuote}
//
// and its public method is one line:
//
//	func (s Service) Create(ctx context.Context, in Request) (*Quote, error) {
//		return engine.Run(ctx, s.e, createQuote, in)
//	}
//
// Every function but Decide is optional. Only Decide and Read get a
// transaction; Prefetch gets none, so whatever may call the network (a
// RateSource, a KYC provider, a card issuer) is called there, outside
// every transaction, by construction.
type Op[In, Out, F any] struct {
	// Area and Name name the operation for the Observer ("quotes",
	// "Create"; a group's method is qualified: "Transactions.Get").
	Area, Name string
	// Access says how the operation touches the store: Write (the zero
	// value) in one read-write transaction recorded under the request's
	// idempotency key, Read in one read-only transaction, Unkeyed in one
	// read-write transaction recorded under no key.
	Access Access
	// Fingerprint is what a Write's idempotency record fingerprints as the
	// request when the handle carries no request bytes: by default *in
	// encoded; an operation of several arguments may keep their old array
	// ([]any{id, in}) so that records written before it was declared still
	// match.
	Fingerprint func(in *In) any
	// ReadFingerprint is Fingerprint for a Write whose fingerprint depends
	// on what is stored (an approval fingerprints what the approved
	// action does): Run calls it in a read-only transaction before it
	// looks for the recorded answer, on a handle with an idempotency key.
	// An error leaves the lookup out and the answer to the decision, which
	// meets the same records.
	ReadFingerprint func(t *Txn, in *In) (any, error)
	// Guard refuses the operation before its request is looked at, for
	// what the handle lacks whatever the request says: a provider that is
	// not configured (NOT_IMPLEMENTED), a sandbox-only operation outside
	// the sandbox (FORBIDDEN).
	Guard func(e *Handle) error
	// Validate checks the request before anything is read, returning
	// every field error at once (Invalid). It may normalize *in.
	Validate func(in *In) error
	// Prefetch gathers what Decide needs from outside the store, outside
	// every transaction (through a snapshot read, Handle.View, if it must
	// read), into *f. Run calls it once with missed nil, after a Write's
	// recorded answer was looked for, and again with the error Read or
	// Decide marked with Missing, when they found something it should
	// have fetched (a rate only the RateSource has). It returns Settled
	// when it found the whole answer (a cache, or another operation it
	// handed the work to): no transaction runs and Answer gives the
	// answer. It may itself return an error marked with Missing (the
	// operation it handed the work to found the state moved): Run calls
	// it again with that error, as Decide's would.
	Prefetch func(ctx context.Context, e *Handle, in *In, f *F, missed error) error
	// Refetches is how often Read, Decide or Prefetch may report Missing
	// in one operation before their error answers: zero means twice (a
	// rate that one more fetch brings), Unbounded without a bound, for a
	// decision made on a conversion of state that may move under it
	// again (an agent's policy currency that changed between converting
	// an amount and deciding). Every rerun is the same operation: the
	// writes rolled back count for nothing, and a Write is recorded under
	// the call of its idempotency key it began with.
	Refetches int
	// Read reads what Decide needs from the store into *f, with no
	// writes. Run calls it where the store reads best: inside a Write's
	// transaction before every run of Decide, on a store that checks an
	// Update's reads at commit (UpdateReader); on others once, in a
	// read-only transaction before it, so that the write transaction is
	// short. Read and Decide read through t and never call providers.
	Read func(t *Txn, in *In, f *F) error
	// Reuse keeps what Read left in *f usable by reruns of Decide when
	// Read ran in its own transaction: Run calls it before run n (1, 2,
	// ...) of Decide, which a store may run more than once; at run 1 it
	// keeps copies, at later runs it restores *f from them.
	Reuse func(f *F, n int) error
	// Contended names the records Decide will rewrite that concurrent
	// operations rewrite too (the balances a payment draws on), from what
	// Prefetch gathered (an operation without Read) or once Read ran
	// before the transaction: a store that schedules contention per
	// record takes their locks first (WithContended).
	Contended func(in *In, f *F) []RecordKey
	// Decide carries the operation out in t, which may run more than
	// once: each run starts from what Prefetch (and Read, Reuse) left in
	// *f. It returns the answer, or an error: one marked with Keep still
	// commits its writes; one marked with Missing sends Run back to
	// Prefetch.
	Decide func(t *Txn, in *In, f *F) (Out, error)
	// Answer shapes the answer once the transaction ended (committed or
	// not), Prefetch settled it or a recorded answer was found (then *f is
	// zero): out and err are what Decide or the recorded answer gave. It keeps what the operation learned in the
	// engine's caches. Without it the answer is out and err.
	Answer func(e *Handle, in *In, f *F, out Out, err error) (Out, error)
}

// Access is how an operation touches the store (Op.Access).
type Access uint8

// Accesses of an Op.
const (
	// Write runs Decide in one read-write transaction (Once): on a handle
	// with an idempotency key the answer is recorded with the changes, and
	// a repeated request gets the recorded answer before Prefetch runs.
	Write Access = iota
	// Read runs Decide in one read-only transaction (Handle.View), with no
	// idempotency.
	Read
	// Unkeyed runs Decide in one read-write transaction (Handle.Update)
	// that no idempotency key records: for operations that need none
	// (seeding a store).
	Unkeyed
)

// maxRefetches bounds how often Decide (or Read) may send Run back to
// Prefetch in one operation, unless Op.Refetches says otherwise.
const maxRefetches = 2

// Unbounded is an Op.Refetches that puts no bound on refetching: the
// operation decides again for as long as its decision reports Missing.
const Unbounded = -1

// Settled is what Op.Prefetch returns when it found the operation's whole
// answer outside the store (a cache): Run skips the transaction and calls
// Op.Answer.
var Settled = errors.New("engine: the operation's answer was settled before its transaction")

// Missing marks err, returned by Op.Read or Op.Decide, as something
// Op.Prefetch must fetch before the decision can be made (a rate only the
// RateSource has, an amount to convert again into a policy that moved):
// Run rolls the transaction back, calls Prefetch with err and decides
// again, as often as Op.Refetches allows.
func Missing(err error) error { return &missingError{err} }

// missingError is an error Missing marked.
type missingError struct{ err error }

func (m *missingError) Error() string { return m.err.Error() }
func (m *missingError) Unwrap() error { return m.err }

// Run carries out op for in on e: observe (an operation span for e's
// Observer, ended with the outcome), validate, replay a Write's recorded
// answer by idempotency key and request fingerprint, prefetch outside
// every transaction, read and decide (Access: one transaction, which the
// store may run more than once; Decide reporting a prefetch Missing sends
// it back to Prefetch and decides again, bounded), commit, answer, and
// hand the intents the transaction wrote over (Handle.Update).
//
// The store's strategy belongs here, driven by what op declares: whether
// Read runs inside the Update or in a View before it, the contention
// hints a store schedules by, the copies kept for reruns (Op.Reuse).
// Areas never ask which store they run on.
func Run[In, Out, F any](ctx context.Context, e *Handle, op Op[In, Out, F], in In) (out Out, err error) {
	ctx, sp := e.Begin(ctx, op.Area, op.Name)
	defer sp.End(&err)
	return run(ctx, e, &op, &in)
}

// run is Run inside its span.
func run[In, Out, F any](ctx context.Context, e *Handle, op *Op[In, Out, F], in *In) (out Out, err error) {
	if op.Guard != nil {
		if err := op.Guard(e); err != nil {
			return out, err
		}
	}
	if op.Validate != nil {
		if err := op.Validate(in); err != nil {
			return out, err
		}
	}
	var f F
	var input any = in
	if e.idem != nil {
		switch {
		case op.ReadFingerprint != nil:
			if err := e.View(ctx, func(t *Txn) error {
				fp, err := op.ReadFingerprint(t, in)
				if err == nil {
					input = fp
				}
				return err
			}); err != nil {
				input = nil // the decision reports it; nothing to replay
			}
		case op.Fingerprint != nil:
			input = op.Fingerprint(in)
		}
	}
	if op.Access == Write && input != nil {
		if ok, rerr := Replay(ctx, e, input, &out); ok {
			return answer(e, op, in, &f, out, rerr)
		}
	}
	if input == nil {
		input = in
	}
	limit := op.Refetches
	if limit == 0 {
		limit = maxRefetches
	}
	calls := 0 // the handle's write operations before this one
	if e.idem != nil {
		calls = e.idem.calls
	}
	var missed error
	for tries := 0; ; tries++ {
		var m *missingError
		if op.Prefetch != nil {
			err = op.Prefetch(ctx, e, in, &f, missed)
			if err == Settled {
				err = nil
				break
			}
			if err != nil && (!errors.As(err, &m) || tries == limit) {
				if m != nil {
					err = m.err // refetched enough: the error answers
				}
				return out, err
			}
		}
		if m == nil {
			out, err = decide(ctx, e, op, in, input, &f)
			if !errors.As(err, &m) {
				break
			}
			if tries == limit {
				err = m.err // refetched enough: the decision's own error answers
				break
			}
		}
		missed = m.err
		if e.idem != nil {
			e.idem.calls = calls // the next run is the same operation
		}
	}
	return answer(e, op, in, &f, out, err)
}

// answer gives op's answer through op.Answer, if it has one.
func answer[In, Out, F any](e *Handle, op *Op[In, Out, F], in *In, f *F, out Out, err error) (Out, error) {
	if op.Answer != nil {
		return op.Answer(e, in, f, out, err)
	}
	return out, err
}

// decide runs op's Read and Decide in the transactions op.Access names.
func decide[In, Out, F any](ctx context.Context, e *Handle, op *Op[In, Out, F], in *In, input any, f *F) (out Out, err error) {
	if op.Access == Read || op.Access == Unkeyed {
		txn := e.Update // Unkeyed: one write, no idempotency record
		if op.Access == Read {
			txn = e.View
		}
		err = txn(ctx, func(t *Txn) error {
			if op.Read != nil {
				if err := op.Read(t, in, f); err != nil {
					return err
				}
			}
			var err error
			out, err = op.Decide(t, in, f)
			return err
		})
		return out, err
	}
	// Reading inside the Update costs no more where the store checks an
	// Update's reads at commit (PostgreSQL) or runs its reads with its
	// writes (memory); elsewhere (bbolt, whose reads run beside its one
	// writer) Read runs in a read transaction, in parallel with other
	// requests, so the write transaction is short.
	readFirst := op.Read != nil && !ReadsInUpdate(e.Store)
	if readFirst {
		if err := e.View(ctx, func(t *Txn) error { return op.Read(t, in, f) }); err != nil {
			return out, err
		}
	}
	if op.Contended != nil && (readFirst || op.Read == nil) {
		if keys := op.Contended(in, f); len(keys) > 0 {
			ctx = WithContended(ctx, keys...)
		}
	}
	runs := 0
	err = Once(ctx, e, input, &out, func(t *Txn) error {
		runs++
		switch {
		case op.Read != nil && !readFirst:
			if err := op.Read(t, in, f); err != nil {
				return err
			}
		case readFirst && op.Reuse != nil:
			if err := op.Reuse(f, runs); err != nil {
				return err
			}
		}
		var err error
		out, err = op.Decide(t, in, f)
		return err
	})
	return out, err
}
