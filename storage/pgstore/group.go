package pgstore

import (
	"context"
	"errors"
	"sync"

	"github.com/paygrid/payments"
)

// Group commit. The Updates of one process that arrive while another of its
// Updates runs do not each commit on their own: they queue, and the running
// one (the leader), once its own function has run, runs theirs after it, in
// the same run, each seeing the writes of those before it, exactly as if
// they had run one after the other, and commits them all at once. The
// engine's functions are retryable and deterministic by contract, which is
// what makes this safe (bbolt's Batch does the same). So many payments share
// one round trip, one COMMIT and one flush of the WAL, and the payments out
// of one busy account queue in the process instead of at the balance's lock.
//
// A queued function that fails, or a batch that must run again, sends its
// queued functions back to run alone (errAlone): an error is answered only
// by a function's own run, checked as usual. When the leader is done, the
// first queued Update leads the next batch.

// maxGroup bounds the functions run in one batch besides the leader's.
const maxGroup = 32

var (
	// errLead tells a queued Update that it leads the next batch.
	errLead = errors.New("pgstore: lead")
	// errAlone tells a queued Update to run on its own.
	errAlone = errors.New("pgstore: run alone")
)

// group is a process's queue of Updates.
type group struct {
	mu      sync.Mutex
	leading bool
	queue   []*joiner
}

// joiner is a queued Update.
type joiner struct {
	ctx   context.Context
	fn    func(payments.Tx) error
	done  chan error // nil: committed; errLead; errAlone
	taken bool       // a leader took it: it waits for the outcome

	ok bool // its function ran in the batch
}

// join queues the Update of fn when another leads, and returns the joiner
// to wait on; it returns nil when this Update leads.
func (g *group) join(ctx context.Context, fn func(payments.Tx) error) *joiner {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.leading {
		g.leading = true
		return nil
	}
	j := &joiner{ctx: ctx, fn: fn, done: make(chan error, 1)}
	g.queue = append(g.queue, j)
	return j
}

// wait returns the outcome of a queued Update: nil when it committed,
// errLead or errAlone, the leader's error wrapping ErrCommitUnknown when
// the commit that carried it may or may not have applied, or ctx's error when it was cancelled before a
// leader took it.
func (g *group) wait(j *joiner) error {
	select {
	case err := <-j.done:
		return err
	case <-j.ctx.Done():
	}
	g.mu.Lock()
	if !j.taken {
		for i, q := range g.queue {
			if q == j {
				g.queue = append(g.queue[:i:i], g.queue[i+1:]...)
				break
			}
		}
		g.mu.Unlock()
		return j.ctx.Err()
	}
	g.mu.Unlock()
	return <-j.done
}

// take removes up to maxGroup queued Updates for the leader's batch.
func (g *group) take() []*joiner {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := min(len(g.queue), maxGroup)
	out := make([]*joiner, n)
	copy(out, g.queue)
	g.queue = append(g.queue[:0:0], g.queue[n:]...)
	for _, j := range out {
		j.taken = true
	}
	return out
}

// handOver ends a leader's turn: the first queued Update leads next.
func (g *group) handOver() {
	g.mu.Lock()
	if len(g.queue) == 0 {
		g.leading = false
		g.mu.Unlock()
		return
	}
	next := g.queue[0]
	g.queue = append(g.queue[:0:0], g.queue[1:]...)
	next.taken = true
	g.mu.Unlock()
	next.done <- errLead
}

// runJoined runs the functions of the queued Updates after the leader's, on
// t, each on the state the previous ones left: the ones that fail are left
// out (what they changed undone) and run alone.
func (t *tx) runJoined(joined []*joiner) {
	if t.recs == nil {
		t.recs = map[tkey]*rec{}
	}
	if t.bals == nil {
		t.bals = map[string]*bal{}
	}
	if t.posted == nil {
		t.posted = map[string]*payments.LedgerEntry{}
	}
	for _, j := range joined {
		un := &undo{recs: map[tkey]*rec{}, bals: map[string]*bal{}, scans: len(t.scans), cached: t.cached, reads: t.reads}
		jt := withLedger(&tx{s: t.s, ctx: j.ctx, c: t.c, u: t.u, writable: true, optimistic: true, undo: un,
			recs: t.recs, bals: t.bals, posted: t.posted, scans: t.scans, cached: t.cached, reads: t.reads})
		err := jt.run(j.fn)
		if err != nil || jt.failed != nil || j.ctx.Err() != nil {
			un.rollback(t)
			continue
		}
		j.ok = true
		t.scans, t.cached, t.reads = jt.scans, jt.cached, jt.reads
	}
}

// undo is what a queued function changed in the run it joined: the
// previous state of each record and balance it touched (nil: it did not
// exist), the entries it posted.
type undo struct {
	recs   map[tkey]*rec
	bals   map[string]*bal
	posted []string
	scans  int
	cached bool
	reads  int
}

// touchRec notes the state of k before it changes (once).
func (t *tx) touchRec(k tkey) {
	if t.undo == nil {
		return
	}
	if _, ok := t.undo.recs[k]; ok {
		return
	}
	var prev *rec
	if r := t.recs[k]; r != nil {
		c := *r
		prev = &c
	}
	t.undo.recs[k] = prev
}

// touchBal notes the state of the balance at key before it changes (once).
func (t *tx) touchBal(key string) {
	if t.undo == nil {
		return
	}
	if _, ok := t.undo.bals[key]; ok {
		return
	}
	var prev *bal
	if b := t.bals[key]; b != nil {
		c := *b
		prev = &c
	}
	t.undo.bals[key] = prev
}

// rollback undoes the queued function's changes to t's state.
func (u *undo) rollback(t *tx) {
	for k, prev := range u.recs {
		if prev == nil {
			delete(t.recs, k)
		} else {
			t.recs[k] = prev
		}
	}
	for k, prev := range u.bals {
		if prev == nil {
			delete(t.bals, k)
		} else {
			t.bals[k] = prev
		}
	}
	for _, id := range u.posted {
		delete(t.posted, id)
	}
	t.scans, t.cached, t.reads = t.scans[:u.scans], u.cached, u.reads
}
