package boltstore

import (
	"os"
	"syscall"
)

// fdatasync flushes f's data and only the metadata needed to read it back.
func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }

// syncDir makes the names in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// unlock releases bbolt's lock on f. Closing f alone does not: bbolt's
// mapping of the file holds the open file, and with it the lock.
func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
