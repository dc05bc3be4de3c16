package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// opKind names what a journaled request does.
type opKind string

const (
	opSetup       opKind = "setup"    // fixtures: customers, accounts, first funding
	opCustomer    opKind = "customer" // POST /customers
	opFund        opKind = "fund"     // POST /sandbox/internal-accounts/{id}/fund
	opQuote       opKind = "quote"    // POST /quotes, executed by a later opExecute
	opExecute     opKind = "execute"  // POST /quotes/{id}/execute
	opQuoteNow    opKind = "quote-now"
	opTransferOut opKind = "transfer-out"
)

// answer is what the server said: status, exact body bytes and whether it
// marked the answer as a replay.
type answer struct {
	Status   int
	Body     []byte
	Replayed bool
}

func (a *answer) String() string {
	return fmt.Sprintf("%d replayed=%v %s", a.Status, a.Replayed, clip(a.Body))
}

// call is one journaled POST and what became of it.
type call struct {
	Worker int    // -1 for fixtures
	Kind   opKind //
	Key    string // Idempotency-Key
	Path   string // below basePath
	Body   []byte // exact bytes sent, nil for none
	Want   int    // the success status
	Amount int64  // money the call adds (fund) or may take (spends), in minor units
	Round  int    // round in which it was first sent

	// Answer is the committed answer: the first one acknowledged, or the one
	// a retry obtained after the request was lost in a kill. Nil while
	// unknown.
	Answer *answer
	// LostIn is the round whose kill caught the request in flight (0: never).
	LostIn int
	// Unknown says why the outcome can no longer be known: the retry after
	// the restart broke the contract. Such a call is never retried again.
	Unknown string
}

func (c *call) String() string {
	return fmt.Sprintf("POST %s (key %q, body %s)", c.Path, c.Key, clip(c.Body))
}

// journal keeps every call the parent made, in the order they were made.
type journal struct {
	mu    sync.Mutex
	calls []*call
}

func (j *journal) add(c *call) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.calls = append(j.calls, c)
}

// answered returns the calls with a committed answer.
func (j *journal) answered() []*call {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []*call
	for _, c := range j.calls {
		if c.Answer != nil {
			out = append(out, c)
		}
	}
	return out
}

// api is an HTTP client of one child incarnation.
type api struct {
	base, id, secret string
	hc               *http.Client
}

func newAPI(base, cred string) *api {
	id, secret, _ := strings.Cut(cred, ":")
	return &api{base: base, id: id, secret: secret, hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}}
}

// close drops the idle connections (the server behind them is dead).
func (a *api) close() { a.hc.CloseIdleConnections() }

// post sends c's request with its key. An error means no answer arrived:
// the request may or may not have reached the server.
func (a *api) post(ctx context.Context, c *call) (*answer, error) {
	return a.do(ctx, http.MethodPost, c.Path, c.Key, c.Body)
}

// get reads path.
func (a *api) get(ctx context.Context, path string) (*answer, error) {
	return a.do(ctx, http.MethodGet, path, "", nil)
}

func (a *api) do(ctx context.Context, method, path, key string, body []byte) (*answer, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(a.id, a.secret)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := a.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &answer{Status: res.StatusCode, Body: raw, Replayed: res.Header.Get("Idempotent-Replayed") == "true"}, nil
}

// getJSON reads path within a few seconds and decodes a 200 answer into v.
func (a *api) getJSON(path string, v any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ans, err := a.get(ctx, path)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	if ans.Status != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, ans)
	}
	if err := json.Unmarshal(ans.Body, v); err != nil {
		return fmt.Errorf("GET %s: %w in %s", path, err, clip(ans.Body))
	}
	return nil
}

// errorCode returns the code of an error body, "" for anything else.
func errorCode(body []byte) string {
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Code
}

// clip shortens a body for a message.
func clip(b []byte) string {
	const max = 400
	b = bytes.TrimSpace(b)
	if len(b) > max {
		return string(b[:max]) + fmt.Sprintf("...(%d bytes)", len(b))
	}
	return string(b)
}

// mustJSON encodes v (test values that always encode).
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
