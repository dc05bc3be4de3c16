package payments

import (
	"context"
	"time"
)

// dueLayout formats due times so that keys sort in time order.
const dueLayout = "2006-01-02T15:04:05.000Z"

// dueKey is the key of work due at t for id in a "due" table.
func dueKey(t time.Time, id string) string { return t.UTC().Format(dueLayout) + "|" + id }

// ProcessDue runs the asynchronous work that is due on the engine's clock
// (sandbox liveness checks, payment lifecycles) and returns how many items
// moved. The dispatcher calls it every second; tests that advance a sandbox
// clock call it to move on at once, without sleeping.
func (e *Engine) ProcessDue(ctx context.Context) (int, error) {
	n, err := e.completeLiveness(ctx)
	if err != nil {
		return n, err
	}
	m, err := e.settleDue(ctx)
	if err != nil {
		return n + m, err
	}
	k, err := e.expireApprovals(ctx)
	if err != nil {
		return n + m + k, err
	}
	b, err := e.resumeBulkJobs(ctx)
	return n + m + k + b, err
}

// dueKeys lists, in time order, up to limit keys of a due table whose time
// is at or before now (a dueKey bound); limit 0 means no bound.
func (t *txn) dueKeys(table, now string, limit int) ([]string, error) {
	var keys []string
	err := t.Scan(table, ScanOptions{}, func(k string, _ []byte) (bool, error) {
		if k > now {
			return false, nil
		}
		keys = append(keys, k)
		return limit == 0 || len(keys) < limit, nil
	})
	return keys, err
}
