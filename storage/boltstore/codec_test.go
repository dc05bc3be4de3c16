package boltstore_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// record is the i-th of a series of JSON records alike as the engine's
// are: the same members, ids and times that differ in a few digits.
func record(i int) []byte {
	return fmt.Appendf(nil, `{"id":"Transaction:0193a5c2-7d1e-7%03x-9b2c-%012x","status":"COMPLETED","type":"OUTGOING","direction":"DEBIT",`+
		`"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:0193a5c2-6a00-7000-8000-00000000%04x","currency":"USD"},`+
		`"destination":{"destinationType":"ACCOUNT","accountId":"ExternalAccount:0193a5c2-6b00-7000-8000-00000000%04x","currency":"USD"},`+
		`"sentAmount":{"amount":%d,"currency":{"code":"USD","name":"United States Dollar","symbol":"$","decimals":2}},`+
		`"receivedAmount":{"amount":%d,"currency":{"code":"USD","name":"United States Dollar","symbol":"$","decimals":2}},`+
		`"customerId":"Customer:0193a5c2-5900-7000-8000-0000000000%02x","createdAt":"2026-11-28T20:%02d:%02d.%03dZ","updatedAt":"2026-11-28T20:%02d:%02d.%03dZ"}`,
		i%4096, i, i%8, i%8, 100+i%977, 100+i%977, i%8, i/3600%60, i/60%60, i%1000, i/3600%60, i/60%60, i%1000)
}

// checkContents asserts that table "recs" of s holds exactly want, by Get
// and by ascending and descending Scans.
func checkContents(t *testing.T, s payments.Store, want map[string][]byte) {
	t.Helper()
	keys := slices.Sorted(maps.Keys(want))
	require.NoError(t, s.View(context.Background(), func(tx payments.Tx) error {
		for _, k := range keys {
			v, err := tx.Get("recs", k)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			if string(v) != string(want[k]) {
				return fmt.Errorf("%s: got %q, want %q", k, v, want[k])
			}
		}
		for _, reverse := range []bool{false, true} {
			var got []string
			err := tx.Scan("recs", payments.ScanOptions{Reverse: reverse}, func(k string, v []byte) (bool, error) {
				if string(v) != string(want[k]) {
					return false, fmt.Errorf("scan %s: got %q, want %q", k, v, want[k])
				}
				got = append(got, k)
				return true, nil
			})
			if err != nil {
				return err
			}
			if reverse {
				slices.Reverse(got)
			}
			if !slices.Equal(got, keys) {
				return fmt.Errorf("scan (reverse %v): %d keys, want %d", reverse, len(got), len(keys))
			}
		}
		return nil
	}))
}

// TestCompressedValues: values alike are kept compressed in the file,
// against a dictionary made from the first checkpoint that had enough of
// them, and read back exactly, from the layers and from the file, by Get
// and Scan, before and after reopening; values too short to compress,
// empty values and those written before the dictionary come back too.
func TestCompressedValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	opts := &boltstore.Options{CheckpointSize: 64 << 10} // many checkpoints
	s, err := boltstore.Open(path, opts)
	require.NoError(t, err)
	want := map[string][]byte{}
	raw := 0
	put := func(from, to int) {
		require.NoError(t, s.Update(context.Background(), func(tx payments.Tx) error {
			for i := from; i < to; i++ {
				k, v := fmt.Sprintf("rec:%06d", i), record(i)
				switch i % 50 {
				case 7:
					v = []byte("short")
				case 8:
					v = []byte{}
				}
				if err := tx.Put("recs", k, v); err != nil {
					return err
				}
				want[k], raw = v, raw+len(v)
			}
			return nil
		}))
	}
	put(0, 2) // a first checkpoint too small for a dictionary: kept raw
	for from := 2; from < 3000; from += 100 {
		put(from, from+100)
	}
	checkContents(t, s, want)
	require.NoError(t, s.Close())
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	kept := 0
	require.NoError(t, db.View(func(btx *bolt.Tx) error {
		return btx.Bucket([]byte("recs")).ForEach(func(_, v []byte) error { kept += len(v); return nil })
	}))
	require.NoError(t, db.Close())
	assert.Less(t, kept, raw/3, "%d bytes kept for %d bytes of values", kept, raw)

	s, err = boltstore.Open(path, opts)
	require.NoError(t, err)
	checkContents(t, s, want)
	// Replaced and deleted values, read over the file and after it.
	require.NoError(t, s.Update(context.Background(), func(tx payments.Tx) error {
		for i := 0; i < 3000; i += 3 {
			k := fmt.Sprintf("rec:%06d", i)
			if i%2 == 0 {
				want[k] = record(i + 5000)
				if err := tx.Put("recs", k, want[k]); err != nil {
					return err
				}
				continue
			}
			delete(want, k)
			if err := tx.Delete("recs", k); err != nil {
				return err
			}
		}
		return nil
	}))
	checkContents(t, s, want)
	require.NoError(t, s.Close())
	s, err = boltstore.Open(path, opts)
	require.NoError(t, err)
	defer s.Close()
	checkContents(t, s, want)
}

