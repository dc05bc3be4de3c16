package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func call(t *testing.T, cred, method, url, body string, headers ...string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if cred != "" {
		id, secret, _ := strings.Cut(cred, ":")
		req.SetBasicAuth(id, secret)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return res.StatusCode, m
}

// syncBuffer is a Builder safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRun_Memory(t *testing.T) {
	errc := make(chan error, 1)
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready = make(chan string, 1)
	var out syncBuffer
	go func() {
		errc <- run(ctx, []string{"-memory", "-addr", "127.0.0.1:0"}, func(k string) string {
			if k == "PAYMENTS_API_TOKEN" {
				return "sandbox-client:sandbox-secret-0123456789"
			}
			return ""
		}, &out, ready)
	}()
	base := <-ready
	cred := "sandbox-client:sandbox-secret-0123456789"
	status, cfg := call(t, cred, "GET", base+"/config", "")
	require.Equal(t, 200, status)
	assert.Equal(t, false, cfg["isRegulatedFinancialInstitution"])
	status, body := call(t, "sandbox-client:wrong", "GET", base+"/config", "")
	assert.Equal(t, 401, status)
	assert.Equal(t, "UNAUTHORIZED", body["code"])

	status, tok := call(t, cred, "POST", base+"/tokens", `{"name":"viewer","permissions":["VIEW"]}`)
	require.Equal(t, 201, status)
	view := tok["clientId"].(string) + ":" + tok["clientSecret"].(string)
	status, body = call(t, view, "PATCH", base+"/config", `{"umaDomain":"x.example.com"}`)
	assert.Equal(t, 403, status)
	assert.Equal(t, "FORBIDDEN", body["code"])
	assert.Contains(t, out.String(), "API token (clientId:secret): "+cred)
	assert.Contains(t, out.String(), "curl -u")
	assert.Contains(t, out.String(), "BEGIN PUBLIC KEY")
	cancel()
	require.NoError(t, <-errc)
}

// TestServer_SurvivesKill9 builds the server, creates a token over HTTP,
// kills the process with SIGKILL, restarts it on the same file and uses the
// token again.
func TestServer_SurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "server")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	db := filepath.Join(dir, "pay.db")

	start := func() (*exec.Cmd, string, string) {
		cmd := exec.Command(bin, "-db", db, "-addr", "127.0.0.1:0")
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		sc := bufio.NewScanner(stdout)
		var base, cred string
		reBase := regexp.MustCompile(`listening on (\S+)`)
		reCred := regexp.MustCompile(`API token \(clientId:secret\): (\S+)`)
		deadline := time.After(20 * time.Second)
		lines := make(chan string)
		go func() {
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		for {
			select {
			case l, ok := <-lines:
				require.True(t, ok, "server exited early")
				if m := reBase.FindStringSubmatch(l); m != nil {
					base = m[1]
				}
				if m := reCred.FindStringSubmatch(l); m != nil {
					cred = m[1]
				}
				if strings.Contains(l, "verify with this public key") {
					go func() {
						for range lines {
						}
					}()
					return cmd, base, cred
				}
			case <-deadline:
				t.Fatal("server did not start")
			}
		}
	}

	cmd, base, cred := start()
	require.NotEmpty(t, cred, "first start prints a credential")
	status, tok := call(t, cred, "POST", base+"/tokens", `{"name":"survivor","permissions":["VIEW","MANAGE"]}`, "Idempotency-Key", "k-1")
	require.Equal(t, 201, status)
	survivor := tok["clientId"].(string) + ":" + tok["clientSecret"].(string)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	cmd, base, again := start()
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	assert.Empty(t, again, "a restart keeps the existing token")
	status, _ = call(t, survivor, "GET", base+"/config", "")
	assert.Equal(t, 200, status, "a token acknowledged before kill -9 still works")
	status, _ = call(t, cred, "GET", base+"/config", "")
	assert.Equal(t, 200, status)
	status, replay := call(t, cred, "POST", base+"/tokens", `{"name":"survivor","permissions":["VIEW","MANAGE"]}`, "Idempotency-Key", "k-1")
	assert.Equal(t, 201, status)
	assert.Equal(t, tok["id"], replay["id"], "the idempotency record survived too")
}
