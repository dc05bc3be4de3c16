package payments_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/stretchr/testify/require"
)

// readmeBlock is one fenced block of README.md.
type readmeBlock struct {
	lang string // the fence's info string: sh, sql, go, ...
	line int    // the line of the opening fence
	body string
	// mark is what the HTML comment just above the fence says to the test:
	// "skip: why" (the block cannot run in a test, such as a go run start
	// line) or "setup" (the block that sets BASE, AUTH and HOOKS once).
	mark string
}

// readmeMark is the comment that marks a block for the test.
var readmeMark = regexp.MustCompile(`^<!-- readme-test: (.+?) -->$`)

// readmeBlocks reads the fenced blocks of README.md in order.
func readmeBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	raw, err := os.ReadFile("README.md")
	require.NoError(t, err)
	var blocks []readmeBlock
	var cur *readmeBlock
	var body strings.Builder
	mark := ""
	for i, line := range strings.Split(string(raw), "\n") {
		switch {
		case cur != nil && line == "```":
			cur.body = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		case strings.HasPrefix(line, "```"):
			cur = &readmeBlock{lang: strings.TrimPrefix(line, "```"), line: i + 1, mark: mark}
			body.Reset()
		default:
			if m := readmeMark.FindStringSubmatch(line); m != nil {
				mark = m[1]
			} else if strings.TrimSpace(line) != "" {
				mark = ""
			}
		}
	}
	require.Nil(t, cur, "README.md ends inside a fenced block")
	return blocks
}

// needTool skips the test when a command the README's blocks use is
// missing, or fails it in CI (where .ci/run installs them).
func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing: CI installs it (.ci/run)", name)
		}
		t.Skipf("the README's shell blocks need %s, which is not installed: skipped", name)
	}
}

// assigned finds the variables a shell block sets from an answer
// (NAME=$(...)), each of which must come out neither empty nor null.
var assigned = regexp.MustCompile(`(?m)^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=\$\(`)

