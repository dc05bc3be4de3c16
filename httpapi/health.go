package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/paygrid/payments"
)

// Health returns the liveness probe, for a mounting server to serve
// outside the API's base path (the sandbox server serves it at /healthz):
// GET or HEAD answers 200 {"status":"ok"} while the process serves
// requests. It checks nothing else, so that a slow database never gets a
// healthy process restarted; Ready says whether it should get traffic.
func Health() http.Handler {
	return probe(func(context.Context) (bool, map[string]string) { return true, nil })
}

// ReadyOptions configures Ready. The zero value works.
type ReadyOptions struct {
	// Draining, when set and true, says the server is shutting down: the
	// probe fails, so that a load balancer stops sending requests before
	// the listener closes.
	Draining func() bool
	// Timeout bounds the store's answer. Zero means 2 seconds.
	Timeout time.Duration
}

// Ready returns the readiness probe over eng, for a mounting server to
// serve outside the API's base path (the sandbox server serves it at
// /readyz): GET or HEAD answers 200 {"status":"ready","checks":{...}} when
// the store answers a read within the timeout and the engine's background
// workers run (payments.Webhooks.Running), and 503 with "status":
// "unavailable" otherwise, or while opts.Draining says the server is
// shutting down. Each check is "ok" or why it failed ("failing",
// "stopped", "draining"); no error text is shown, as probes need no
// credentials.
func Ready(eng *payments.Engine, opts ReadyOptions) http.Handler {
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Second
	}
	return probe(func(ctx context.Context) (bool, map[string]string) {
		checks := map[string]string{"store": "ok", "workers": "ok"}
		ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		if err := eng.Store().View(ctx, func(payments.Tx) error { return nil }); err != nil {
			checks["store"] = "failing"
		} else if r, ok := eng.Store().(storeReadiness); ok && r.Ready(ctx) != nil {
			checks["store"] = "cannot write"
		}
		if !eng.Webhooks.Running() {
			checks["workers"] = "stopped"
		}
		if opts.Draining != nil && opts.Draining() {
			checks["shutdown"] = "draining"
		}
		return len(checks) == 2 && checks["store"] == "ok" && checks["workers"] == "ok", checks
	})
}

// storeReadiness is a store that can tell it cannot write while it still
// reads (boltstore on a full disk): Ready returns nil when it can.
type storeReadiness interface {
	Ready(ctx context.Context) error
}

// probeAnswer is the body of a probe.
type probeAnswer struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks,omitempty"`
}

// probe serves check on GET and HEAD: 200 when it passes, 503 when not.
func probe(check func(context.Context) (bool, map[string]string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			writeError(w, payments.Errorf(payments.CodeMethodNotAllowed, "%s is not allowed on %s", r.Method, r.URL.Path))
			return
		}
		passed, checks := check(r.Context())
		status, answer := http.StatusOK, probeAnswer{Status: "ok", Checks: checks}
		switch {
		case !passed:
			status, answer.Status = http.StatusServiceUnavailable, "unavailable"
		case checks != nil:
			answer.Status = "ready"
		}
		b, _ := json.Marshal(answer)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if r.Method == http.MethodGet {
			_, _ = w.Write(append(b, '\n'))
		}
	})
}
