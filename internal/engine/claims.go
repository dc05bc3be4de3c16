package engine

import (
	"context"
	"slices"
	"time"
)

// Claimer is the optional capability of a Store shared by several engine
// processes (storage/pgstore): leases on items of background work. Before a
// process applies a due item or hands an intent over it claims a lease
// named for the item, and before a pass of webhook deliveries a lease on
// the outbox; only what it got is its to carry out, so one process at a
// time works on each. Leases expire after their time to live,
// so the items of a process that died are taken over by another. Stores
// used by one process (memstore, boltstore) do not implement it: the
// engine's own locks suffice there.
type Claimer interface {
	// Claim takes, for owner and ttl, each lease of names that is free,
	// expired or already owner's (renewing it), and returns the names it
	// took, in any order. Expiry is judged by one clock for all processes
	// (the store's).
	Claim(ctx context.Context, owner string, ttl time.Duration, names []string) ([]string, error)
	// Release gives up owner's leases of names; names owner does not hold
	// are ignored.
	Release(ctx context.Context, owner string, names []string) error
}

// leaseTTL is how long a claim on a work item lasts: longer than a delivery
// pass normally takes, short enough that a dead process's items move on soon.
const leaseTTL = 30 * time.Second

// ClaimWork claims the named items for this engine process when the store
// is a Claimer and returns the set it may work on (nil: all of them); a
// background pass of a service over the kernel (the history's retention)
// claims its work with it too. ReleaseWork gives the claims up.
func ClaimWork(e *Handle, ctx context.Context, names []string) (map[string]bool, error) {
	c, ok := e.Store.(Claimer)
	if !ok || len(names) == 0 {
		return nil, nil
	}
	// Sorted, so that concurrent claims lock rows in one order.
	names = slices.Sorted(slices.Values(names))
	got, err := c.Claim(ctx, e.owner, leaseTTL, names)
	if err != nil {
		return nil, err
	}
	mine := make(map[string]bool, len(got))
	for _, n := range got {
		mine[n] = true
	}
	return mine, nil
}

// ReleaseWork gives up the claims of ClaimWork.
func ReleaseWork(e *Handle, mine map[string]bool) {
	c, ok := e.Store.(Claimer)
	if !ok || len(mine) == 0 {
		return
	}
	names := make([]string, 0, len(mine))
	for n := range mine {
		names = append(names, n)
	}
	if err := c.Release(context.Background(), e.owner, names); err != nil {
		e.Log.Warn("releasing work claims failed", "err", err)
	}
}