// TestREADME_BlocksRun runs the README's shell blocks as a reader pastes
// them, in order, in one bash against the real server binary, started as
// the README says on a free port with the README's credential: every sh
// block runs, but for the few marked <!-- readme-test: skip: why --> (start
// lines, go commands). The block marked setup sets BASE, AUTH and HOOKS;
// the test then points BASE and HOOKS at its own server and a free port. A
// block fails the test when a command in it fails (set -e, pipefail) or an
// id it captures comes out empty or null. With PAYMENTS_TEST_POSTGRES the
// server runs on PostgreSQL, and the sql blocks run last, on the data the
// shell blocks left, each statement answering at least one row.
func TestREADME_BlocksRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server: not in -short")
	}
	for _, tool := range []string{"bash", "curl", "jq"} {
		needTool(t, tool)
	}
	blocks := readmeBlocks(t)
	var setup string
	var script strings.Builder
	var sqls []readmeBlock
	runs := 0
	for _, b := range blocks {
		switch {
		case strings.HasPrefix(b.mark, "skip"):
			continue
		case b.mark == "setup":
			require.Empty(t, setup, "README line %d: a second setup block", b.line)
			setup = b.body
			continue
		case b.lang == "sql":
			sqls = append(sqls, b)
			continue
		case b.lang != "sh":
			continue
		}
		runs++
		fmt.Fprintf(&script, "echo '>>> README line %d'\n%s", b.line, b.body)
		for _, m := range assigned.FindAllStringSubmatch(b.body, -1) {
			fmt.Fprintf(&script, "[[ -n \"${%[1]s:-}\" && \"$%[1]s\" != null ]] || { echo 'README line %[2]d: %[1]s came out empty or null' >&2; exit 1; }\n", m[1], b.line)
		}
	}
	require.NotEmpty(t, setup, "README.md has no block marked <!-- readme-test: setup -->")
	auth := regexp.MustCompile(`(?m)^AUTH=([^\s#]+)`).FindStringSubmatch(setup)
	require.NotNil(t, auth, "the setup block sets no AUTH=clientId:secret")
	require.Greater(t, runs, 5, "too few runnable blocks")

	bin := filepath.Join(t.TempDir(), "server")
	build := exec.Command("go", "build", "-o", bin, "./examples/server")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build ./examples/server: %s", out)

	args := []string{"-addr", "127.0.0.1:0", "-token", auth[1]}
	dsn, schema := os.Getenv(pgtest.EnvDSN), ""
	if dsn != "" {
		schema = pgtest.Schema(t)
		args = append(args, "-postgres", dsn, "-postgres-schema", schema)
	} else {
		args = append(args, "-memory")
	}
	base := startREADMEServer(t, bin, args)

	// A free port for the webhook receiver the README starts.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hooks := ln.Addr().String()
	require.NoError(t, ln.Close())

	full := "set -euo pipefail\n" + setup +
		fmt.Sprintf("BASE=%s\nHOOKS=%s\n", base, hooks) + script.String()
	sh := exec.Command("bash", "-c", full)
	// Run from the repository root (go run ./examples/... lines), in a
	// process group of its own, which is ended with what it started.
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A file, not a pipe: the receiver the blocks leave running in the
	// background keeps its output open after bash ends.
	logf, err := os.Create(filepath.Join(t.TempDir(), "blocks.log"))
	require.NoError(t, err)
	defer logf.Close()
	sh.Stdout, sh.Stderr = logf, logf
	require.NoError(t, sh.Start())
	done := make(chan error, 1)
	go func() { done <- sh.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-sh.Process.Pid, syscall.SIGTERM)
		for _, f := range readmeFiles {
			_ = os.Remove(f)
		}
	})
	output := func() string {
		b, _ := os.ReadFile(logf.Name())
		return string(b)
	}
	select {
	case err = <-done:
	case <-time.After(5 * time.Minute):
		_ = syscall.Kill(-sh.Process.Pid, syscall.SIGKILL)
		err = <-done
		t.Fatalf("the README's blocks ran past 5 minutes:\n%s", tail(output(), 4000))
	}
	log := output()
	require.NoError(t, err, "a README block failed:\n%s", tail(log, 6000))
	require.NotContains(t, log, `"status":500`, "a README block got a 500:\n%s", tail(log, 6000))
	t.Logf("%d shell blocks ran", runs)

	if dsn == "" {
		t.Log("PAYMENTS_TEST_POSTGRES is not set: the sql blocks were not run")
		return
	}
	require.NotEmpty(t, sqls, "README.md has no sql block")
	cfg, err := pgx.ParseConfig(dsn)
	require.NoError(t, err)
	cfg.RuntimeParams["search_path"] = schema
	ctx := context.Background()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	require.NoError(t, err)
	defer conn.Close(ctx)
	for _, b := range sqls {
		for _, stmt := range sqlStatements(b.body) {
			rows, err := conn.Query(ctx, stmt)
			require.NoError(t, err, "README line %d: %s", b.line, stmt)
			n := 0
			for rows.Next() {
				n++
			}
			require.NoError(t, rows.Err(), "README line %d: %s", b.line, stmt)
			require.Positive(t, n, "README line %d: no rows from\n%s", b.line, stmt)
		}
	}
}

// readmeFiles are the files the README's blocks write in the repository
// root, removed when the test ends.
var readmeFiles = []string{"sandbox-fixture.json", "webhook-key.pub.pem"}

// sqlStatements splits a sql block into its statements, without comments.
func sqlStatements(body string) []string {
	var b strings.Builder
	for _, line := range strings.Split(body, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line + "\n")
	}
	var out []string
	for _, s := range strings.Split(b.String(), ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// startREADMEServer runs the server binary and returns its base URL from
// the "listening on" line; the process is stopped when the test ends.
func startREADMEServer(t *testing.T, bin string, args []string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var errs strings.Builder
	cmd.Stderr = &errs
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if b, ok := strings.CutPrefix(sc.Text(), "payments sandbox listening on "); ok {
				ready <- b
			}
		}
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	select {
	case base := <-ready:
		return base
	case <-exited:
		t.Fatalf("the server exited: %s", errs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("the server did not listen within 60s: %s", errs.String())
	}
	return ""
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
