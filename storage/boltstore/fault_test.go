package boltstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullFS is the operating system's file layer whose writes fail with
// ENOSPC while full is set, as on a full disk.
type fullFS struct {
	osFS
	full *atomic.Bool
}

func (f fullFS) OpenFile(name string, flag int, perm os.FileMode) (walFile, error) {
	w, err := f.osFS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return fullFile{w, f.full}, nil
}

type fullFile struct {
	walFile
	full *atomic.Bool
}

func (f fullFile) WriteAt(b []byte, off int64) (int, error) {
	if f.full.Load() {
		n := len(b) / 2 // part of it may land, as on a real disk
		if n > 0 {
			_, _ = f.walFile.WriteAt(b[:n], off)
		}
		return n, &os.PathError{Op: "write", Path: "log", Err: syscall.ENOSPC}
	}
	return f.walFile.WriteAt(b, off)
}

// TestFullDisk: while the log's disk is full, writes are refused with
// ErrStoreUnavailable (503 SERVICE_UNAVAILABLE with Retry-After through the
// API) and readiness fails on the store; reads go on. Once space is back
// the store recovers by itself, without an Update (readiness alone), and
// every write acknowledged before, during and after survives a crash.
func TestFullDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	var full atomic.Bool
	s, err := Open(path, &Options{fs: fullFS{full: &full}})
	require.NoError(t, err)
	eng, err := payments.New(payments.Config{Store: s, NewUUID: sandbox.NewUUID, Sandbox: true})
	require.NoError(t, err)
	tok, err := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "admin",
		Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	require.NoError(t, err)
	api := httptest.NewServer(httpapi.New(eng, httpapi.Config{BasePath: "/v"}))
	defer api.Close()
	ready := httptest.NewServer(httpapi.Ready(eng, httpapi.ReadyOptions{}))
	defer ready.Close()
	put(t, s, "before", "1")

	post := func() *http.Response {
		body, _ := json.Marshal(map[string]any{"name": "t", "permissions": []string{"VIEW"}})
		req, _ := http.NewRequest("POST", api.URL+"/v/tokens", bytes.NewReader(body))
		id, secret := tok.Credential()[:bytes.IndexByte([]byte(tok.Credential()), ':')], tok.Credential()[bytes.IndexByte([]byte(tok.Credential()), ':')+1:]
		req.SetBasicAuth(id, secret)
		req.Header.Set("Content-Type", "application/json")
		r, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		return r
	}
	readyStatus := func() (int, map[string]any) {
		r, err := http.Get(ready.URL)
		require.NoError(t, err)
		defer r.Body.Close()
		var b map[string]any
		_ = json.NewDecoder(r.Body).Decode(&b)
		return r.StatusCode, b
	}
	st, _ := readyStatus()
	require.Equal(t, 200, st)

	full.Store(true)
	err = s.Update(ctx, func(tx payments.Tx) error { return tx.Put("t", "during", []byte("x")) })
	require.ErrorIs(t, err, payments.ErrStoreUnavailable)
	assert.Equal(t, payments.CodeServiceUnavailable, payments.CodeOf(err))
	r := post()
	var body map[string]any
	require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
	r.Body.Close()
	assert.Equal(t, 503, r.StatusCode)
	assert.Equal(t, "SERVICE_UNAVAILABLE", body["code"])
	assert.Equal(t, "1", r.Header.Get("Retry-After"))
	assert.NotContains(t, body["message"], "no space")
	st, b := readyStatus()
	assert.Equal(t, 503, st)
	assert.Equal(t, "cannot write", b["checks"].(map[string]any)["store"])
	assert.Equal(t, []string{"before=1"}, contents(t, s)) // reads go on

	full.Store(false)
	require.Eventually(t, func() bool { st, _ := readyStatus(); return st == 200 }, 5*time.Second, 50*time.Millisecond)
	r = post()
	r.Body.Close()
	assert.Equal(t, 201, r.StatusCode)
	put(t, s, "after", "2")
	require.NoError(t, eng.Close())
	crash(t, s)
	s, err = Open(path, nil)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, []string{"after=2", "before=1"}, contents(t, s))
}

// TestTruncatedDatabase: a bbolt file cut short is an error naming it, not
// bbolt's panic.
func TestTruncatedDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path, nil)
	require.NoError(t, err)
	for i := range 300 {
		put(t, s, string(rune('a'+i%26))+string(rune('a'+i/26)), string(bytes.Repeat([]byte("v"), 500)))
	}
	require.NoError(t, s.Close())
	info, err := os.Stat(path)
	require.NoError(t, err)
	for _, size := range []int64{info.Size() / 2, 16<<10 + 100, 100} {
		require.NoError(t, os.Truncate(path, size))
		_, err = Open(path, &Options{Timeout: time.Second})
		require.Error(t, err, "size %d", size)
		assert.Contains(t, err.Error(), path)
		assert.NotContains(t, err.Error(), "timeout", "the damaged file's lock was released")
	}
}

