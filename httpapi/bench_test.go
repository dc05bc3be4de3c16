package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/paygrid/payments/storage/storetest"
	bolt "go.etcd.io/bbolt"
)

// The HTTP benchmarks compare the API with a baseline handler served the
// same way (an httptest server, one shared client and transport) and
// measured in the same sub-benchmark: b.N requests to each, interleaved in
// rounds so that a change in the machine's load hits both. Each reports
// ns/op and ops/s for the API, baseline-ns/op and baseline-ops/s, and
// ratio_vs_minimal (the API's throughput over the baseline's).

// minimalHandler is the baseline of the memstore benchmarks: a net/http
// JSON handler that decodes a small body and encodes a small answer.
func minimalHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "Quote:x", "status": "PENDING", "echo": v})
	})
}

// groupBolt commits two-balance bbolt transfers the way boltstore commits
// Updates: one committer goroutine takes every request already waiting (no
// timer), runs them in one bbolt write transaction and fsyncs once.
type groupBolt struct {
	db   *bolt.DB
	reqs chan *boltReq
	seq  atomic.Int64
}

type boltReq struct {
	n    int64
	done chan error
}

func openGroupBolt(b *testing.B) *groupBolt {
	db, err := bolt.Open(filepath.Join(b.TempDir(), "baseline.db"), 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	g := &groupBolt{db: db, reqs: make(chan *boltReq, 1024)}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for first := range g.reqs {
			group := []*boltReq{first}
		fill:
			for len(group) < 1024 {
				select {
				case r, ok := <-g.reqs:
					if !ok {
						break fill
					}
					group = append(group, r)
				default:
					break fill
				}
			}
			err := db.Update(func(tx *bolt.Tx) error {
				for _, r := range group {
					if err := transferBolt(tx, r.n); err != nil {
						return err
					}
				}
				return nil
			})
			for _, r := range group {
				r.done <- err
			}
		}
	}()
	b.Cleanup(func() { close(g.reqs); <-stopped; _ = db.Close() })
	return g
}

// transferBolt moves one unit between two balances and appends the journal
// entry and the payment record.
func transferBolt(tx *bolt.Tx, n int64) error {
	bal, err := tx.CreateBucketIfNotExists([]byte("balances"))
	if err != nil {
		return err
	}
	for i, k := range []string{"a|USD", "b|USD"} {
		v, _ := strconv.ParseInt(string(bal.Get([]byte(k))), 10, 64)
		if err := bal.Put([]byte(k), strconv.AppendInt(nil, v+int64(2*i-1), 10)); err != nil {
			return err
		}
	}
	id := fmt.Sprintf("E:%012d", n)
	entry := fmt.Sprintf(`{"id":%q,"postings":[{"account":"a","currency":"USD","amount":-1},{"account":"b","currency":"USD","amount":1}]}`, id)
	for _, kv := range [][3]string{{"entries", id, entry}, {"records", id, `{"status":"COMPLETED"}`}} {
		bk, err := tx.CreateBucketIfNotExists([]byte(kv[0]))
		if err != nil {
			return err
		}
		if err := bk.Put([]byte(kv[1]), []byte(kv[2])); err != nil {
			return err
		}
	}
	return nil
}

// boltHandler is the baseline of the boltstore benchmark: decode the body,
// run one transfer through the group commit, encode a small answer.
func boltHandler(g *groupBolt) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		req := &boltReq{n: g.seq.Add(1), done: make(chan error, 1)}
		g.reqs <- req
		if err := <-req.done; err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "Transaction:" + strconv.FormatInt(req.n, 10), "status": "COMPLETED"})
	})
}

// target is one side of a comparison: where to send what, and the status
// every answer must have.
type target struct {
	url, cred string
	body      []byte
	status    int
}

