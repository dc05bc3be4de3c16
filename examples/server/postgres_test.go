package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envChildArgs selects child mode of the test binary: the server's
// arguments, one per line.
const envChildArgs = "SERVER_TEST_CHILD_ARGS"

// TestServerChild is the server process of the Postgres tests, not a test:
// without SERVER_TEST_CHILD_ARGS it returns at once. With it, it runs the
// server with those arguments until killed (or until its parent's end of
// stdin closes).
func TestServerChild(t *testing.T) {
	args := os.Getenv(envChildArgs)
	if args == "" {
		return
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(3)
	}()
	if err := run(context.Background(), strings.Split(args, "\n"), func(string) string { return "" }, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "server child:", err)
		os.Exit(2)
	}
}

// server is one server process.
type server struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	base   string
	out    *syncBuffer
	exited chan struct{}
}

// startServer runs a server process on the Postgres schema and waits until
// it listens.
func startPGServer(t *testing.T, schema, cred string) *server {
	t.Helper()
	args := []string{"-addr", "127.0.0.1:0", "-postgres", pgtest.DSN(t), "-postgres-schema", schema, "-token", cred}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envChildArgs+"="+strings.Join(args, "\n"))
	s := &server{cmd: cmd, out: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = s.out
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	s.stdin = stdin
	require.NoError(t, cmd.Start())
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if base, ok := strings.CutPrefix(sc.Text(), "payments sandbox listening on "); ok {
				ready <- base
			}
		}
		_ = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(s.kill)
	select {
	case s.base = <-ready:
	case <-s.exited:
		t.Fatalf("the server exited: %s", s.out.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not listen within 30s: %s", s.out.String())
	}
	return s
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
	_ = s.stdin.Close()
}

// answer is an HTTP response.
type answer struct {
	status   int
	body     []byte
	replayed bool
}

var httpClient = &http.Client{Timeout: 20 * time.Second}

// send makes one request; err means no answer arrived.
func send(base, cred, method, path, key string, body any) (answer, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return answer{}, err
	}
	id, secret, _ := strings.Cut(cred, ":")
	req.SetBasicAuth(id, secret)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := httpClient.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{}, err
	}
	return answer{status: res.StatusCode, body: raw, replayed: res.Header.Get("Idempotent-Replayed") == "true"}, nil
}

// must makes a request that must answer want and decodes the answer.
func must(t *testing.T, base, cred, method, path string, body any, want int, out any) {
	t.Helper()
	a, err := send(base, cred, method, path, "", body)
	require.NoError(t, err)
	require.Equal(t, want, a.status, "%s %s: %s", method, path, a.body)
	if out != nil {
		require.NoError(t, json.Unmarshal(a.body, out))
	}
}

// usdAccount creates a customer and returns its USD internal account.
func usdAccount(t *testing.T, base, cred, email string) string {
	t.Helper()
	var c struct {
		ID string `json:"id"`
	}
	must(t, base, cred, "POST", "/customers", individualBody(email), http.StatusCreated, &c)
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	must(t, base, cred, "GET", "/customers/internal-accounts?currency=USD&customerId="+c.ID, nil, http.StatusOK, &page)
	require.Len(t, page.Data, 1)
	return page.Data[0].ID
}

func fund(t *testing.T, base, cred, account string, amount int64) {
	t.Helper()
	must(t, base, cred, "POST", "/sandbox/internal-accounts/"+account+"/fund", map[string]any{"amount": amount}, http.StatusOK, nil)
}

func individualBody(email string) map[string]any {
	return map[string]any{
		"customerType": "INDIVIDUAL", "fullName": "Multi Process Doe", "birthDate": "1990-01-15", "nationality": "US",
		"email": email, "phoneNumber": "+14155550123", "idType": "SSN", "identifier": "123-45-6789",
		"currencies": []string{"USD"},
		"address":    map[string]any{"line1": "1 Main St", "city": "Austin", "state": "TX", "postalCode": "78701", "country": "US"},
		"agreementConsents": []any{map[string]any{"type": "PROVIDER_END_USER_TERMS", "termsVersion": "2025-10-13",
			"acceptedAt": "2025-10-01T10:00:00Z", "ipAddress": "203.0.113.7", "acceptanceMethod": "CHECKBOX"}},
	}
}

