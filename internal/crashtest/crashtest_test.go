package crashtest

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Shape of the loop.
const (
	workers        = 6
	minKillDelay   = 5 * time.Millisecond
	maxKillDelay   = 150 * time.Millisecond
	retryTimeout   = 5 * time.Second  // a retry must answer at once: no leases, no waiting
	requestTimeout = 30 * time.Second // bounds a request of the workload on a live server
	replaySample   = 6                // acknowledged calls re-sent after each restart
	maxBadRounds   = 3                // rounds breaking the contract before the loop stops
	loopBudget     = 3 * time.Minute  // hard stop of the loop; a healthy run needs far less
	maxFailReport  = 40               // failures printed in full; later ones are counted
)

// harness is the parent's side of the crash loop.
type harness struct {
	t       *testing.T
	exe     string // the binary to run as the child
	db      string
	cred    string
	rng     *rand.Rand
	journal journal
	workers []*worker

	child *child
	api   *api

	failures atomic.Int64
	mu       sync.Mutex // guards stats
	stats    struct{ lost, replayedOnRetry, ranOnRetry, stuck, conflicts, replays int }
}

// failf reports a broken expectation without stopping the test.
func (h *harness) failf(format string, args ...any) {
	h.t.Helper()
	if n := h.failures.Add(1); n <= maxFailReport {
		h.t.Errorf(format, args...)
	} else if n == maxFailReport+1 {
		h.t.Errorf("more failures follow; only their count is reported")
	}
}

// TestCrashLoop kills the server process at random moments under concurrent
// idempotent POSTs and checks, after every restart, that in-flight requests
// retried with their keys get their committed answer or run once, that
// acknowledged answers replay byte for byte, and that no acknowledged write
// or unit of money is lost or doubled; at the end, that the ledger of the
// killed process's file is sound.
func TestCrashLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash loop restarts a server process dozens of times")
	}
	rounds := 10
	if os.Getenv("CI") == "true" {
		rounds = 50
	}
	if v := os.Getenv("CRASHTEST_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("CRASHTEST_ROUNDS=%q: want a positive integer", v)
		}
		rounds = n
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("CRASHTEST_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("CRASHTEST_SEED=%q: want an unsigned integer", v)
		}
		seed = n
	}
	t.Logf("%d rounds, %d workers, CRASHTEST_SEED=%d", rounds, workers, seed)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, exe: exe, db: filepath.Join(t.TempDir(), "payments.db"),
		cred: "crashtest:" + randomHex(16), rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	h.start()
	t.Cleanup(func() {
		if h.child != nil {
			h.child.kill()
		}
	})
	h.setup()

	began := time.Now()
	done, bad := 0, 0
	for done < rounds && bad < maxBadRounds && time.Since(began) < loopBudget {
		done++
		before := h.failures.Load()
		h.round(done)
		if h.failures.Load() > before {
			bad++
		}
	}
	loop := time.Since(began)
	switch {
	case bad >= maxBadRounds:
		t.Errorf("stopped after %d rounds: %d rounds broke the idempotency contract (failures above)", done, bad)
	case done < rounds:
		t.Errorf("only %d of %d kill/restart rounds fit in %s", done, rounds, loopBudget)
	}

	h.finalChecks()
	h.kill("the final kill")
	h.checkLedger("after the final kill")
	t.Logf("%d kill/restart rounds in %s, final checks in %s: %d requests journaled, %d caught in flight "+
		"(retried: %d replayed their committed answer, %d ran, %d got no answer within %s, %d answered 409), %d answers replayed",
		done, loop.Round(time.Millisecond), (time.Since(began) - loop).Round(time.Millisecond), len(h.journal.calls),
		h.stats.lost, h.stats.replayedOnRetry, h.stats.ranOnRetry, h.stats.stuck, retryTimeout, h.stats.conflicts, h.stats.replays)
}

// start runs a new child on the database and points the client at it.
func (h *harness) start() {
	h.t.Helper()
	c, err := startChild(h.exe, h.db, h.cred)
	if err != nil {
		h.t.Fatal(err)
	}
	h.child, h.api = c, newAPI(c.base, c.cred)
}

// kill stops the child with SIGKILL; it must have been running and must not
// have reported trouble.
func (h *harness) kill(when string) {
	h.t.Helper()
	if !h.child.kill() {
		h.failf("%s: the child had exited by itself before it:\n%s", when, h.child.output.String())
	}
	if s := h.child.trouble(); s != "" {
		h.failf("%s: the child reported:\n%s", when, s)
	}
	h.api.close()
	h.child = nil
}