// send sends n requests to t from clients goroutines and returns the time
// and the process's CPU time it took (the client's side included; zero
// where the platform cannot tell).
func send(b *testing.B, client *http.Client, t target, n, clients int) (elapsed, cpu time.Duration) {
	cpu0, _ := storetest.CPUTime()
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				req, _ := http.NewRequest("POST", t.url, bytes.NewReader(t.body))
				req.Header.Set("Content-Type", "application/json")
				if t.cred != "" {
					id, secret := basic(t.cred)
					req.SetBasicAuth(id, secret)
				}
				res, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				raw, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != t.status {
					b.Errorf("status %d: %s", res.StatusCode, raw)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed = time.Since(start)
	cpu1, _ := storetest.CPUTime()
	return elapsed, cpu1 - cpu0
}

// compare sends b.N requests to ours and to baseline through one client,
// in ten interleaved rounds, and reports both and their ratio. Where the
// platform tells the process's CPU time it also reports cpu-ns/op and
// baseline-cpu-ns/op, each side's CPU per request with the client's share:
// when the clients keep every processor busy, ratio_vs_minimal is about
// their ratio, whatever the store does.
func compare(b *testing.B, ours, baseline target, clients int) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients + 8}}
	defer client.CloseIdleConnections()
	// Warm both servers' connections before the clock starts.
	send(b, client, baseline, clients, clients)
	send(b, client, ours, clients, clients)
	b.ResetTimer()
	var tOurs, tBase, cpuOurs, cpuBase time.Duration
	const rounds = 10
	for i := range rounds {
		n := b.N/rounds + min(1, max(0, b.N%rounds-i))
		if n == 0 {
			continue
		}
		t, cpu := send(b, client, baseline, n, clients)
		tBase, cpuBase = tBase+t, cpuBase+cpu
		t, cpu = send(b, client, ours, n, clients)
		tOurs, cpuOurs = tOurs+t, cpuOurs+cpu
	}
	b.StopTimer()
	perOp := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	nsOurs, nsBase := perOp(tOurs), perOp(tBase)
	b.ReportMetric(nsOurs, "ns/op")
	b.ReportMetric(1e9/nsOurs, "ops/s")
	b.ReportMetric(nsBase, "baseline-ns/op")
	b.ReportMetric(1e9/nsBase, "baseline-ops/s")
	b.ReportMetric(nsBase/nsOurs, "ratio_vs_minimal")
	if cpuOurs > 0 && cpuBase > 0 {
		b.ReportMetric(perOp(cpuOurs), "cpu-ns/op")
		b.ReportMetric(perOp(cpuBase), "baseline-cpu-ns/op")
	}
}

// benchServer is an httpapi server over a sandbox engine on store (no
// wire check on the measured requests: the test helpers set up the data).
func benchServer(b *testing.B, store payments.Store) *server {
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true, KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{}})
	if err != nil {
		b.Fatal(err)
	}
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "bench", Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base}))
	b.Cleanup(func() { srv.Close(); _ = eng.Close(); _ = store.Close() })
	return &server{t: b, eng: eng, store: store, http: srv, cred: tok.Credential()}
}

// quoteTargets returns the three measured requests on s: POST /quotes to an
// external EUR account, and POST /quotes with immediatelyExecute from a
// funded USD account to another customer's USD account and to the external
// account.
func quoteTargets(s *server) (create, toInternal, toExternal target) {
	id, acct := s.funded(payments.MaxSandboxFunding)
	_, other := s.funded(0)
	ext := s.eurAccount(id, "DE89370400440532013000")
	mk := func(dest string, execute bool) target {
		body := quoteBody(acct, dest, 100)
		if execute {
			body["immediatelyExecute"] = true
		}
		raw, _ := json.Marshal(body)
		return target{url: s.http.URL + base + "/quotes", cred: s.cred, body: raw, status: 201}
	}
	return mk(ext, false), mk(other, true), mk(ext, true)
}

// BenchmarkHTTPQuotes measures, on memstore at 8 clients, POST /quotes alone
// (target ratio_vs_minimal >= 0.5) and quote create+execute to an internal
// and to an external account (target >= 0.3) against minimalHandler.
func BenchmarkHTTPQuotes(b *testing.B) {
	baseline := httptest.NewServer(minimalHandler())
	defer baseline.Close()
	for _, c := range []string{"create", "create+execute/internal", "create+execute/external"} {
		b.Run("memstore/"+c, func(b *testing.B) {
			s := benchServer(b, memstore.New())
			create, toInternal, toExternal := quoteTargets(s)
			ours := map[string]target{"create": create, "create+execute/internal": toInternal, "create+execute/external": toExternal}[c]
			compare(b, ours, target{url: baseline.URL, body: ours.body, status: 201}, 8)
		})
	}
}

// BenchmarkHTTPQuotesBolt measures quote create+execute (internal to
// internal account) over HTTP on boltstore against boltHandler, a minimal
// handler doing one two-balance bbolt transfer through a timer-free group
// commit, at 1 and 64 clients (target ratio_vs_minimal >= 1.0).
func BenchmarkHTTPQuotesBolt(b *testing.B) {
	for _, clients := range []int{1, 64} {
		b.Run(fmt.Sprintf("create+execute/internal/clients=%d", clients), func(b *testing.B) {
			baseline := httptest.NewServer(boltHandler(openGroupBolt(b)))
			defer baseline.Close()
			store, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			s := benchServer(b, store)
			_, toInternal, _ := quoteTargets(s)
			compare(b, toInternal, target{url: baseline.URL, body: toInternal.body, status: 201}, clients)
		})
	}
}