// encodeV1 is a record as earlier versions wrote it: a 16-byte header whose
// CRC covers the sequence number and the payload, no file magic.
func encodeV1(t *testing.T, seq uint64, l *layer) []byte {
	v2, err := encodeRecord(nil, seq, l)
	require.NoError(t, err)
	payload := v2[headerSize:]
	h := make([]byte, v1HeaderSize, v1HeaderSize+len(payload))
	binary.LittleEndian.PutUint32(h[0:4], uint32(len(payload)))
	binary.LittleEndian.PutUint64(h[8:16], seq)
	b := append(h, payload...)
	binary.LittleEndian.PutUint32(b[4:8], crc32.Checksum(b[8:], crcTable))
	return b
}

// TestOldLogOpens: a log written by an earlier version (no magic, the old
// header) is replayed; damage in the middle of one is refused too.
func TestOldLogOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	var raw []byte
	var offs []int
	for i := range 4 {
		offs = append(offs, len(raw))
		raw = append(raw, encodeV1(t, uint64(i+1), layerOf("t", string(rune('a'+i)), "v"))...)
	}
	raw = append(raw, make([]byte, 1000)...)
	log0 := walPaths(path)[0]
	require.NoError(t, os.WriteFile(log0, raw, 0o600))
	s, err := Open(path, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"a=v", "b=v", "c=v", "d=v"}, contents(t, s))
	require.NoError(t, s.Close())

	path = filepath.Join(t.TempDir(), "s.db")
	log0 = walPaths(path)[0]
	raw[offs[1]+v1HeaderSize+1] ^= 0x40
	require.NoError(t, os.WriteFile(log0, raw, 0o600))
	_, err = Open(path, nil)
	var damaged *DamagedLogError
	require.ErrorAs(t, err, &damaged)
	assert.Equal(t, 2, damaged.Records)
}

// TestLogHeaderDamage: a byte flipped in the first record's header (or in
// the file's magic) is damage, not an empty log; the last record cut short
// is still a torn tail.
func TestLogHeaderDamage(t *testing.T) {
	for _, at := range []int{2, len(walMagic) + 3, len(walMagic) + 10} {
		path := filepath.Join(t.TempDir(), "s.db")
		s, err := Open(path, nil)
		require.NoError(t, err)
		for i := range 300 {
			put(t, s, string(rune('a'+i%26))+string(rune('a'+i/26)), "v")
		}
		crash(t, s)
		log0 := walPaths(path)[0]
		raw, err := os.ReadFile(log0)
		require.NoError(t, err)
		raw[at] ^= 0x01
		require.NoError(t, os.WriteFile(log0, raw, 0o600))
		_, err = Open(path, nil)
		var damaged *DamagedLogError
		require.ErrorAs(t, err, &damaged, "byte %d", at)
		assert.GreaterOrEqual(t, damaged.Records, 299, "byte %d", at)
		s, err = Open(path, &Options{TruncateDamagedLog: true})
		require.NoError(t, err)
		assert.Empty(t, contents(t, s))
		require.NoError(t, s.Close())
	}
}

// TestCheckpointFault: a checkpoint the disk refuses keeps its writes in
// memory, readable, and fails readiness; writes go on into the log until
// memory holds 16 checkpoints' worth, then are refused with
// ErrStoreUnavailable. Once the disk takes the checkpoint again (retried
// every second without any Update), the store is ready and writes again, and
// everything answered survives a crash.
func TestCheckpointFault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	var full atomic.Bool
	s, err := Open(path, &Options{CheckpointSize: 1024, checkpointFault: func() error {
		if full.Load() {
			return syscall.ENOSPC
		}
		return nil
	}})
	require.NoError(t, err)
	full.Store(true)
	var answered []string
	for i := 0; ; i++ {
		key := fmt.Sprintf("k%04d", i)
		err := s.Update(ctx, func(tx payments.Tx) error { return tx.Put("t", key, bytes.Repeat([]byte("v"), 200)) })
		if err != nil {
			require.ErrorIs(t, err, payments.ErrStoreUnavailable)
			break
		}
		answered = append(answered, key)
		require.Less(t, i, 1000, "writes are refused once memory is full")
	}
	require.Error(t, s.Ready(ctx))
	assert.Len(t, contents(t, s), len(answered), "what was answered stays readable")
	full.Store(false)
	require.Eventually(t, func() bool { return s.Ready(ctx) == nil }, 5*time.Second, 20*time.Millisecond)
	put(t, s, "z", "after")
	crash(t, s)
	s, err = Open(path, nil)
	require.NoError(t, err)
	defer s.Close()
	assert.Len(t, contents(t, s), len(answered)+1)
}
