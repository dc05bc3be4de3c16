package boltstore

import (
	"os"
)

// fileSystem is the file layer the log is written through: the operating
// system's (osFS) in use, a recording or failing one in tests (power-cut
// simulation, a full disk).
type fileSystem interface {
	// OpenFile opens name as os.OpenFile does.
	OpenFile(name string, flag int, perm os.FileMode) (walFile, error)
	// ReadFile reads name whole, as os.ReadFile does.
	ReadFile(name string) ([]byte, error)
	// Remove deletes name.
	Remove(name string) error
	// SyncDir makes the names in dir durable.
	SyncDir(dir string) error
}

// walFile is an open log file.
type walFile interface {
	WriteAt(b []byte, off int64) (int, error)
	Truncate(size int64) error
	// Sync flushes the file's data and metadata; Datasync its data and
	// only the metadata needed to read it back.
	Sync() error
	Datasync() error
	Close() error
}

// osFS is the operating system's file layer.
type osFS struct{}

func (osFS) OpenFile(name string, flag int, perm os.FileMode) (walFile, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (osFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }
func (osFS) Remove(name string) error             { return os.Remove(name) }
func (osFS) SyncDir(dir string) error             { return syncDir(dir) }

// osFile is an *os.File with Datasync.
type osFile struct{ *os.File }

func (f osFile) Datasync() error { return fdatasync(f.File) }