func quoteBody(source, dest string, amount int64, now bool) map[string]any {
	return map[string]any{"source": map[string]any{"sourceType": "ACCOUNT", "accountId": source},
		"destination":        map[string]any{"destinationType": "ACCOUNT", "accountId": dest},
		"lockedCurrencySide": "SENDING", "lockedCurrencyAmount": amount, "immediatelyExecute": now}
}

// quoteAnswer is the part of a quote the tests read.
type quoteAnswer struct {
	ID                 string `json:"id"`
	Status             string `json:"status"`
	TotalSendingAmount int64  `json:"totalSendingAmount"`
}

// ledger opens the schema in this process and checks the ledger and the
// balance of account.
func checkLedger(t *testing.T, schema, account string, want int64) {
	t.Helper()
	ctx := context.Background()
	s, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, payments.CheckLedger(ctx, s))
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		got, err := payments.Balance(tx, account, "USD")
		assert.Equal(t, want, got, "balance of %s", account)
		return err
	}))
}

// TestPostgres_TwoProcesses runs two servers on one database and spreads
// concurrent requests over both: a quote executed from both at once
// executes once; K of N immediate quotes on an account funded for exactly K
// succeed, each idempotency key sent to both servers at once answering the
// same; the ledger holds.
func TestPostgres_TwoProcesses(t *testing.T) {
	schema := pgtest.Schema(t)
	cred := "multi:secret-0123456789abcdef"
	a := startPGServer(t, schema, cred)
	b := startPGServer(t, schema, cred)
	servers := []*server{a, b}
	payer := usdAccount(t, a.base, cred, "payer@multi.example")
	payee := usdAccount(t, b.base, cred, "payee@multi.example")

	// One quote executed 16 times from both servers executes once.
	var q quoteAnswer
	must(t, a.base, cred, "POST", "/quotes", quoteBody(payer, payee, 100, false), http.StatusCreated, &q)
	total := q.TotalSendingAmount
	require.Positive(t, total)
	fund(t, b.base, cred, payer, total)
	var executed atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ans, err := send(servers[i%2].base, cred, "POST", "/quotes/"+q.ID+"/execute", fmt.Sprintf("exec-%d", i), nil)
			if assert.NoError(t, err) {
				assert.Less(t, ans.status, 500, "%s", ans.body)
				if ans.status == http.StatusOK {
					executed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 1, executed.Load(), "the quote executed more than once")
	checkLedger(t, schema, payer, 0)

	// Exactly K of N immediate quotes succeed; every key goes to both
	// servers at once and both answer the same.
	const k, n = 8, 24
	fund(t, a.base, cred, payer, k*total)
	checkLedger(t, schema, payer, k*total)
	answers := make([][2]answer, n)
	for i := range n {
		for j, s := range servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ans, err := send(s.base, cred, "POST", "/quotes", fmt.Sprintf("pay-%02d", i), quoteBody(payer, payee, 100, true))
				assert.NoError(t, err)
				answers[i][j] = ans
			}()
		}
	}
	wg.Wait()
	ids := map[string]bool{}
	for i, pair := range answers {
		assert.Equal(t, pair[0].status, pair[1].status, "key %d: the servers answered differently: %s / %s", i, pair[0].body, pair[1].body)
		assert.Less(t, pair[0].status, 500, "%s", pair[0].body)
		if pair[0].status != http.StatusCreated || pair[1].status != http.StatusCreated {
			continue
		}
		var x, y quoteAnswer
		require.NoError(t, json.Unmarshal(pair[0].body, &x))
		require.NoError(t, json.Unmarshal(pair[1].body, &y))
		assert.Equal(t, x.ID, y.ID, "key %d ran twice", i)
		assert.True(t, pair[0].replayed || pair[1].replayed, "key %d: neither answer is a replay", i)
		ids[x.ID] = true
	}
	assert.Len(t, ids, k, "successful payments")
	checkLedger(t, schema, payer, 0)
}

