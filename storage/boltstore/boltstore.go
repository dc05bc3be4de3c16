// Package boltstore is a payments.Store on a bbolt file: durable (an
// Update that returned nil survives a crash), one bucket per table.
//
// Commits go to a write-ahead log. Update hands its function to one
// committer goroutine, which takes every request already waiting (no timer,
// unlike bbolt's Batch), runs them one after another, appends their writes
// to the log as one record and syncs it once, so 64 concurrent callers pay
// for one small write and one fsync. Each function runs under its own undo
// log: when it fails, panics or its context is cancelled, its writes are
// undone and the others still commit. Functions run exactly once. A group
// that wrote nothing syncs nothing.
//
// Committed writes are kept in memory, where reads see them over the file,
// and reach the bbolt file in the background a few megabytes at a time: a
// checkpoint is one ordinary bbolt commit, which also stores the sequence
// number of the last log record it holds. Open replays the records the
// file does not hold yet.
//
// Why a log: a bbolt commit writes every page it changed, and each of the
// engine's operations changes about 14 tables, so committing one operation
// wrote about 35 scattered pages and waited for two fsyncs (about 0.6 ms
// on the 2-core machine of our benchmarks; a quote create+execute took 0.75
// ms at one caller, and takes 0.25-0.28 ms with the log). A log record is a few kilobytes written in place with
// one fsync (about 0.1 ms), and a checkpoint writes each changed page once
// for hundreds of operations.
//
// Running a group's functions while the previous group's record syncs
// (answering in order) was built three times, over bbolt commits and over
// the log, and measured in November 2026: 8% faster at 64 engine callers the
// first time, 5-8% slower the second, no different the third (4 alternating
// runs each of the engine and HTTP benchmarks). Not kept. What the third
// found: at 64 callers the committer is busy all the time, about 48% running
// functions (110 us per quote create+execute, twice memstore's, for the
// reads through the layers and the file), 36% logging and 14% merging a
// group into the active layer. Taking the log off it moves the wait to the
// merge: merging needs mu exclusively, so it waits for every running View and
// then holds back every new one, and the syncer's hand-over of each group
// waits the same way. Overlap pays only once reads no longer share a lock
// with merges (layers readers can hold without it).
//
// In the file, values are compressed: each table's against a dictionary
// made from its first values (codec.go). A payment's records, which repeat
// their neighbours' member names, ids and times, take a fifth of their
// size, and the file about half (5,000 bytes a quote create+execute
// before, 2,500 after). Only the checkpoint compresses, in the background;
// the log and the writes in memory keep values as they are.
//
// The log is two files beside the database, path+".wal.0" and
// path+".wal.1", used in turn: when the writes in memory reach
// Options.CheckpointSize, they are frozen and checkpointed while new
// records go to the start of the other file, whose records the previous
// checkpoint holds. Close checkpoints everything and removes the log files.
// A database written by an earlier version of this package (no log) opens
// as it is; an earlier version does not read the log, so close the store
// cleanly before going back to one.
//
// Faults. An Update whose log record the disk refuses (ENOSPC) is
// answered with an error wrapping payments.ErrStoreUnavailable (503
// SERVICE_UNAVAILABLE through the API) and nothing of it is kept; reads go
// on, and Ready reports the fault (the server's /readyz fails on it). The
// store recovers by itself rather than exiting: the next group writes its
// record where the failed one was to go, and while no Update comes the
// committer tries the failed write again once a second, so the store is
// ready again as soon as the disk has room. A checkpoint the disk refuses
// leaves its layer frozen (readable) and is sent again once a second;
// writes go on into the log until 16 times Options.CheckpointSize waits,
// then are refused the same way. A log record that fails its checksums
// while records acknowledged after it follow is damage, not a torn tail:
// Open refuses it with a *DamagedLogError unless
// Options.TruncateDamagedLog. A bbolt file bbolt panics on (cut short) is
// an error naming it.
//
//	store, err := boltstore.Open("payments.db", nil)
//	if err != nil { ... }
//	defer store.Close()
package boltstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/paygrid/payments"
	bolt "go.etcd.io/bbolt"
)

