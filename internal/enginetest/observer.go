package enginetest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/paygrid/payments"
)

// Observer is a payments.Observer that records every unit of work that
// ended, with the work it ran inside (its Parent when set, else the unit
// its context carries): a tracer's span tree without a tracing library. Each started unit gets a number from 1; its traceparent
// is "00-<32 hex digits: its root's number>-<16 hex digits: its
// number>-01", so the delivery of an event continues the unit that emitted
// it through the stored traceparent, as with a real tracer.
type Observer struct {
	mu    sync.Mutex
	next  int
	ended []Observed
}

// Observed is one unit of work that ended: what the engine reported, its
// number, the number of the unit it ran inside (0 for none) and of the
// root of its tree.
type Observed struct {
	payments.Work
	N, Parent, Root int
}

// observedKey keys the unit a context runs inside.
type observedKey struct{}

// observedUnit is a started unit: its number, its parent's and its root's.
type observedUnit struct{ n, parent, root int }

// Start numbers w and returns ctx carrying it.
func (o *Observer) Start(ctx context.Context, w payments.Work) context.Context {
	o.mu.Lock()
	o.next++
	u := &observedUnit{n: o.next, root: o.next}
	o.mu.Unlock()
	if root, n, ok := parseParent(w.Parent); ok {
		u.parent, u.root = n, root
	} else if p, ok := ctx.Value(observedKey{}).(*observedUnit); ok {
		u.parent, u.root = p.n, p.root
	}
	return context.WithValue(ctx, observedKey{}, u)
}

// End records w.
func (o *Observer) End(ctx context.Context, w payments.Work) {
	u, _ := ctx.Value(observedKey{}).(*observedUnit)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ended = append(o.ended, Observed{Work: w, N: u.n, Parent: u.parent, Root: u.root})
}

// TraceParent returns the traceparent of the unit ctx carries.
func (o *Observer) TraceParent(ctx context.Context) string {
	u, ok := ctx.Value(observedKey{}).(*observedUnit)
	if !ok {
		return ""
	}
	return fmt.Sprintf("00-%032x-%016x-01", u.root, u.n)
}

// parseParent reads the numbers of a traceparent TraceParent wrote.
func parseParent(p string) (root, n int, ok bool) {
	parts := strings.Split(p, "-")
	if len(parts) != 4 {
		return 0, 0, false
	}
	_, err1 := fmt.Sscanf(parts[1], "%x", &root)
	_, err2 := fmt.Sscanf(parts[2], "%x", &n)
	return root, n, err1 == nil && err2 == nil
}

// Ended returns the units that ended so far, in the order they ended,
// those of kind only when kind is not zero.
func (o *Observer) Ended(kind payments.WorkKind) []Observed {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []Observed
	for _, w := range o.ended {
		if kind == 0 || w.Kind == kind {
			out = append(out, w)
		}
	}
	return out
}

// Reset forgets the units that ended so far.
func (o *Observer) Reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ended = nil
}

// TraceParentOf returns the traceparent TraceParent gave inside w.
func (o *Observer) TraceParentOf(w Observed) string {
	return fmt.Sprintf("00-%032x-%016x-01", w.Root, w.N)
}
