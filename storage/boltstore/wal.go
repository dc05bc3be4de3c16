package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// The log is two files beside the bbolt file, written in turn. A file
// written by this version starts with the 8 bytes walMagic ("boltwal2")
// and then holds records:
//
//	[4] payload length, little-endian
//	[4] CRC-32C of the payload
//	[8] sequence number, little-endian; each record's is its predecessor's + 1
//	[4] CRC-32C of the 16 bytes before it (the header's own checksum)
//	payload: writes, each
//	    [1] 0 put, 1 delete
//	    uvarint length + table, uvarint length + key, for a put uvarint length + value
//
// A file without the magic is read in the format of earlier versions (one
// 16-byte header whose CRC covers the sequence number and the payload), so
// a log left by one still opens.
//
// A file is read up to its first record that is cut short, fails a
// checksum or does not follow its predecessor. What lies after it is
// either harmless, an older use of the file or a write the crash
// interrupted (never acknowledged, as the caller is answered after the
// fsync), or the sign of damage: a whole record further on (both checksums
// hold) with a sequence number above every record read and every record the
// bbolt file holds. Such a record was acknowledged after the one that
// failed, so the failure is not a torn tail: openWAL refuses the log with a
// *DamagedLogError unless told to drop what follows the damage. The
// header's own checksum is what tells the two apart cheaply: a record cut
// short by a crash is the last one, and nothing valid follows it.
//
// The files grow by zeroed chunks ahead of the records: writing inside a
// file's length lets fdatasync skip the file's metadata, which halves its
// cost on ext4.

const (
	headerSize   = 20
	v1HeaderSize = 16
	growChunk    = 1 << 20
	opPut        = 0
	opDelete     = 1
)