// Options tune Open. A nil *Options means the defaults.
type Options struct {
	// Timeout bounds waiting for the file lock held by another process.
	// Zero means 5 seconds.
	Timeout time.Duration
	// Mode is the file mode of a new database and its log. Zero means 0600.
	Mode os.FileMode
	// MaxGroup caps how many Updates share one commit. Zero means 1024.
	MaxGroup int
	// CheckpointSize is how many bytes of log records are kept in memory
	// before they are written to the bbolt file. Writers wait when 16 times
	// as much is waiting (the disk cannot keep up). Zero means 4 MiB.
	CheckpointSize int
	// TruncateDamagedLog opens a store whose write-ahead log is damaged
	// before its end (Open's *DamagedLogError otherwise): the records
	// before the damage are kept, the acknowledged records after it are
	// dropped, and Store.DroppedRecords says how many and where.
	TruncateDamagedLog bool

	// fs is the log's file layer; nil means the operating system's.
	fs fileSystem
	// checkpointFault, when set, is called before each checkpoint's bbolt
	// commit and fails it with its error (tests: bbolt writes its own
	// file, which fs cannot reach).
	checkpointFault func() error
}

// Store is a bbolt-backed payments.Store. Open it with Open.
type Store struct {
	db       *bolt.DB
	codec    *codec // how the file keeps values (codec.go)
	path     string
	fs       fileSystem
	dropped  *DamagedLogError
	ckptHook func() error
	reqs     chan *request
	maxGroup int
	ckptSize int

	// mu guards closed, the active layer's contents and the frozen
	// pointer against readers: View holds it shared for its whole run.
	mu      sync.RWMutex
	closed  bool
	closing chan struct{}
	stopped chan struct{}
	active  *layer
	frozen  *layer // being checkpointed, or nil

	// Owned by the committer goroutine (and by Close after it stopped).
	log           *wal
	seq           uint64 // of the last record written
	checkpointing bool   // a checkpoint was sent and not yet answered
	retryCkpt     *layer // frozen layer whose checkpoint failed, to send again

	// faultMu guards the write faults: the last failed log write and the
	// last failed checkpoint, cleared when one succeeds again.
	faultMu   sync.Mutex
	logFault  error
	ckptFault error

	ckpts     chan *layer
	ckptDone  chan error
	ckptsDone chan struct{}
}

var _ payments.Store = (*Store)(nil)

type request struct {
	ctx  context.Context
	fn   func(payments.Tx) error
	done chan error
}

// metaBucket holds the store's own keys beside the tables (no table name
// starts with a zero byte); seqKey is the sequence number of the last log
// record the file holds.
var metaBucket, seqKey = []byte("\x00boltstore"), []byte("seq")

// Open opens (creating if needed) the database at path, replays its log
// and starts its committer.
func Open(path string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Mode == 0 {
		o.Mode = 0o600
	}
	if o.MaxGroup <= 0 {
		o.MaxGroup = 1024
	}
	if o.CheckpointSize <= 0 {
		o.CheckpointSize = 4 << 20
	}
	// A new file gets 16 KiB pages: a checkpoint writes hundreds of pages,
	// each with its own write call, and bigger pages quarter them (the
	// checkpoint's CPU over 20k quote create+executes fell from 0.87 s to
	// 0.60 s). An existing file keeps the page size it was made with.
	if o.fs == nil {
		o.fs = osFS{}
	}
	db, err := openBolt(path, o.Mode, &bolt.Options{Timeout: o.Timeout, PageSize: 16 << 10})
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, fs: o.fs, ckptHook: o.checkpointFault, reqs: make(chan *request, o.MaxGroup), maxGroup: o.MaxGroup, ckptSize: o.CheckpointSize,
		closing: make(chan struct{}), stopped: make(chan struct{}), active: newLayer(),
		ckpts: make(chan *layer, 1), ckptDone: make(chan error, 1), ckptsDone: make(chan struct{})}
	if err := s.recover(o.Mode, o.TruncateDamagedLog); err != nil {
		_ = db.Close()
		return nil, err
	}
	go s.commitLoop()
	go s.checkpointLoop()
	return s, nil
}

