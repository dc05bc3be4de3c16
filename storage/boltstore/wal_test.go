package boltstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ctx = context.Background()

// crash stops s as a killed process would: no checkpoint, log files left
// as they are.
func crash(t *testing.T, s *Store) {
	t.Helper()
	s.mu.Lock()
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	<-s.stopped
	if s.checkpointing {
		<-s.ckptDone
	}
	close(s.ckpts)
	<-s.ckptsDone
	require.NoError(t, s.log.close())
	require.NoError(t, s.db.Close())
}

func put(t *testing.T, s *Store, key, value string) {
	t.Helper()
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Put("t", key, []byte(value)) }))
}

// contents returns table t as key=value lines.
func contents(t *testing.T, s *Store) []string {
	t.Helper()
	var out []string
	require.NoError(t, s.View(ctx, func(tx payments.Tx) error {
		return tx.Scan("t", payments.ScanOptions{}, func(k string, v []byte) (bool, error) {
			out = append(out, k+"="+string(v))
			return true, nil
		})
	}))
	return out
}

// TestLogReplay: writes acknowledged before a crash come back from the log,
// whether or not checkpoints and log turns happened before it, and a clean
// Close leaves the file complete and no log behind.
func TestLogReplay(t *testing.T) {
	for _, size := range []int{0, 1, 200} {
		t.Run(fmt.Sprintf("checkpoint=%d", size), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.db")
			s, err := Open(path, &Options{CheckpointSize: size})
			require.NoError(t, err)
			var want []string
			for i := range 40 {
				k := fmt.Sprintf("k%02d", i)
				put(t, s, k, "v1")
				put(t, s, k, "v2")
				if i%3 == 0 {
					require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Delete("t", k) }))
					continue
				}
				want = append(want, k+"=v2")
			}
			crash(t, s)

			s, err = Open(path, &Options{CheckpointSize: size})
			require.NoError(t, err)
			assert.Equal(t, want, contents(t, s))
			put(t, s, "z", "after")
			require.NoError(t, s.Close())
			for _, p := range walPaths(path) {
				assert.NoFileExists(t, p)
			}

			s, err = Open(path, nil)
			require.NoError(t, err)
			assert.Equal(t, append(want, "z=after"), contents(t, s))
			require.NoError(t, s.Close())
		})
	}
}

// TestLogTornTail: a record the crash cut short, or garbage after the last
// record, is not replayed and does not stop Open; a record whose checksum
// fails ends the replay there.
func TestLogTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path, nil)
	require.NoError(t, err)
	for i := range 5 {
		put(t, s, fmt.Sprintf("k%d", i), "v")
	}
	end := s.log.off
	crash(t, s)
	log0 := walPaths(path)[0]
	raw, err := os.ReadFile(log0)
	require.NoError(t, err)
	l, err := readLog(raw)
	require.NoError(t, err)
	recs := l.recs
	require.Len(t, recs, 5)

	// A sixth record cut short, then garbage.
	next, err := encodeRecord(nil, recs[4].seq+1, layerOf("t", "k5", "v"))
	require.NoError(t, err)
	torn := append(raw[:end:end], next[:len(next)-3]...)
	torn = append(torn, bytes.Repeat([]byte{0xa5}, 100)...)
	require.NoError(t, os.WriteFile(log0, torn, 0o600))
	s, err = Open(path, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"k0=v", "k1=v", "k2=v", "k3=v", "k4=v"}, contents(t, s))
	crash(t, s) // the log starts over at its first file

	// A flipped byte inside the third record of a fresh log.
	path = filepath.Join(t.TempDir(), "s.db")
	s, err = Open(path, nil)
	require.NoError(t, err)
	var offs []int64
	for i := range 5 {
		offs = append(offs, s.log.off)
		put(t, s, fmt.Sprintf("k%d", i), "v")
	}
	crash(t, s)
	log0 = walPaths(path)[0]
	raw, err = os.ReadFile(log0)
	require.NoError(t, err)
	raw[offs[2]+headerSize+2] ^= 0xff
	require.NoError(t, os.WriteFile(log0, raw, 0o600))
	// Two acknowledged records follow the damaged one: not a torn tail.
	_, err = Open(path, nil)
	var damaged *DamagedLogError
	require.ErrorAs(t, err, &damaged)
	assert.Equal(t, log0, damaged.File)
	assert.Equal(t, offs[2], damaged.Offset)
	assert.Equal(t, 2, damaged.Records)
	assert.Contains(t, err.Error(), log0)
	assert.Contains(t, err.Error(), "payload fails its checksum")
	// Told to, Open drops them and says so.
	s, err = Open(path, &Options{TruncateDamagedLog: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"k0=v", "k1=v"}, contents(t, s))
	require.NotNil(t, s.DroppedRecords())
	assert.Equal(t, 2, s.DroppedRecords().Records)
	require.NoError(t, s.Close())
}