// walMagic starts every log file this version writes. Read as an earlier
// version's first record length it is about 1.9 GB, more than the file
// holds, so an earlier version reads such a log as empty.
const walMagic = "boltwal2"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// wal appends records to one of its two files.
type wal struct {
	files [2]walFile
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

// DamagedLogError is Open's answer to a write-ahead log damaged before its
// end: a record at Offset of File fails its check (Found says how) while
// Records acknowledged records follow it (or records are missing between
// the two log files). Open refuses such a log unless
// Options.TruncateDamagedLog is set; then it keeps the records before the
// damage, drops the rest, and Store.DroppedRecords reports this error.
type DamagedLogError struct {
	// File is the log file's path.
	File string
	// Offset is where, in bytes from the file's start, the damage begins.
	Offset int64
	// Found says what was found there instead of the next record.
	Found string
	// Records is how many acknowledged records lie beyond the damage: the
	// writes lost if the log is truncated there.
	Records int
}

// Error implements error.
func (e *DamagedLogError) Error() string {
	return fmt.Sprintf("boltstore: write-ahead log %s is damaged at offset %d (%s) and %d acknowledged records follow; "+
		"restore it from a copy, or open with TruncateDamagedLog (server flag -wal-truncate-damaged) to drop those %d records",
		e.File, e.Offset, e.Found, e.Records, e.Records)
}

// openWAL opens (creating) the log files of path and returns the records
// they hold with a sequence number above applied, in order and without a
// gap. The caller writes them into the bbolt file and then calls reset.
// Damage before the end of the log is a *DamagedLogError, unless truncate
// is set: then the records before it are returned, and the error as the
// second result.
func openWAL(fsys fileSystem, path string, mode os.FileMode, applied uint64, truncate bool) (*wal, []record, *DamagedLogError, error) {
	w := &wal{}
	var found []record
	var damage *DamagedLogError
	created := false
	fail := func(err error) (*wal, []record, *DamagedLogError, error) {
		_ = w.close()
		return nil, nil, nil, err
	}
	var logs [2]fileLog
	baseline := applied
	for i, p := range walPaths(path) {
		raw, err := fsys.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			created = true
		} else if err != nil {
			return fail(err)
		}
		f, err := fsys.OpenFile(p, os.O_RDWR|os.O_CREATE, mode)
		if err != nil {
			return fail(err)
		}
		w.files[i] = f
		w.sizes[i] = int64(len(raw))
		l, err := readLog(raw)
		if err != nil {
			return fail(fmt.Errorf("boltstore: log %s: %w", p, err))
		}
		logs[i] = l
		for _, r := range l.recs {
			baseline = max(baseline, r.seq)
			if r.seq > applied {
				found = append(found, r)
			}
		}
	}
	// Damage shows as a whole record beyond a file's stop that is newer
	// than every record read from either file and than the bbolt file.
	for i, l := range logs {
		if n := l.acknowledgedAfter(baseline); n > 0 && damage == nil {
			damage = &DamagedLogError{File: walPaths(path)[i], Offset: int64(l.stop), Found: l.found, Records: n}
		}
	}
	// A new file's name is durable once its directory is synced: without
	// it, a power cut could take the file and the records acknowledged in it.
	if created {
		if err := fsys.SyncDir(filepath.Dir(path)); err != nil {
			return fail(err)
		}
	}
	slices.SortFunc(found, func(a, b record) int { return cmpSeq(a.seq, b.seq) })
	for i, r := range found {
		if r.seq != applied+uint64(i)+1 {
			// Records are missing between the two files: the file that held
			// them lost them.
			if damage == nil {
				damage = &DamagedLogError{File: walPaths(path)[0] + ", " + filepath.Base(walPaths(path)[1]),
					Found: fmt.Sprintf("record %d missing before record %d", applied+uint64(i)+1, r.seq)}
			}
			damage.Records += len(found) - i
			found = found[:i]
			break
		}
	}
	if damage != nil && !truncate {
		return fail(damage)
	}
	return w, found, damage, nil
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

// fileLog is what readLog read from one log file: its records up to the
// first that fails, where that one starts, and what was found there.
type fileLog struct {
	raw   []byte
	v2    bool
	recs  []record
	stop  int
	found string
}

// readLog decodes the records of one log file (its whole contents) up to
// the first that is cut short, fails a checksum or does not follow its
// predecessor. A record whose checksums hold but whose writes do not decode
// is an error.
func readLog(raw []byte) (fileLog, error) {
	l := fileLog{raw: raw, v2: len(raw) >= len(walMagic) && string(raw[:len(walMagic)]) == walMagic}
	if l.v2 {
		l.stop = len(walMagic)
	}
	hs := l.headerSize()
	for {
		seq, n, why := recordAt(raw, l.stop, l.v2)
		if why != "" {
			l.found = why
			return l, nil
		}
		if len(l.recs) > 0 && seq != l.recs[len(l.recs)-1].seq+1 {
			l.found = fmt.Sprintf("record %d after record %d", seq, l.recs[len(l.recs)-1].seq)
			return l, nil
		}
		writes, err := decodeWrites(raw[l.stop+hs : l.stop+n])
		if err != nil {
			return l, fmt.Errorf("record %d at offset %d: %w", seq, l.stop, err)
		}
		l.recs = append(l.recs, record{seq: seq, writes: writes})
		l.stop += n
	}
}

func (l fileLog) headerSize() int {
	if l.v2 {
		return headerSize
	}
	return v1HeaderSize
}

// acknowledgedAfter counts the records found beyond the stop whose
// sequence numbers follow baseline (the newest record read anywhere, or
// held by the bbolt file): records acknowledged after the one that failed.
// The records between baseline and such a record lay between the stop and
// it, so it is at most one per 17 bytes (the smallest record) past
// baseline: a cheap test that skips almost every offset of random bytes. A
// file that lost its magic is searched in both formats.
func (l fileLog) acknowledgedAfter(baseline uint64) int {
	count := func(v2 bool) int {
		for q := l.stop + 1; q+v1HeaderSize <= len(l.raw); q++ {
			// A record header inside a zeroed page (the files grow by
			// zeroed chunks) has sequence number 0: skip the page.
			if q%len(zeroPage) == 0 && q+len(zeroPage) <= len(l.raw) && bytes.Equal(l.raw[q:q+len(zeroPage)], zeroPage[:]) {
				q += len(zeroPage) - v1HeaderSize
				continue
			}
			seq := binary.LittleEndian.Uint64(l.raw[q+8 : q+16])
			if seq <= baseline || seq-baseline-1 > uint64(q-l.stop)/17 {
				continue
			}
			seq, n, why := recordAt(l.raw, q, v2)
			if why != "" {
				continue
			}
			c := 1
			for r := q + n; ; c++ {
				next, m, why := recordAt(l.raw, r, v2)
				if why != "" || next != seq+uint64(c) {
					return c
				}
				r += m
			}
		}
		return 0
	}
	if c := count(l.v2); c > 0 || l.v2 {
		return c
	}
	return count(true)
}

// recordAt checks the record at offset p of raw and returns its sequence
// number and whole size, or why there is none: "" means valid.
func recordAt(raw []byte, p int, v2 bool) (seq uint64, size int, why string) {
	hs := headerSize
	if !v2 {
		hs = v1HeaderSize
	}
	if p+hs > len(raw) {
		return 0, 0, "the file ends inside a record header"
	}
	h := raw[p : p+hs]
	n := int64(binary.LittleEndian.Uint32(h[0:4]))
	seq = binary.LittleEndian.Uint64(h[8:16])
	if v2 && crc32.Checksum(h[:16], crcTable) != binary.LittleEndian.Uint32(h[16:20]) {
		if allZero(h) {
			return 0, 0, "zeros where the next record header belongs"
		}
		return 0, 0, "a record header that fails its checksum"
	}
	if n == 0 || n > int64(len(raw)-p-hs) {
		return 0, 0, fmt.Sprintf("a record length of %d bytes that does not fit the file", n)
	}
	body := raw[p+hs : p+hs+int(n)]
	var sum uint32
	if v2 {
		sum = crc32.Checksum(body, crcTable)
	} else {
		sum = crc32.Checksum(raw[p+8:p+hs+int(n)], crcTable)
	}
	if sum != binary.LittleEndian.Uint32(h[4:8]) {
		return 0, 0, fmt.Sprintf("record %d whose payload fails its checksum", seq)
	}
	return seq, hs + int(n), ""
}

// zeroPage is a page of zeros to compare the log's pages with.
var zeroPage [4096]byte

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
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
	binary.LittleEndian.PutUint32(h[4:8], crc32.Checksum(h[headerSize:], crcTable))
	binary.LittleEndian.PutUint64(h[8:16], seq)
	binary.LittleEndian.PutUint32(h[16:20], crc32.Checksum(h[:16], crcTable))
	return b, nil
}