// openBolt is bolt.Open with a panic turned into an error naming the file:
// bbolt panics on some damaged files (a truncated one: "invalid freelist
// page") instead of returning an error. The file bbolt opened is then
// unlocked and closed, so a later Open in the process does not wait for the
// lock; bbolt's mapping of it stays until the process exits.
func openBolt(path string, mode os.FileMode, opts *bolt.Options) (db *bolt.DB, err error) {
	var opened *os.File
	o := *opts
	o.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		if err == nil {
			opened = f
		}
		return f, err
	}
	// A file cut short inside its tree faults when bbolt touches the mapped
	// pages past its end (SIGBUS): a panic here, turned into the error below.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if opened != nil {
				unlock(opened)
				_ = opened.Close()
			}
			db, err = nil, fmt.Errorf("boltstore: %s is damaged (cut short or overwritten?): bbolt: %v", path, p)
		}
	}()
	db, err = bolt.Open(path, mode, &o)
	if err != nil {
		return nil, fmt.Errorf("boltstore: opening %s: %w", path, err)
	}
	return db, nil
}

// DroppedRecords is nil, or, for a store opened with
// Options.TruncateDamagedLog over a damaged log, where the damage was and
// how many acknowledged records after it were dropped.
func (s *Store) DroppedRecords() *DamagedLogError { return s.dropped }

// Ready reports whether the store can write: nil, or an error wrapping
// payments.ErrStoreUnavailable while a write to the disk fails (a full
// disk). Reads keep working meanwhile; the store retries the write once a
// second and is ready again as soon as it succeeds.
func (s *Store) Ready(ctx context.Context) error {
	if err := s.fault(); err != nil {
		return fmt.Errorf("%w: %v", payments.ErrStoreUnavailable, err)
	}
	return ctx.Err()
}

// fault is the write fault the store is in, or nil.
func (s *Store) fault() error {
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	return errors.Join(s.logFault, s.ckptFault)
}

func (s *Store) setLogFault(err error) {
	s.faultMu.Lock()
	s.logFault = err
	s.faultMu.Unlock()
}

func (s *Store) setCkptFault(err error) {
	s.faultMu.Lock()
	s.ckptFault = err
	s.faultMu.Unlock()
}

// recover opens the log and writes the records the file lacks into it.
// bbolt panics on some damaged files only when a page is first read (a
// file cut short inside its tree), not at bolt.Open: that panic is an
// error naming the file too, as openBolt's is.
func (s *Store) recover(mode os.FileMode, truncate bool) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("boltstore: %s is damaged (cut short or overwritten?): bbolt: %v", s.path, p)
		}
	}()
	if s.codec, err = openCodec(s.db); err != nil {
		return err
	}
	err = s.db.View(func(btx *bolt.Tx) error {
		if b := btx.Bucket(metaBucket); b != nil {
			if v := b.Get(seqKey); len(v) == 8 {
				s.seq = binary.LittleEndian.Uint64(v)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	log, recs, dropped, err := openWAL(s.fs, s.path, mode, s.seq, truncate)
	if err != nil {
		return err
	}
	s.dropped = dropped
	if len(recs) > 0 {
		replay := newLayer()
		for _, r := range recs {
			for _, w := range r.writes {
				replay.set(w.table, w.key, w.e)
			}
		}
		replay.last = recs[len(recs)-1].seq
		if err := s.checkpoint(replay); err != nil {
			_ = log.close()
			return fmt.Errorf("boltstore: replaying the log: %w", err)
		}
		s.seq = replay.last
	}
	if err := log.reset(); err != nil {
		_ = log.close()
		return err
	}
	s.log = log
	return nil
}

// Update runs fn in a read-write transaction that is on disk when Update
// returns nil. fn must not call Update itself (it would wait for its own
// group forever).
func (s *Store) Update(ctx context.Context, fn func(payments.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := &request{ctx: ctx, fn: fn, done: make(chan error, 1)}
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return payments.ErrClosed
	}
	s.reqs <- r
	s.mu.RUnlock()
	return <-r.done
}

// View runs fn in a read-only snapshot. Commits wait to become visible
// while a View runs (they are on disk already).
func (s *Store) View(ctx context.Context, fn func(payments.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return payments.ErrClosed
	}
	// Under mu the frozen layer stays until the View ends, so a checkpoint
	// ending meanwhile shows its writes in both the layer and the file (the
	// same values), never in neither.
	btx, err := s.db.Begin(false)
	if err != nil {
		return err
	}
	defer func() { _ = btx.Rollback() }()
	t := &tx{r: newReader(s.active, s.frozen, btx, s.codec)}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("boltstore: panic in transaction: %v", r)
		}
		t.done = true
	}()
	return fn(t)
}

// Close lets queued Updates finish, stops the committer, writes what is in
// memory to the file, removes the log and closes the file. Later calls
// return payments.ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return payments.ErrClosed
	}
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	<-s.stopped
	if s.checkpointing {
		s.checkpointAnswered(<-s.ckptDone)
	}
	close(s.ckpts)
	<-s.ckptsDone
	var err error
	if s.retryCkpt != nil {
		err = s.checkpoint(s.retryCkpt)
	}
	if err == nil && !s.active.empty() {
		err = s.checkpoint(s.active)
	}
	if err == nil {
		err = s.log.remove(s.fs, s.path)
	} else {
		_ = s.log.close() // the log still holds what the file lacks
	}
	return errors.Join(err, s.db.Close())
}

