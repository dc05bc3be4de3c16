// Command httpbench measures the sandbox server over HTTP with the load
// generator in its own process (wrk, from Debian's packages), beside two
// minimal handlers in the same run, and prints the ratios the Speed section
// of the README quotes:
//
//   - memory POST /quotes against a minimal net/http JSON handler;
//   - memory quote + immediatelyExecute against the same handler;
//   - bbolt quote + immediatelyExecute against a minimal handler that
//     commits a two-balance transfer and a journal record to bbolt.
//
// Each case gets a fresh server process. Beside requests per second it
// reports the CPU the server process spent per request (user + system
// time from /proc, read before and after the load), so that a ratio is not
// mistaken for a cost. A Go client in the server's process would spend as
// much CPU as the server and make both sides of a ratio look alike, which
// is why the load comes from wrk.
//
//	go run ./internal/httpbench            # 5 s per case, 32 connections
//	go run ./internal/httpbench -d 10s -c 64 -runs 3
//
// With -runs N every case runs N times and the median is reported. The
// command is also the minimal handlers' server (-serve-minimal ADDR), so
// both sides of each ratio are built the same way.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The server's fixed credential (-token).
const (
	clientID     = "bench-client"
	clientSecret = "bench-secret-0123456789"
	token        = clientID + ":" + clientSecret
)