// append writes the writes of l as record seq, syncs it and returns its
// size. A record at a file's start comes after the file's magic. When it
// fails, nothing counts as written: the next append writes at the same
// offset (what the failed one left there is never read, as the retry or
// zeros cover its header).
func (w *wal) append(seq uint64, l *layer) (int, error) {
	buf := w.buf[:0]
	if w.off == 0 {
		buf = append(buf, walMagic...)
	}
	b, err := encodeRecord(buf, seq, l)
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
	if err := f.Datasync(); err != nil {
		return 0, err
	}
	w.off += int64(len(b))
	return len(b), nil
}

// probe makes room for a record of a few kilobytes at the current offset
// and syncs it: the write a full disk refused (growing the file) done
// again, without a record. Bytes past the offset are never read.
func (w *wal) probe() error {
	f := w.files[w.cur]
	end := w.off + 64<<10
	if end > w.sizes[w.cur] {
		grown := (end + growChunk - 1) / growChunk * growChunk
		if _, err := f.WriteAt(make([]byte, grown-w.sizes[w.cur]), w.sizes[w.cur]); err != nil {
			return err
		}
		w.sizes[w.cur] = grown
	}
	return f.Datasync()
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
func (w *wal) remove(fsys fileSystem, path string) error {
	errs := []error{w.close()}
	for _, p := range walPaths(path) {
		if err := fsys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
