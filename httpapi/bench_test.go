package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
)

// load sends b.N POSTs of body to url from 8 goroutines and returns the
// rate and the 99th-percentile latency.
func load(b *testing.B, url, cred string, body []byte, status int) (float64, time.Duration) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	lat := make([]time.Duration, 0, b.N)
	var mu sync.Mutex
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				if cred != "" {
					id, secret := basic(cred)
					req.SetBasicAuth(id, secret)
				}
				t0 := time.Now()
				res, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				d := time.Since(t0)
				if res.StatusCode != status {
					b.Errorf("status %d", res.StatusCode)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	rate := float64(b.N) / time.Since(start).Seconds()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return rate, lat[len(lat)*99/100]
}

// BenchmarkHTTPCreateQuote measures POST /quotes on memstore against a
// minimal net/http JSON handler (decode the body, encode a small object) in
// the same run: x-baseline is the throughput ratio, p99-x the ratio of the
// 99th-percentile latencies.
func BenchmarkHTTPCreateQuote(b *testing.B) {
	baseline := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "Quote:x", "status": "PENDING", "echo": v})
	}))
	defer baseline.Close()

	store := memstore.New()
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true, KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{}})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	tok, _ := eng.CreateToken(ctx, payments.CreateTokenRequest{Name: "bench", Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	srv := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: base}))
	defer srv.Close()
	s := &server{t: b, eng: eng, store: store, http: srv, cred: tok.Credential()}
	id, acct := s.funded(0)
	dest := s.eurAccount(id, "DE89370400440532013000")
	body, _ := json.Marshal(quoteBody(acct, dest, 1000))

	b.ResetTimer()
	baseRate, baseP99 := load(b, baseline.URL, "", body, 201)
	rate, p99 := load(b, srv.URL+base+"/quotes", tok.Credential(), body, 201)
	b.StopTimer()
	b.ReportMetric(rate, "quotes/s")
	b.ReportMetric(baseRate, "baseline-req/s")
	b.ReportMetric(rate/baseRate, "x-baseline")
	b.ReportMetric(float64(p99.Microseconds()), "p99-µs")
	b.ReportMetric(float64(p99)/float64(baseP99), "p99-x")
}
