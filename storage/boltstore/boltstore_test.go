package boltstore_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/paygrid/payments/storage/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

func harness() storetest.Harness { return harnessWith(nil) }

func harnessWith(opts *boltstore.Options) storetest.Harness {
	paths := map[payments.Store]string{}
	var mu sync.Mutex
	open := func(t testing.TB, path string) payments.Store {
		s, err := boltstore.Open(path, opts)
		require.NoError(t, err)
		mu.Lock()
		paths[s] = path
		mu.Unlock()
		return s
	}
	return storetest.Harness{
		New: func(t testing.TB) payments.Store { return open(t, filepath.Join(t.TempDir(), "store.db")) },
		Reopen: func(t testing.TB, s payments.Store) payments.Store {
			mu.Lock()
			path := paths[s]
			mu.Unlock()
			require.NoError(t, s.Close())
			return open(t, path)
		},
	}
}

func TestStore(t *testing.T) { storetest.Run(t, harness()) }

// TestStoreCheckpointingAlways runs the store contract with a checkpoint
// after every commit, so reads meet every mix of log, frozen writes and
// file.
func TestStoreCheckpointingAlways(t *testing.T) {
	storetest.Run(t, harnessWith(&boltstore.Options{CheckpointSize: 1}))
}

func BenchmarkStore(b *testing.B) { storetest.Benchmark(b, harness(), true) }

const crashEnv = "BOLTSTORE_CRASH_CHILD"

// TestCrashChild is the child of TestKill9KeepsAcknowledgedWrites: it writes
// from 8 goroutines and prints each key after Update returned nil.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("run by TestKill9KeepsAcknowledgedWrites")
	}
	size, _ := strconv.Atoi(os.Getenv(crashEnv + "_CHECKPOINT"))
	s, err := boltstore.Open(path, &boltstore.Options{CheckpointSize: size})
	require.NoError(t, err)
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				key := fmt.Sprintf("w%d-%07d", w, i)
				if err := s.Update(context.Background(), func(tx payments.Tx) error {
					return tx.Put("acked", key, []byte(key))
				}); err != nil {
					return
				}
				mu.Lock()
				fmt.Fprintln(out, key)
				_ = out.Flush()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func TestKill9KeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	for round := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		// Rounds alternate between the default checkpoint size (the kill
		// leaves every write in the log) and checkpoints every few KB (the
		// kill lands during checkpoints and log turns too).
		cmd.Env = append(os.Environ(), crashEnv+"="+path, fmt.Sprintf("%s_CHECKPOINT=%d", crashEnv, round%2*4096))
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		var acked []string
		sc := bufio.NewScanner(stdout)
		deadline := time.Now().Add(10 * time.Second)
		for sc.Scan() {
			if line := sc.Text(); len(line) > 1 && line[0] == 'w' {
				acked = append(acked, line)
			}
			if len(acked) >= 1500 || time.Now().After(deadline) {
				break
			}
		}
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		// Read what was acknowledged before the kill landed.
		for sc.Scan() {
			if line := sc.Text(); len(line) > 1 && line[0] == 'w' {
				acked = append(acked, line)
			}
		}
		_ = cmd.Wait()
		require.NotEmpty(t, acked, "round %d: the child acknowledged nothing", round)

		s, err := boltstore.Open(path, nil)
		require.NoError(t, err)
		missing := 0
		require.NoError(t, s.View(context.Background(), func(tx payments.Tx) error {
			for _, k := range acked {
				if _, err := tx.Get("acked", k); err != nil {
					missing++
				}
			}
			return nil
		}))
		require.NoError(t, s.Close())
		assert.Zero(t, missing, "round %d: %d of %d acknowledged writes lost", round, missing, len(acked))
		t.Logf("round %d: %s acknowledged writes survived kill -9", round, strconv.Itoa(len(acked)))
	}
}

// TestGrowingKeysFillPages: records appended in key order (the engine's
// time-ordered ids) leave their pages about 90% full, not half.
func TestGrowingKeysFillPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := boltstore.Open(path, nil)
	require.NoError(t, err)
	value := make([]byte, 200)
	for batch := range 40 {
		require.NoError(t, s.Update(context.Background(), func(tx payments.Tx) error {
			for i := range 100 {
				if err := tx.Insert("records", fmt.Sprintf("rec:%08d", batch*100+i), value); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	require.NoError(t, s.Close())

	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		st := tx.Bucket([]byte("records")).Stats()
		used := float64(st.LeafInuse) / float64(st.LeafAlloc)
		assert.Greater(t, used, 0.8, "leaf pages in use (%d pages for 4000 records)", st.LeafPageN)
		return nil
	}))
}
