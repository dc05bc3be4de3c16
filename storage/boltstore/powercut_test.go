package boltstore

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/require"
)

// A power cut loses every write not yet synced and may tear a page; kill -9
// loses none (the page cache survives). TestPowerCut records the log's file
// operations through recFS and builds, for each sync point, the disks a
// power cut there could leave: what was synced, plus none, a prefix, all,
// or a random subset of the 4 KiB pages of what was written after it. The
// bbolt file cannot be recorded this way (bbolt writes its own *os.File), so
// each state takes it as the page cache held it at that sync point, which
// may be in the middle of a checkpoint's commit: bbolt's own order (data
// pages synced before the meta page, two meta pages with checksums) is what
// makes any such state open at its last commit.

// fileOp is one recorded file operation.
type fileOp struct {
	kind string // write, truncate, sync, syncdir, remove
	name string
	off  int64
	data []byte
	// db is the bbolt file as it was just after the operation.
	db []byte
}

// recFS is the operating system's file layer that records every operation
// on the log, and the bbolt file's contents at each sync of the log.
type recFS struct {
	osFS
	db  string
	mu  sync.Mutex
	ops []fileOp
}

func (r *recFS) add(op fileOp) {
	r.mu.Lock()
	defer r.mu.Unlock()
	op.db, _ = os.ReadFile(r.db)
	r.ops = append(r.ops, op)
}

func (r *recFS) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.ops)
}

func (r *recFS) OpenFile(name string, flag int, perm os.FileMode) (walFile, error) {
	f, err := r.osFS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	r.add(fileOp{kind: "open", name: name})
	return &recFile{walFile: f, fs: r, name: name}, nil
}

func (r *recFS) Remove(name string) error {
	r.add(fileOp{kind: "remove", name: name})
	return r.osFS.Remove(name)
}

func (r *recFS) SyncDir(dir string) error {
	r.add(fileOp{kind: "syncdir", name: dir})
	return r.osFS.SyncDir(dir)
}

type recFile struct {
	walFile
	fs   *recFS
	name string
}

func (f *recFile) WriteAt(b []byte, off int64) (int, error) {
	n, err := f.walFile.WriteAt(b, off)
	f.fs.add(fileOp{kind: "write", name: f.name, off: off, data: append([]byte(nil), b[:n]...)})
	return n, err
}

func (f *recFile) Truncate(size int64) error {
	err := f.walFile.Truncate(size)
	f.fs.add(fileOp{kind: "truncate", name: f.name, off: size})
	return err
}

func (f *recFile) Sync() error {
	err := f.walFile.Sync()
	f.fs.add(fileOp{kind: "sync", name: f.name})
	return err
}

func (f *recFile) Datasync() error {
	err := f.walFile.Datasync()
	f.fs.add(fileOp{kind: "sync", name: f.name})
	return err
}

// apply applies a write or truncate to a file's contents.
func apply(b []byte, op fileOp) []byte {
	switch op.kind {
	case "write":
		if end := op.off + int64(len(op.data)); end > int64(len(b)) {
			b = append(b, make([]byte, end-int64(len(b)))...)
		}
		copy(b[op.off:], op.data)
	case "truncate":
		if op.off < int64(len(b)) {
			b = b[:op.off]
		} else {
			b = append(b, make([]byte, op.off-int64(len(b)))...)
		}
	}
	return b
}

// crashState is the log files a power cut just after ops[k] leaves: each
// file as last synced, then of the writes not synced (before k, and after it
// up to the next sync) none, the first half, all, or (tear) each 4 KiB page
// of each write kept or lost at random.
func crashState(ops []fileOp, k int, variant string, r *rand.Rand) map[string][]byte {
	lastSync := map[string]int{}
	for i, op := range ops[:k+1] {
		switch op.kind {
		case "open":
			if _, ok := lastSync[op.name]; !ok {
				lastSync[op.name] = -1
			}
		case "sync":
			lastSync[op.name] = i
		}
	}
	durable, pending := map[string][]byte{}, map[string][]fileOp{}
	for name := range lastSync {
		durable[name] = []byte{}
	}
	for i, op := range ops[:k+1] {
		if op.kind != "write" && op.kind != "truncate" {
			continue
		}
		if i < lastSync[op.name] {
			durable[op.name] = apply(durable[op.name], op)
		} else {
			pending[op.name] = append(pending[op.name], op)
		}
	}
	for _, op := range ops[k+1:] {
		if op.kind == "sync" {
			break
		}
		if op.kind == "write" || op.kind == "truncate" {
			pending[op.name] = append(pending[op.name], op)
		}
	}
	out := map[string][]byte{}
	for name, b := range durable {
		p := pending[name]
		switch variant {
		case "synced":
			p = nil
		case "half":
			p = p[:len(p)/2]
		}
		for _, op := range p {
			if variant != "tear" || op.kind == "truncate" {
				b = apply(b, op)
				continue
			}
			// Page by page, each kept or lost.
			for off := op.off; off < op.off+int64(len(op.data)); {
				end := min((off/4096+1)*4096, op.off+int64(len(op.data)))
				if r.IntN(2) == 0 {
					b = apply(b, fileOp{kind: "write", off: off, data: op.data[off-op.off : end-op.off]})
				}
				off = end
			}
		}
		out[name] = b
	}
	return out
}