// commitLoop groups waiting Updates into shared commits.
func (s *Store) commitLoop() {
	defer close(s.stopped)
	var retry *time.Ticker
	for {
		// While a write to the disk fails, try it again every second, so
		// the store is ready again once space is back even if no Update
		// comes (a load balancer sends none to an unready server).
		var tick <-chan time.Time
		if s.fault() != nil {
			if retry == nil {
				retry = time.NewTicker(faultRetry)
			}
			tick = retry.C
		} else if retry != nil {
			retry.Stop()
			retry = nil
		}
		var first *request
		select {
		case <-tick:
			s.probe()
			continue
		case first = <-s.reqs:
		case <-s.closing:
			if retry != nil {
				retry.Stop()
			}
			// No sender can add more (closed is set under the lock), so
			// finish what is queued and stop.
			for {
				select {
				case r := <-s.reqs:
					s.commit([]*request{r})
				default:
					return
				}
			}
		}
		group := []*request{first}
	fill:
		for len(group) < s.maxGroup {
			select {
			case r := <-s.reqs:
				group = append(group, r)
			default:
				break fill
			}
		}
		s.commit(group)
	}
}

// commit runs a group over the store's state, logs its writes as one
// record and answers every caller after the sync.
func (s *Store) commit(group []*request) {
	select {
	case err := <-s.ckptDone:
		s.checkpointAnswered(err)
	default:
	}
	if s.checkpointing && s.active.size >= 16*s.ckptSize {
		s.checkpointAnswered(<-s.ckptDone) // the disk is behind: wait for it
	}
	errs := make([]error, len(group))
	if err := s.runGroup(group, errs); err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
	}
	for i, r := range group {
		r.done <- errs[i]
	}
	if !s.checkpointing && s.retryCkpt == nil && s.active.size >= s.ckptSize {
		full := s.active
		s.mu.Lock()
		s.frozen, s.active = full, newLayer()
		s.mu.Unlock()
		s.log.turn()
		s.checkpointing = true
		s.ckpts <- full
	}
}

// runGroup runs the group's functions, recording each one's error in errs,
// and commits what they wrote. It returns the error every function that
// succeeded gets instead.
func (s *Store) runGroup(group []*request, errs []error) error {
	if s.retryCkpt != nil && s.active.size >= 16*s.ckptSize {
		// The checkpoint fails and memory holds all it may: refuse writes
		// until the disk takes the checkpoint.
		return fmt.Errorf("%w: boltstore: %v", payments.ErrStoreUnavailable, s.fault())
	}
	s.mu.RLock()
	frozen := s.frozen
	s.mu.RUnlock()
	btx, err := s.db.Begin(false)
	if err != nil {
		return err
	}
	pending := newLayer()
	r := newReader(s.active, frozen, btx, s.codec)
	for i, req := range group {
		errs[i] = runOne(&tx{r: r, pending: pending}, req)
	}
	_ = btx.Rollback()
	if pending.empty() {
		return nil
	}
	n, err := s.log.append(s.seq+1, pending)
	if err != nil {
		// Nothing of the record counts: the next group writes its record
		// at the same place, and succeeds once the disk takes it.
		err = fmt.Errorf("boltstore: writing the log %s: %w", walPaths(s.path)[s.log.cur], err)
		s.setLogFault(err)
		return fmt.Errorf("%w: %v", payments.ErrStoreUnavailable, err)
	}
	s.setLogFault(nil)
	s.seq++
	s.mu.Lock()
	s.active.merge(pending)
	s.active.size += n
	s.active.last = s.seq
	s.mu.Unlock()
	return nil
}