// TestPostgres_CrashOneProcess kills one of two servers with SIGKILL under
// load; requests that got no answer are retried with their keys on the
// survivor, which keeps serving. Every acknowledged payment replays, and
// the money adds up exactly.
func TestPostgres_CrashOneProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a server process")
	}
	schema := pgtest.Schema(t)
	cred := "crash:secret-0123456789abcdef"
	a := startPGServer(t, schema, cred)
	b := startPGServer(t, schema, cred)
	const workers, funded = 4, 1_000_000
	sink := usdAccount(t, b.base, cred, "sink@crash.example")
	payers := make([]string, workers)
	for w := range payers {
		payers[w] = usdAccount(t, b.base, cred, fmt.Sprintf("payer%d@crash.example", w))
		fund(t, b.base, cred, payers[w], funded)
	}

	type paid struct {
		key, id string
		total   int64
	}
	var (
		mu        sync.Mutex
		acked     []paid
		spent     = make([]int64, workers)
		retried   atomic.Int32
		afterKill atomic.Int32
		killed    atomic.Bool
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("w%d-%05d", w, i)
				body := quoteBody(payers[w], sink, 100+int64(i%50), true)
				target := []*server{a, b}[i%2]
				ans, err := send(target.base, cred, "POST", "/quotes", key, body)
				deadline := time.Now().Add(20 * time.Second)
				for err != nil && time.Now().Before(deadline) {
					retried.Add(1)
					ans, err = send(b.base, cred, "POST", "/quotes", key, body)
				}
				if !assert.NoError(t, err, "key %s: the survivor did not answer", key) ||
					!assert.Equal(t, http.StatusCreated, ans.status, "key %s: %s", key, ans.body) {
					return
				}
				var q quoteAnswer
				require.NoError(t, json.Unmarshal(ans.body, &q))
				if killed.Load() {
					afterKill.Add(1)
				}
				mu.Lock()
				acked = append(acked, paid{key, q.ID, q.TotalSendingAmount})
				spent[w] += q.TotalSendingAmount
				mu.Unlock()
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	a.kill()
	killed.Store(true)
	time.Sleep(700 * time.Millisecond)
	close(stop)
	wg.Wait()
	t.Logf("%d payments acknowledged, %d after the kill; %d requests retried on the survivor", len(acked), afterKill.Load(), retried.Load())
	require.Positive(t, afterKill.Load(), "the survivor served nothing after the kill")

	// Every acknowledged payment replays its answer on the survivor.
	for _, p := range acked {
		w := 0
		_, _ = fmt.Sscanf(p.key, "w%d-", &w)
		var i int
		_, _ = fmt.Sscanf(p.key[strings.IndexByte(p.key, '-')+1:], "%d", &i)
		ans, err := send(b.base, cred, "POST", "/quotes", p.key, quoteBody(payers[w], sink, 100+int64(i%50), true))
		require.NoError(t, err)
		var q quoteAnswer
		require.NoError(t, json.Unmarshal(ans.body, &q))
		assert.True(t, ans.replayed && q.ID == p.id, "key %s: want a replay of %s, got %d %s", p.key, p.id, ans.status, ans.body)
	}
	for w, acct := range payers {
		checkLedger(t, schema, acct, funded-spent[w])
	}
}

// TestPostgres_BannerNamesDatabase: on PostgreSQL the start banner names
// the host, the database, the user and the schema the server uses, and
// never the DSN's password; without -postgres-schema, the schema the
// connection's search_path resolves to.
func TestPostgres_BannerNamesDatabase(t *testing.T) {
	dsn := pgtest.DSN(t)
	schema := pgtest.Schema(t)
	cfg, err := pgx.ParseConfig(dsn)
	require.NoError(t, err)
	const password = "banner-password-never-shown"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"-addr", "127.0.0.1:0", "-postgres", dsn + " password=" + password,
			"-postgres-schema", schema, "-token", "banner:banner-secret-0123456789"}, func(string) string { return "" }, &out, ready)
	}()
	select {
	case <-ready:
	case err := <-errc:
		t.Fatalf("the server stopped: %v\n%s", err, out.String())
	}
	cancel()
	require.NoError(t, <-errc)
	line := ""
	for l := range strings.SplitSeq(out.String(), "\n") {
		if strings.HasPrefix(l, "database: ") {
			line = l
		}
	}
	assert.Equal(t, fmt.Sprintf("database: PostgreSQL (-postgres): host %s port %d, database %s, user %s, schema %s",
		cfg.Host, cfg.Port, cfg.Database, cfg.User, schema), line)
	assert.NotContains(t, out.String(), password)

	assert.Equal(t, fmt.Sprintf("PostgreSQL (-postgres): host %s port %d, database %s, user %s, schema public",
		cfg.Host, cfg.Port, cfg.Database, cfg.User), describePostgres(context.Background(), dsn, ""),
		"without -postgres-schema: the schema of the search_path")
}