// setup creates the fixtures (before any kill): a sink customer, and per
// worker a customer, its USD internal and external accounts and a first
// funding. These calls are journaled like any other.
func (h *harness) setup() {
	h.t.Helper()
	seq := 0
	post := func(path string, body any, want int) *call {
		seq++
		c := &call{Worker: -1, Kind: opSetup, Key: fmt.Sprintf("setup-%03d", seq), Path: path, Body: mustJSON(body), Want: want}
		h.journal.add(c)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		ans, err := h.api.post(ctx, c)
		if err != nil {
			h.t.Fatalf("setup: %s: %v", c, err)
		}
		if ans.Status != want {
			h.t.Fatalf("setup: %s: want %d, got %s", c, want, ans)
		}
		c.Answer = ans
		return c
	}
	customer := func(email string) (id, account string) {
		var cust struct {
			ID string `json:"id"`
		}
		decode(h.t, post("/customers", individual(email), http.StatusCreated), &cust)
		var page struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if err := h.api.getJSON("/customers/internal-accounts?currency=USD&customerId="+cust.ID, &page); err != nil || len(page.Data) != 1 {
			h.t.Fatalf("setup: the USD account of %s: %v %+v", cust.ID, err, page)
		}
		return cust.ID, page.Data[0].ID
	}
	_, sink := customer("sink@crash.example")
	for n := range workers {
		w := &worker{n: n, rng: rand.New(rand.NewPCG(h.rng.Uint64(), h.rng.Uint64())), sink: sink}
		w.customerID, w.account = customer(fmt.Sprintf("worker-%d@crash.example", n))
		var ext struct {
			ID string `json:"id"`
		}
		decode(h.t, post("/customers/external-accounts", map[string]any{"customerId": w.customerID, "currency": "USD",
			"accountInfo": map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "444555000", "routingNumber": "021000021",
				"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Crash Test Doe"}}}, http.StatusCreated), &ext)
		w.external = ext.ID
		const first = 100_000
		post("/sandbox/internal-accounts/"+w.account+"/fund", map[string]any{"amount": first}, http.StatusOK)
		w.funded = first
		h.workers = append(h.workers, w)
	}
}

// round runs the workers until a random kill, restarts the child and checks
// what the contract promises for what was in flight and what was answered.
func (h *harness) round(n int) {
	h.t.Helper()
	stop := make(chan struct{})
	lost := make([]*call, len(h.workers))
	var wg sync.WaitGroup
	for i, w := range h.workers {
		wg.Go(func() { lost[i] = w.run(stop, h, n) })
	}
	time.Sleep(minKillDelay + time.Duration(h.rng.Int64N(int64(maxKillDelay-minKillDelay))))
	h.kill(fmt.Sprintf("kill %d", n)) // breaks the requests in flight: nothing cancels them on the client's side
	close(stop)
	wg.Wait()

	h.checkLedger(fmt.Sprintf("after kill %d", n))
	h.start()
	h.retryLost(n, lost)
	h.replayAnswered(n, replaySample)
	h.checkBalances(fmt.Sprintf("after restart %d", n))
}

// retryLost sends every call that was in flight again, with its key and
// body, all at once. Each must answer at once with the answer it committed
// before the kill (replayed) or run now; either way with its success status.
// A worker has at most one call in flight, so each goroutine updates its own
// worker.
func (h *harness) retryLost(round int, lost []*call) {
	h.t.Helper()
	var wg sync.WaitGroup
	for i, c := range lost {
		if c == nil {
			continue
		}
		c.LostIn = round
		h.stats.lost++
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), retryTimeout)
			defer cancel()
			ans, err := h.api.post(ctx, c)
			if c.Answer = h.judgeRetry(round, c, ans, err); c.Answer == nil {
				h.workers[i].lose(c)
				return
			}
			h.workers[i].apply(h, c)
		})
	}
	wg.Wait()
}

// judgeRetry checks the retry of a call lost in a kill and returns the
// answer to keep as committed, or nil when the outcome stays unknown.
func (h *harness) judgeRetry(round int, c *call, ans *answer, err error) *answer {
	h.mu.Lock()
	defer h.mu.Unlock()
	const lost = "round %d: %s was in flight at the kill; its retry "
	switch {
	case err != nil:
		h.stats.stuck++
		c.Unknown = fmt.Sprintf("retry got no answer within %s", retryTimeout)
		h.failf(lost+"got no answer within %s (%v); want the committed answer replayed, or the request run, at once", round, c, retryTimeout, err)
		return nil
	case ans.Status == http.StatusConflict:
		h.stats.conflicts++
		c.Unknown = "retry answered 409 " + errorCode(ans.Body)
		h.failf(lost+"answered %s; want %d: the committed answer replayed, or the request run", round, c, ans, c.Want)
		return nil
	case ans.Status >= 500:
		c.Unknown = "retry answered " + strconv.Itoa(ans.Status)
		h.failf(lost+"answered %s; want %d", round, c, ans, c.Want)
		return nil
	case ans.Status != c.Want:
		h.failf(lost+"answered %s; want %d", round, c, ans, c.Want)
	}
	if ans.Replayed {
		h.stats.replayedOnRetry++
	} else {
		h.stats.ranOnRetry++
	}
	return ans
}

// replayAnswered re-sends up to n answered calls (all when n < 0): each must
// come back with the first answer, byte for byte, marked replayed.
func (h *harness) replayAnswered(round, n int) {
	h.t.Helper()
	all := h.journal.answered()
	pick := all
	if n >= 0 && len(all) > n {
		pick = make([]*call, n)
		for i := range pick {
			pick[i] = all[h.rng.IntN(len(all))]
		}
	}
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, c := range pick {
		if c.Answer.Status >= 500 {
			continue // not stored: a 5xx may be retried
		}
		h.stats.replays++
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), retryTimeout)
			defer cancel()
			ans, err := h.api.post(ctx, c)
			if err != nil {
				h.failf("round %d: replay of %s, answered in round %d: no answer within %s: %v", round, c, c.Round, retryTimeout, err)
				return
			}
			if ans.Status != c.Answer.Status || string(ans.Body) != string(c.Answer.Body) || !ans.Replayed {
				h.failf("round %d: replay of %s, answered in round %d:\n  got  %s\n  want %d replayed=true %s (byte for byte)",
					round, c, c.Round, ans, c.Answer.Status, clip(c.Answer.Body))
			}
		})
	}
	wg.Wait()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = crand.Read(b)
	return hex.EncodeToString(b)
}
