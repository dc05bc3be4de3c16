package main

import (
	"bufio"
	"context"
	"io"
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

// startOn runs the server in-process on -db db with extra flags until stop
// (or the test's end); it returns the base URL, or run's error when it
// fails to start.
func startOn(t *testing.T, db string, flags ...string) (base string, out *syncBuffer, stop func(), err error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	ready := make(chan string, 1)
	out = &syncBuffer{}
	go func() {
		errc <- runLogging(ctx, append([]string{"-db", db, "-addr", "127.0.0.1:0", "-dashboard=false", "-metrics=false"}, flags...),
			func(string) string { return "" }, out, io.Discard, ready)
	}()
	select {
	case base = <-ready:
		var once sync.Once
		stop = func() { once.Do(func() { cancel(); require.NoError(t, <-errc) }) }
		t.Cleanup(stop)
		return base, out, stop, nil
	case err = <-errc:
		cancel()
		return "", out, func() {}, err
	}
}

// TestRun_WebhookKeyFile: the first start writes the signing key whole
// (no temporary file left); a later start never replaces it silently: an
// empty or half-written key file, or a missing one beside an existing
// database, stops the start with an error naming the key file.
func TestRun_WebhookKeyFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "pay.db")
	key := db + ".webhook-key.pem"
	_, out, stop, err := startOn(t, db)
	require.NoError(t, err)
	stop()
	good, err := os.ReadFile(key)
	require.NoError(t, err)
	assert.Contains(t, string(good), "PRIVATE KEY")
	info, err := os.Stat(key)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp", "no temporary file is left")
	}
	pub := out.String()[strings.Index(out.String(), "-----BEGIN PUBLIC KEY"):]
	pub = pub[:strings.Index(pub, "-----END")]

	db2 := filepath.Join(t.TempDir(), "pay.db")
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(to, b, 0o600))
	}
	_, _, stop, err = startOn(t, db2)
	require.NoError(t, err)
	stop()
	key2 := db2 + ".webhook-key.pem"
	for name, content := range map[string][]byte{"empty": {}, "half-written": good[:len(good)/2]} {
		require.NoError(t, os.WriteFile(key2, content, 0o600), name)
		_, _, _, err = startOn(t, db2)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), key2, name)
		assert.Contains(t, err.Error(), "empty or damaged", name)
		after, _ := os.ReadFile(key2)
		assert.Equal(t, content, after, "%s: the key file is left as it was", name)
	}
	require.NoError(t, os.Remove(key2))
	_, _, _, err = startOn(t, db2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), key2)
	assert.Contains(t, err.Error(), "missing")
	_, err = os.Stat(key2)
	assert.ErrorIs(t, err, os.ErrNotExist, "no new key was made")

	// The key restored, the server starts with it again.
	copyFile(key, key2)
	_, out, stop, err = startOn(t, db2)
	require.NoError(t, err)
	assert.Contains(t, out.String(), pub)
	stop()

	// A first start cut short after the key was written (no database yet):
	// the next start uses that key.
	db3 := filepath.Join(t.TempDir(), "pay.db")
	copyFile(key, db3+".webhook-key.pem")
	_, out, _, err = startOn(t, db3)
	require.NoError(t, err)
	assert.Contains(t, out.String(), pub)
}

// TestServer_DamagedLog: after kill -9, a byte flipped in the middle of the
// write-ahead log stops the next start with an error naming the log file
// and the offset; -wal-truncate-damaged starts anyway and says how many
// acknowledged records it dropped.
func TestServer_DamagedLog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "server")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	db := filepath.Join(dir, "pay.db")
	cmd := exec.Command(bin, "-db", db, "-addr", "127.0.0.1:0", "-dashboard=false")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stdout)
	var base, cred string
	for sc.Scan() {
		l := sc.Text()
		if m := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(l); m != nil {
			base = m[1]
		}
		if m := regexp.MustCompile(`API token \(clientId:secret\): (\S+)`).FindStringSubmatch(l); m != nil {
			cred = m[1]
		}
		if strings.Contains(l, "verify with this public key") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	require.NotEmpty(t, cred)
	for range 30 {
		status, _ := call(t, cred, "POST", base+"/tokens", `{"name":"t","permissions":["VIEW"]}`)
		require.Equal(t, 201, status)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	wal := db + ".wal.0"
	raw, err := os.ReadFile(wal)
	require.NoError(t, err)
	end := len(raw)
	for end > 0 && raw[end-1] == 0 {
		end--
	}
	require.Greater(t, end, 1000)
	raw[end/2] ^= 0x10
	require.NoError(t, os.WriteFile(wal, raw, 0o600))

	start := time.Now()
	_, _, _, err = startOn(t, db)
	require.Error(t, err)
	assert.Contains(t, err.Error(), wal)
	assert.Contains(t, err.Error(), "damaged at offset")
	assert.Contains(t, err.Error(), "-wal-truncate-damaged")
	assert.Less(t, time.Since(start), 10*time.Second)

	_, out, _, err := startOn(t, db, "-wal-truncate-damaged")
	require.NoError(t, err)
	assert.Regexp(t, `dropped \d+ acknowledged records`, out.String())
}