// TestPowerCut: after a power cut at any sync point of the log, the store
// opens, holds every fund acknowledged before that point, and the ledger
// holds (each currency sums to zero, balances replay from the journal).
// BOLTSTORE_POWERCUT=all tries every point of 300 funds and more torn
// states (2,432 states in 42 s); by default 40 states of 60 funds run in
// about 2 s (about 6 s with -race).
func TestPowerCut(t *testing.T) {
	long := os.Getenv("BOLTSTORE_POWERCUT") == "all"
	dir := t.TempDir()
	path := filepath.Join(dir, "p.db")
	rec := &recFS{db: path}
	s, err := Open(path, &Options{fs: rec, CheckpointSize: 8 << 10})
	require.NoError(t, err)
	eng, err := payments.New(payments.Config{Store: s, NewUUID: sandbox.NewUUID, Sandbox: true})
	require.NoError(t, err)
	accts, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{}, payments.PlatformScope, payments.ListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, accts.Data)
	acct := accts.Data[0].ID
	// acked[i] is how many operations were recorded when fund i+1 was
	// answered: its record's sync came before.
	var acked []int
	began := time.Now()
	funds := 60
	if long {
		funds = 300
	}
	for range funds {
		_, err := eng.Sandbox.Fund(ctx, acct, 1)
		require.NoError(t, err)
		acked = append(acked, rec.count())
	}
	require.NoError(t, eng.Close())
	require.Equal(t, funds, ledgerEntries(t, s), "one journal entry per fund")
	crash(t, s)
	ops := rec.ops
	ran := time.Since(began)

	// A cut may land just after any sync, and just after any answer (the
	// moment that matters when a write is answered before it is synced).
	var points []int
	for i, op := range ops {
		if op.kind == "sync" {
			points = append(points, i)
		}
	}
	for _, n := range acked {
		if ops[n-1].kind != "sync" {
			points = append(points, n-1)
		}
	}
	r := rand.New(rand.NewPCG(1, uint64(len(ops))))
	if !long && len(points) > 10 {
		sample := map[int]bool{}
		for len(sample) < 10 {
			sample[points[r.IntN(len(points))]] = true
		}
		points = points[:0]
		for p := range sample {
			points = append(points, p)
		}
	}
	variants := []string{"synced", "half", "all", "tear"}
	if long {
		variants = append(variants, "tear", "tear", "tear", "tear")
	}
	states := 0
	for _, k := range points {
		want := 0 // funds acknowledged by this point
		for _, n := range acked {
			if n <= k+1 {
				want++
			}
		}
		for _, v := range variants {
			states++
			checkCrashState(t, ops, k, v, r, want, funds)
		}
	}
	t.Logf("%d funds and %d operations recorded in %v; %d crash points, %d crash states checked in %v",
		funds, len(ops), ran.Round(time.Millisecond), len(points), states, (time.Since(began) - ran).Round(time.Millisecond))
}

// checkCrashState opens the store on one crash state and checks it.
func checkCrashState(t *testing.T, ops []fileOp, k int, variant string, r *rand.Rand, want, most int) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "p.db")
	for name, b := range crashState(ops, k, variant, r) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o600))
	}
	require.NoError(t, os.WriteFile(path, ops[k].db, 0o600))
	what := fmt.Sprintf("power cut after op %d (%s)", k, variant)
	s, err := Open(path, nil)
	require.NoError(t, err, what)
	defer s.Close()
	require.NoError(t, payments.CheckLedger(ctx, s), what)
	got := ledgerEntries(t, s)
	require.GreaterOrEqual(t, got, want, "%s: %d funds acknowledged, %d in the journal", what, want, got)
	require.LessOrEqual(t, got, most, what)
}

// ledgerEntries counts the journal's entries.
func ledgerEntries(t *testing.T, s *Store) int {
	n := 0
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		return tx.Scan(engine.TableLedgerEntries, payments.ScanOptions{}, func(string, []byte) (bool, error) {
			n++
			return true, nil
		})
	}))
	return n
}
