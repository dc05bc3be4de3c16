//go:build !linux

package boltstore

import "os"

// fdatasync is File.Sync where the system has no fdatasync.
func fdatasync(f *os.File) error { return f.Sync() }