// metaBucket is the store's own bucket in the file.
var metaBucket = []byte("\x00boltstore")

// TestEarlierFileStaysRaw: a file an earlier version made (tables, and no
// format mark) is read as it is and keeps its values raw, so that the
// earlier version can still read it.
func TestEarlierFileStaysRaw(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	want := map[string][]byte{}
	require.NoError(t, db.Update(func(btx *bolt.Tx) error {
		meta, err := btx.CreateBucket(metaBucket)
		if err != nil {
			return err
		}
		if err := meta.Put([]byte("seq"), binary.LittleEndian.AppendUint64(nil, 0)); err != nil {
			return err
		}
		b, err := btx.CreateBucket([]byte("recs"))
		if err != nil {
			return err
		}
		for i := range 10 {
			want[fmt.Sprintf("rec:%06d", i)] = record(i)
			if err := b.Put(fmt.Appendf(nil, "rec:%06d", i), record(i)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.Close())

	s, err := boltstore.Open(path, nil)
	require.NoError(t, err)
	checkContents(t, s, want)
	require.NoError(t, s.Update(context.Background(), func(tx payments.Tx) error {
		for i := 10; i < 500; i++ {
			want[fmt.Sprintf("rec:%06d", i)] = record(i)
			if err := tx.Put("recs", fmt.Sprintf("rec:%06d", i), record(i)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, s.Close())

	db, err = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	require.NoError(t, db.View(func(btx *bolt.Tx) error {
		assert.Nil(t, btx.Bucket(metaBucket).Get([]byte("format")))
		return btx.Bucket([]byte("recs")).ForEach(func(k, v []byte) error {
			assert.Equal(t, string(want[string(k)]), string(v), "%s as an earlier version reads it", k)
			return nil
		})
	}))
	require.NoError(t, db.Close())
	s, err = boltstore.Open(path, nil)
	require.NoError(t, err)
	defer s.Close()
	checkContents(t, s, want)
}

// TestDamagedValue: a value of the file that does not decode fails the
// transaction that reads it with an error; the others read on.
func TestDamagedValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := boltstore.Open(path, nil)
	require.NoError(t, err)
	require.NoError(t, s.Update(context.Background(), func(tx payments.Tx) error {
		for i := range 100 {
			if err := tx.Put("recs", fmt.Sprintf("rec:%06d", i), record(i)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, s.Close())
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(btx *bolt.Tx) error {
		b := btx.Bucket([]byte("recs"))
		v := slices.Clone(b.Get([]byte("rec:000050")))
		require.Equal(t, byte(1), v[0], "compressed against the dictionary")
		v = v[:len(v)/2] // cut short
		return b.Put([]byte("rec:000050"), v)
	}))
	require.NoError(t, db.Close())

	s, err = boltstore.Open(path, nil)
	require.NoError(t, err)
	defer s.Close()
	err = s.View(context.Background(), func(tx payments.Tx) error {
		_, err := tx.Get("recs", "rec:000050")
		return err
	})
	assert.ErrorContains(t, err, `a value of table "recs" in the file is damaged`)
	require.NoError(t, s.View(context.Background(), func(tx payments.Tx) error {
		v, err := tx.Get("recs", "rec:000049")
		assert.Equal(t, string(record(49)), string(v))
		return err
	}))
}
