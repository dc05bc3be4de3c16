package boltstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// The log is two files beside the bbolt file, written in turn. Each holds
// records from its start:
//
//	[4] payload length, little-endian
//	[4] CRC-32C of the sequence number and the payload
//	[8] sequence number, little-endian; each record's is its predecessor's + 1
//	payload: writes, each
//	    [1] 0 put, 1 delete
//	    uvarint length + table, uvarint length + key, for a put uvarint length + value
//
// A file is read up to its first record that is cut short, fails its
// checksum or does not follow its predecessor: whatever lies after it is an
// older use of the file, or a write the crash interrupted (never
// acknowledged, as the caller is answered after the fsync).
//
// The files grow by zeroed chunks ahead of the records: writing inside a
// file's length lets fdatasync skip the file's metadata, which halves its
// cost on ext4.

const (
	headerSize = 16
	growChunk  = 1 << 20
	opPut      = 0
	opDelete   = 1
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// wal appends records to one of its two files.
type wal struct {
	files [2]*os.File
	sizes [2]int64 // each file's length: zeroed beyond what was written
	cur   int
	off   int64 // where the next record goes in files[cur]
	buf   []byte
}

// walPaths are the log files of the bbolt file at path.
func walPaths(path string) [2]string { return [2]string{path + ".wal.0", path + ".wal.1"} }

// record is one decoded log record.
type record struct {
	seq    uint64
	writes []write
}

type write struct {
	table, key string
	e          entry
}

// openWAL opens (creating) the log files of path and returns the records
// they hold with a sequence number above applied, in order and without a
// gap. The caller writes them into the bbolt file and then calls reset.
func openWAL(path string, mode os.FileMode, applied uint64) (*wal, []record, error) {
	w := &wal{}
	var found []record
	created := false
	for i, p := range walPaths(path) {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			created = true
		}
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, mode)
		if err != nil {
			w.close()
			return nil, nil, err
		}
		w.files[i] = f
		raw, err := os.ReadFile(p)
		if err != nil {
			w.close()
			return nil, nil, err
		}
		w.sizes[i] = int64(len(raw))
		recs, err := readRecords(raw)
		if err != nil {
			w.close()
			return nil, nil, fmt.Errorf("boltstore: log %s: %w", p, err)
		}
		for _, r := range recs {
			if r.seq > applied {
				found = append(found, r)
			}
		}
	}
	// A new file's name is durable once its directory is synced: without
	// it, a power cut could take the file and the records acknowledged in it.
	if created {
		if err := syncDir(filepath.Dir(path)); err != nil {
			w.close()
			return nil, nil, err
		}
	}
	slices.SortFunc(found, func(a, b record) int { return cmpSeq(a.seq, b.seq) })
	for i, r := range found {
		if r.seq != applied+uint64(i)+1 {
			found = found[:i]
			break
		}
	}
	return w, found, nil
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// readRecords decodes the records at the start of one log file. A record
// whose checksum holds but whose writes do not decode is an error: the file
// is damaged, not cut short.
func readRecords(raw []byte) ([]record, error) {
	var out []record
	for len(raw) >= headerSize {
		n := binary.LittleEndian.Uint32(raw[0:4])
		if n == 0 || int64(n) > int64(len(raw)-headerSize) {
			break
		}
		body := raw[8 : headerSize+int(n)]
		if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(raw[4:8]) {
			break
		}
		seq := binary.LittleEndian.Uint64(raw[8:16])
		if len(out) > 0 && seq != out[len(out)-1].seq+1 {
			break
		}
		writes, err := decodeWrites(raw[headerSize : headerSize+int(n)])
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", seq, err)
		}
		out = append(out, record{seq: seq, writes: writes})
		raw = raw[headerSize+int(n):]
	}
	return out, nil
}

var errBadRecord = errors.New("malformed writes")

func decodeWrites(p []byte) ([]write, error) {
	var out []write
	field := func() (string, bool) {
		n, k := binary.Uvarint(p)
		if k <= 0 || n > uint64(len(p)-k) {
			return "", false
		}
		s := string(p[k : k+int(n)])
		p = p[k+int(n):]
		return s, true
	}
	for len(p) > 0 {
		op := p[0]
		p = p[1:]
		table, ok1 := field()
		key, ok2 := field()
		if !ok1 || !ok2 || op > opDelete {
			return nil, errBadRecord
		}
		w := write{table: table, key: key, e: entry{del: op == opDelete}}
		if op == opPut {
			v, ok := field()
			if !ok {
				return nil, errBadRecord
			}
			w.e.v = []byte(v)
		}
		out = append(out, w)
	}
	return out, nil
}

// encodeRecord appends record seq holding the writes of l to buf.
func encodeRecord(buf []byte, seq uint64, l *layer) ([]byte, error) {
	start := len(buf)
	b := append(buf, make([]byte, headerSize)...)
	for table, r := range l.tables {
		for k, e := range r.m {
			op := byte(opPut)
			if e.del {
				op = opDelete
			}
			b = append(b, op)
			b = binary.AppendUvarint(b, uint64(len(table)))
			b = append(b, table...)
			b = binary.AppendUvarint(b, uint64(len(k)))
			b = append(b, k...)
			if !e.del {
				b = binary.AppendUvarint(b, uint64(len(e.v)))
				b = append(b, e.v...)
			}
		}
	}
	h := b[start:]
	if len(h)-headerSize > 1<<31 {
		return buf, fmt.Errorf("boltstore: a commit of %d bytes is too large", len(h))
	}
	binary.LittleEndian.PutUint32(h[0:4], uint32(len(h)-headerSize))
	binary.LittleEndian.PutUint64(h[8:16], seq)
	binary.LittleEndian.PutUint32(h[4:8], crc32.Checksum(h[8:], crcTable))
	return b, nil
}

// append writes the writes of l as record seq, syncs it and returns its
// size.
func (w *wal) append(seq uint64, l *layer) (int, error) {
	b, err := encodeRecord(w.buf[:0], seq, l)
	if err != nil {
		return 0, err
	}
	if cap(b) <= 4<<20 {
		w.buf = b
	}
	f := w.files[w.cur]
	if end := w.off + int64(len(b)); end > w.sizes[w.cur] {
		grown := (end + growChunk - 1) / growChunk * growChunk
		if _, err := f.WriteAt(make([]byte, grown-w.sizes[w.cur]), w.sizes[w.cur]); err != nil {
			return 0, err
		}
		w.sizes[w.cur] = grown
	}
	if _, err := f.WriteAt(b, w.off); err != nil {
		return 0, err
	}
	if err := fdatasync(f); err != nil {
		return 0, err
	}
	w.off += int64(len(b))
	return len(b), nil
}

// reset empties both files once every record they hold is in the bbolt
// file (after Open's replay): nothing older than the next record is left to
// be mistaken for its successor, even past a damaged record.
func (w *wal) reset() error {
	for i, f := range w.files {
		if err := f.Truncate(0); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		w.sizes[i] = 0
	}
	w.cur, w.off = 0, 0
	return nil
}

// turn makes the next record go to the start of the other file. The caller
// makes sure every record in it is in the bbolt file.
func (w *wal) turn() {
	w.cur ^= 1
	w.off = 0
}

func (w *wal) close() error {
	var errs []error
	for i, f := range w.files {
		if f != nil {
			errs = append(errs, f.Close())
			w.files[i] = nil
		}
	}
	return errors.Join(errs...)
}

// remove closes and deletes the files (after a checkpoint of everything).
func (w *wal) remove(path string) error {
	errs := []error{w.close()}
	for _, p := range walPaths(path) {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