func layerOf(table, key, value string) *layer {
	l := newLayer()
	l.set(table, key, entry{v: []byte(value)})
	return l
}

// TestFailedUpdateWritesNoRecord: a group whose functions all failed or
// wrote nothing syncs nothing.
func TestFailedUpdateWritesNoRecord(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "s.db"), nil)
	require.NoError(t, err)
	defer s.Close()
	put(t, s, "a", "1")
	seq := s.seq
	assert.Error(t, s.Update(ctx, func(tx payments.Tx) error {
		_ = tx.Put("t", "b", []byte("2"))
		return payments.ErrConflict
	}))
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
		_, err := tx.Get("t", "a")
		return err
	}))
	assert.Equal(t, seq, s.seq)
}

// FuzzReadRecords: any bytes decode without a panic into records that
// follow one another, and a record encoded in front of them comes back
// first, whole.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte{}, "t", "k", []byte("v"), false)
	f.Add([]byte{5, 0, 0, 0, 1, 2, 3, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 't'}, "quotes", "Quote:1", []byte(`{"a":1}`), true)
	good, _ := encodeRecord([]byte(walMagic), 8, layerOf("t", "k", "v"))
	f.Add(good, "t", "k2", []byte{}, false)
	f.Fuzz(func(t *testing.T, tail []byte, table, key string, value []byte, del bool) {
		fl, err := readLog(tail)
		recs := fl.recs
		_ = fl.acknowledgedAfter(0)
		for i := 1; err == nil && i < len(recs); i++ {
			if recs[i].seq != recs[i-1].seq+1 {
				t.Fatalf("record %d follows %d", recs[i].seq, recs[i-1].seq)
			}
		}
		l := newLayer()
		l.set(table, key, entry{v: value, del: del})
		raw, err := encodeRecord([]byte(walMagic), 7, l)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readLog(append(raw, tail...))
		recs = got.recs
		if err != nil {
			return // the tail held a damaged record after ours
		}
		if len(recs) == 0 || recs[0].seq != 7 || len(recs[0].writes) != 1 {
			t.Fatalf("our record did not come back: %+v", recs)
		}
		w := recs[0].writes[0]
		if w.table != table || w.key != key || w.e.del != del || (!del && !bytes.Equal(w.e.v, value)) {
			t.Fatalf("got %+v", w)
		}
	})
}

// TestDeleteForgetsUnbackedKeys: deleting a key that only the log holds
// leaves no tombstone in memory (a queue emptied between checkpoints costs
// its scans nothing), while deleting one the file holds keeps hiding it.
func TestDeleteForgetsUnbackedKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path, nil)
	require.NoError(t, err)
	del := func(key string) {
		require.NoError(t, s.Update(ctx, func(tx payments.Tx) error { return tx.Delete("t", key) }))
	}
	put(t, s, "queued", "x")
	put(t, s, "kept", "x")
	del("queued")
	_, inMemory := s.active.get("t", "queued")
	assert.False(t, inMemory, "a tombstone over nothing")
	require.NoError(t, s.Close())

	s, err = Open(path, nil)
	require.NoError(t, err)
	del("kept")
	e, inMemory := s.active.get("t", "kept")
	assert.True(t, inMemory && e.del, "the file's key needs a tombstone")
	assert.Empty(t, contents(t, s))
	crash(t, s)

	s, err = Open(path, nil)
	require.NoError(t, err)
	assert.Empty(t, contents(t, s))
	require.NoError(t, s.Close())
}
