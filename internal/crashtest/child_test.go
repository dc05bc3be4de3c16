package crashtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/boltstore"
)

// Environment of the child process.
const (
	envChildDB   = "CRASHTEST_CHILD_DB"   // database file; its presence selects child mode
	envChildCred = "CRASHTEST_CHILD_CRED" // clientId:secret of the API token to serve with
)

// basePath is the API prefix the child serves.
const basePath = "/2025-10-13"

// readyPrefix starts the line the child prints once it listens:
// "CRASHTEST-READY <base URL> <clientId:secret>".
const readyPrefix = "CRASHTEST-READY "

// TestCrashChild is the child process of TestCrashLoop, not a test: without
// CRASHTEST_CHILD_DB it returns at once. With it, it serves the sandbox API
// on boltstore until it is killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(envChildDB)
	if path == "" {
		return
	}
	// Exit when the parent goes away (its end of stdin closes), so that a
	// parent that dies never leaves a server behind.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(3)
	}()
	if err := serveChild(path, os.Getenv(envChildCred), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(2)
	}
}

// serveChild opens the store at path, wires the sandbox engine as
// examples/server does (without webhooks: nobody listens), makes sure the
// token cred exists and serves the API on a loopback port until the process
// dies.
func serveChild(path, cred string, out io.Writer) error {
	ctx := context.Background()
	// Checkpoints every 32 KiB of log (a few dozen operations, not the
	// default's thousands), so that kills land during checkpoints and log
	// turns as well as between them, and every restart replays a log.
	store, err := boltstore.Open(path, &boltstore.Options{CheckpointSize: 32 << 10})
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	eng, err := payments.New(payments.Config{Store: store, Sandbox: true,
		Rail: sandbox.Rail{}, KYC: sandbox.KYC{}, Rates: sandbox.Rates{}, Directory: sandbox.Directory{}})
	if err != nil {
		return err
	}
	id, secret, ok := strings.Cut(cred, ":")
	if !ok {
		return errors.New(envChildCred + " must be clientId:secret")
	}
	if _, err := eng.Platform.Authenticate(ctx, id, secret); err != nil {
		all := []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}
		if _, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "crashtest", Permissions: all,
			ClientID: id, ClientSecret: secret}); err != nil {
			return fmt.Errorf("create the token: %w", err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: httpapi.New(eng, httpapi.Config{BasePath: basePath}), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "%shttp://%s%s %s\n", readyPrefix, ln.Addr(), basePath, cred)
	return srv.Serve(ln)
}

// child is one incarnation of the server process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	base   string // http://127.0.0.1:port/2025-10-13
	cred   string
	output *syncBuffer // stdout after the ready line, and stderr
	exited chan struct{}
}

// startChild runs the test binary in child mode on db and waits for its
// ready line.
func startChild(exe, db, cred string) (*child, error) {
	cmd := exec.Command(exe, "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envChildDB+"="+db, envChildCred+"="+cred)
	out := &syncBuffer{}
	cmd.Stderr = out
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin, output: out, exited: make(chan struct{})}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), readyPrefix); ok {
				ready <- line
				break
			}
			fmt.Fprintln(out, sc.Text())
		}
		_, _ = io.Copy(out, stdout)
		_ = cmd.Wait()
		close(c.exited)
	}()
	select {
	case line := <-ready:
		c.base, c.cred, _ = strings.Cut(line, " ")
		return c, nil
	case <-c.exited:
		return nil, fmt.Errorf("the child exited before listening: %s\n%s", cmd.ProcessState, out.String())
	case <-time.After(30 * time.Second):
		c.kill()
		return nil, fmt.Errorf("the child did not listen within 30s:\n%s", out.String())
	}
}

// kill sends SIGKILL and waits for the process to be gone. It reports
// whether the process was still running, that is, did not die on its own.
func (c *child) kill() (wasRunning bool) {
	select {
	case <-c.exited:
	default:
		wasRunning = true
	}
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.exited
	_ = c.stdin.Close()
	return wasRunning
}

// trouble returns what the child wrote that a healthy server never writes: a
// race report, a panic or a fatal error.
func (c *child) trouble() string {
	out := c.output.String()
	for _, sign := range []string{"WARNING: DATA RACE", "panic:", "fatal error:", "crash child:"} {
		if i := strings.Index(out, sign); i >= 0 {
			return out[i:min(len(out), i+4000)]
		}
	}
	return ""
}

// syncBuffer is a bytes.Buffer safe for concurrent writers and readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