func main() {
	serve := flag.String("serve-minimal", "", "serve the minimal handlers on this address (used by the benchmark itself)")
	dir := flag.String("dir", "", "the minimal bbolt handler's directory")
	dur := flag.Duration("d", 5*time.Second, "load per case")
	conns := flag.Int("c", 32, "wrk connections")
	runs := flag.Int("runs", 1, "runs per case; the median is reported")
	flag.Parse()
	if *serve != "" {
		if err := serveMinimal(*serve, *dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := run(*dur, *conns, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "httpbench:", err)
		os.Exit(1)
	}
}

// result is one case's measurement.
type result struct {
	name     string
	rps      float64
	cpuPerOp time.Duration // the server process's CPU per request
	non2xx   int
}

func run(dur time.Duration, conns, runs int) error {
	if _, err := exec.LookPath("wrk"); err != nil {
		return errors.New("wrk is not installed (apt-get install wrk)")
	}
	work, err := os.MkdirTemp("", "httpbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	server := filepath.Join(work, "server")
	if out, err := exec.Command("go", "build", "-o", server, "./examples/server").CombinedOutput(); err != nil {
		return fmt.Errorf("building the server: %v\n%s", err, out)
	}
	cases := []struct {
		name string
		run  func() (result, error)
	}{
		{"minimal net/http JSON", func() (result, error) {
			return minimalCase(self, work, "/quotes", dur, conns)
		}},
		{"minimal bbolt transfer", func() (result, error) {
			return minimalCase(self, work, "/transfers", dur, conns)
		}},
		{"memory POST /quotes", func() (result, error) {
			return serverCase(server, []string{"-memory"}, false, dur, conns)
		}},
		{"memory quote+execute", func() (result, error) {
			return serverCase(server, []string{"-memory"}, true, dur, conns)
		}},
		{"bbolt quote+execute", func() (result, error) {
			return serverCase(server, []string{"-db", filepath.Join(work, fmt.Sprintf("bench-%d.db", rand.Int()))}, true, dur, conns)
		}},
	}
	got := map[string]result{}
	for _, c := range cases {
		var rs []result
		for range runs {
			r, err := c.run()
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			r.name = c.name
			rs = append(rs, r)
		}
		slices.SortFunc(rs, func(a, b result) int { return int(a.rps - b.rps) })
		r := rs[len(rs)/2]
		got[c.name] = r
		fmt.Printf("%-26s %9.0f req/s  %6.1f µs CPU/req  non-2xx %d\n", r.name, r.rps, float64(r.cpuPerOp.Nanoseconds())/1e3, r.non2xx)
	}
	base, bolt := got["minimal net/http JSON"].rps, got["minimal bbolt transfer"].rps
	fmt.Printf("ratio memory POST /quotes      %5.2fx the minimal handler\n", got["memory POST /quotes"].rps/base)
	fmt.Printf("ratio memory quote+execute     %5.2fx the minimal handler\n", got["memory quote+execute"].rps/base)
	fmt.Printf("ratio bbolt quote+execute      %5.2fx the minimal bbolt transfer\n", got["bbolt quote+execute"].rps/bolt)
	return nil
}

// minimalCase serves the minimal handlers in a process of their own and
// loads path.
func minimalCase(self, work, path string, dur time.Duration, conns int) (result, error) {
	addr, err := freeAddr()
	if err != nil {
		return result{}, err
	}
	cmd := exec.Command(self, "-serve-minimal", addr, "-dir", filepath.Join(work, fmt.Sprintf("minimal-%d", rand.Int())))
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer stop(cmd)
	if err := waitUp("http://" + addr + "/ready"); err != nil {
		return result{}, err
	}
	return load(cmd.Process.Pid, "http://"+addr+path, minimalBody, "", dur, conns)
}

// serverCase starts the sandbox server with flags, sets up a funded
// customer with an external account, and loads POST /quotes.
func serverCase(server string, flags []string, execute bool, dur time.Duration, conns int) (result, error) {
	addr, err := freeAddr()
	if err != nil {
		return result{}, err
	}
	args := append([]string{"-addr", addr, "-token", token}, flags...) // otherwise the defaults an operator gets
	cmd := exec.Command(server, args...)
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer stop(cmd)
	api := "http://" + addr + "/2025-10-13"
	if err := waitUp(api + "/config"); err != nil {
		return result{}, err
	}
	src, dst, err := setup(api)
	if err != nil {
		return result{}, err
	}
	body := fmt.Sprintf(`{"source":{"sourceType":"ACCOUNT","accountId":%q},"destination":{"destinationType":"ACCOUNT","accountId":%q},"lockedCurrencySide":"SENDING","lockedCurrencyAmount":1000%s}`,
		src, dst, map[bool]string{true: `,"immediatelyExecute":true`}[execute])
	return load(cmd.Process.Pid, api+"/quotes", body, "Basic "+base64.StdEncoding.EncodeToString([]byte(token)), dur, conns)
}

// setup creates a customer who accepted the end-user terms, funds its USD
// account and adds an EUR external account, and returns the two ids.
func setup(api string) (src, dst string, err error) {
	var cfg struct{}
	if err := call(api, "PATCH", "/config", `{"skipVerificationPaperwork":true}`, &cfg); err != nil {
		return "", "", err
	}
	var terms struct{ Version string }
	if err := call(api, "GET", "/customers/end-user-terms", "", &terms); err != nil {
		return "", "", err
	}
	var cust struct{ ID string }
	if err := call(api, "POST", "/customers", `{"customerType":"INDIVIDUAL","fullName":"Bench Payer","agreementConsents":[{"type":"PROVIDER_END_USER_TERMS","termsVersion":"`+terms.Version+`","acceptedAt":"2026-01-01T00:00:00Z","ipAddress":"198.51.100.1","acceptanceMethod":"CHECKBOX"}]}`, &cust); err != nil {
		return "", "", err
	}
	var accts struct {
		Data []struct {
			ID      string
			Balance struct{ Currency struct{ Code string } }
		}
	}
	if err := call(api, "GET", "/customers/internal-accounts?customerId="+cust.ID, "", &accts); err != nil {
		return "", "", err
	}
	for _, a := range accts.Data {
		if a.Balance.Currency.Code == "USD" {
			src = a.ID
		}
	}
	if src == "" {
		return "", "", errors.New("the customer has no USD account")
	}
	for range 10 {
		if err := call(api, "POST", "/sandbox/internal-accounts/"+src+"/fund", `{"amount":100000000000}`, nil); err != nil {
			return "", "", err
		}
	}
	var ext struct{ ID string }
	err = call(api, "POST", "/customers/external-accounts", `{"customerId":"`+cust.ID+`","currency":"EUR","accountInfo":{"accountType":"EUR_ACCOUNT","iban":"DE89370400440532013000","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Bench Payee","countryOfResidence":"DE"}}}`, &ext)
	return src, ext.ID, err
}

// call makes one API request and decodes its answer into out.
func call(api, method, path, body string, out any) error {
	req, err := http.NewRequest(method, api+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.SetBasicAuth(clientID, clientSecret)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s %s", method, path, resp.Status, b)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// load runs wrk against url with body and returns what it measured and
// the CPU the process pid spent per request meanwhile.
func load(pid int, url, body, auth string, dur time.Duration, conns int) (result, error) {
	script, err := os.CreateTemp("", "httpbench-*.lua")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(script.Name())
	lua := "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = [[" + body + "]]\n"
	if auth != "" {
		lua += "wrk.headers[\"Authorization\"] = \"" + auth + "\"\n"
	}
	if _, err := script.WriteString(lua); err != nil {
		return result{}, err
	}
	script.Close()
	before, err := cpuOf(pid)
	if err != nil {
		return result{}, err
	}
	out, err := exec.Command("wrk", "-t2", "-c"+strconv.Itoa(conns), "-d"+dur.String(), "-s", script.Name(), url).CombinedOutput()
	if err != nil {
		return result{}, fmt.Errorf("wrk: %v\n%s", err, out)
	}
	after, err := cpuOf(pid)
	if err != nil {
		return result{}, err
	}
	r := result{}
	if m := regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`).FindSubmatch(out); m != nil {
		r.rps, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m := regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`).FindSubmatch(out); m != nil {
		r.non2xx, _ = strconv.Atoi(string(m[1]))
	}
	if n := r.rps * dur.Seconds(); n > 0 {
		r.cpuPerOp = time.Duration(float64(after-before) / n)
	}
	return r, nil
}

// cpuOf is the user and system CPU time the process pid has used.
func cpuOf(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name (which is in parentheses and may
	// hold spaces): utime and stime are the 14th and 15th of the line.
	fs := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	utime, _ := strconv.ParseInt(fs[11], 10, 64)
	stime, _ := strconv.ParseInt(fs[12], 10, 64)
	const ticks = 100 // sysconf(_SC_CLK_TCK) on Linux
	return time.Duration(utime+stime) * time.Second / ticks, nil
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitUp waits until url answers at all.
func waitUp(url string) error {
	for range 200 {
		req, _ := http.NewRequest("GET", url, nil)
		req.SetBasicAuth(clientID, clientSecret)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s did not come up", url)
}

func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// The minimal handlers: the least a JSON-over-HTTP payment service does.

// minimalBody is a quote request with an idempotency key, a description
// and metadata, the shape of ../shared/bench/perfbase's, so that both
// benchmarks measure the same minimal handler.
const minimalBody = `{"sourceAccountId":"acc_01HZX3Q7V9K2M4N6P8R0S2T4V6","destinationAccountId":"acc_01HZX3Q7V9K2M4N6P8R0S2T4V7","sourceCurrency":"USD","destinationCurrency":"EUR","amount":"1250.00","amountSide":"source","customerId":"cus_01HZX3Q7V9K2M4N6P8R0S2T4V8","idempotencyKey":"idem_7f3c2a9e-5b41-4d8e-9c0a-2e6f1b3d4a5c","description":"Invoice 2025-0042 settlement for supplier payout","metadata":{"invoiceId":"inv_2025_0042","orderRef":"ord_88812391","channel":"api","region":"eu-west","note":"xxxxx"}}`

type minimalQuote struct {
	SourceAccountID      string            `json:"sourceAccountId"`
	DestinationAccountID string            `json:"destinationAccountId"`
	SourceCurrency       string            `json:"sourceCurrency"`
	DestinationCurrency  string            `json:"destinationCurrency"`
	Amount               string            `json:"amount"`
	AmountSide           string            `json:"amountSide"`
	CustomerID           string            `json:"customerId"`
	IdempotencyKey       string            `json:"idempotencyKey"`
	Description          string            `json:"description"`
	Metadata             map[string]string `json:"metadata"`
}

type minimalAnswer struct {
	minimalQuote
	ID                string    `json:"id"`
	Status            string    `json:"status"`
	DestinationAmount string    `json:"destinationAmount"`
	Rate              string    `json:"rate"`
	Fee               string    `json:"fee"`
	CreatedAt         time.Time `json:"createdAt"`
	ExpiresAt         time.Time `json:"expiresAt"`
}

const minimalAccounts = 10_000

// serveMinimal serves POST /quotes (decode, answer) and POST /transfers
// (decode, commit a two-balance transfer and a journal record to bbolt
// with fsync, answer) on addr, and GET /ready.
func serveMinimal(addr, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	db, err := bolt.Open(filepath.Join(dir, "minimal.db"), 0o600, nil)
	if err != nil {
		return err
	}
	db.MaxBatchSize = 64
	balances, journal := []byte("balances"), []byte("journal")
	if err := db.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(journal); err != nil {
			return err
		}
		b, err := tx.CreateBucketIfNotExists(balances)
		if err != nil {
			return err
		}
		for i := range minimalAccounts {
			if err := b.Put(binary.BigEndian.AppendUint32(nil, uint32(i)), binary.BigEndian.AppendUint64(nil, 1<<40)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	var seq atomic.Uint64
	answer := func(w http.ResponseWriter, q minimalQuote) {
		now := time.Now().UTC()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(minimalAnswer{minimalQuote: q, ID: fmt.Sprintf("qt_%020d", seq.Add(1)), Status: "PENDING",
			DestinationAmount: "1152.37", Rate: "0.921896", Fee: "1.25", CreatedAt: now, ExpiresAt: now.Add(time.Minute)})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, _ *http.Request) {})
	mux.HandleFunc("POST /quotes", func(w http.ResponseWriter, r *http.Request) {
		var q minimalQuote
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&q); err != nil {
			http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
			return
		}
		answer(w, q)
	})
	mux.HandleFunc("POST /transfers", func(w http.ResponseWriter, r *http.Request) {
		var q minimalQuote
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&q); err != nil {
			http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
			return
		}
		from := uint32(rand.IntN(minimalAccounts))
		to := (from + 1 + uint32(rand.IntN(minimalAccounts-1))) % minimalAccounts
		err := db.Batch(func(tx *bolt.Tx) error {
			b := tx.Bucket(balances)
			for _, m := range []struct {
				acct  uint32
				delta int64
			}{{from, -125000}, {to, 125000}} {
				k := binary.BigEndian.AppendUint32(nil, m.acct)
				v := int64(binary.BigEndian.Uint64(b.Get(k))) + m.delta
				if v < 0 {
					return errors.New("insufficient funds")
				}
				if err := b.Put(k, binary.BigEndian.AppendUint64(nil, uint64(v))); err != nil {
					return err
				}
			}
			id, _ := tx.Bucket(journal).NextSequence()
			rec, _ := json.Marshal(q)
			return tx.Bucket(journal).Put(binary.BigEndian.AppendUint64(nil, id), rec)
		})
		if err != nil {
			http.Error(w, `{"error":"`+err.Error()+`"}`, http.StatusConflict)
			return
		}
		answer(w, q)
	})
	return http.ListenAndServe(addr, mux)
}