// faultRetry is how often a failing write to the disk is tried again
// while no Update comes.
const faultRetry = time.Second

// checkpointAnswered takes the checkpointer's answer. A failed checkpoint
// leaves its layer frozen (reads still see it) and is sent again.
func (s *Store) checkpointAnswered(err error) {
	s.checkpointing = false
	if err != nil {
		s.mu.RLock()
		s.retryCkpt = s.frozen
		s.mu.RUnlock()
		s.setCkptFault(fmt.Errorf("boltstore: checkpoint into %s: %w", s.path, err))
		return
	}
	s.setCkptFault(nil)
}

// resendCheckpoint sends a failed checkpoint again (once a second, from
// probe).
func (s *Store) resendCheckpoint() {
	if s.retryCkpt != nil && !s.checkpointing {
		l := s.retryCkpt
		s.retryCkpt = nil
		s.checkpointing = true
		s.ckpts <- l
	}
}

// probe tries the failed writes again while no Update comes: the
// checkpoint, and the log's next write (room for the next record, synced).
func (s *Store) probe() {
	select {
	case err := <-s.ckptDone:
		s.checkpointAnswered(err)
	default:
	}
	s.resendCheckpoint()
	s.faultMu.Lock()
	logFault := s.logFault
	s.faultMu.Unlock()
	if logFault != nil {
		if err := s.log.probe(); err != nil {
			s.setLogFault(fmt.Errorf("boltstore: writing the log %s: %w", walPaths(s.path)[s.log.cur], err))
		} else {
			s.setLogFault(nil)
		}
	}
}

// checkpointLoop writes each frozen layer into the file and lets readers
// drop it.
func (s *Store) checkpointLoop() {
	defer close(s.ckptsDone)
	for l := range s.ckpts {
		err := s.checkpoint(l)
		if err == nil {
			s.mu.Lock()
			s.frozen = nil
			s.mu.Unlock()
		}
		s.ckptDone <- err
	}
}

// checkpoint writes l's entries and its last sequence number into the file
// in one bbolt commit.
func (s *Store) checkpoint(l *layer) error {
	if s.ckptHook != nil {
		if err := s.ckptHook(); err != nil {
			return err
		}
	}
	return s.db.Update(func(btx *bolt.Tx) error {
		meta, err := btx.CreateBucketIfNotExists(metaBucket)
		if err != nil {
			return err
		}
		for table, r := range l.tables {
			b, err := btx.CreateBucketIfNotExists([]byte(table))
			if err != nil {
				return err
			}
			b.FillPercent = fillPercent
			keys := r.sortedKeys() // in order: bbolt's cursor moves least
			enc, err := s.codec.encoder(meta, table, r, keys)
			if err != nil {
				return err
			}
			for _, k := range keys {
				if e := r.m[k]; e.del {
					err = b.Delete([]byte(k))
				} else {
					err = b.Put([]byte(k), enc.encode(e.v))
				}
				if err != nil {
					return err
				}
			}
		}
		return meta.Put(seqKey, binary.LittleEndian.AppendUint64(nil, l.last))
	})
}

// runOne runs one caller's function under an undo log.
func runOne(t *tx, r *request) (err error) {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("boltstore: panic in transaction: %v", p)
		}
		if err == nil {
			err = r.ctx.Err()
		}
		if err != nil {
			t.rollback()
		}
		t.done = true
	}()
	return r.fn(t)
}

// fillPercent is how full bbolt fills a page before it splits (its default
// is half). The engine's keys mostly grow (time-ordered ids, index entries
// by time), so a split page is never written to again: at half full every
// commit wrote about twice the pages and the file grew twice as fast. Each
// bucket handle is set as the transaction opens it.
const fillPercent = 0.9
