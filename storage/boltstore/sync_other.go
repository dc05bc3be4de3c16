//go:build !linux

package boltstore

import "os"

// fdatasync is File.Sync where the system has no fdatasync.
func fdatasync(f *os.File) error { return f.Sync() }

// syncDir does nothing off Linux (Windows cannot sync a directory through
// a handle): there a new log file's name is as durable as the file system
// makes it on its own.
func syncDir(string) error { return nil }

// unlock does nothing off Linux: there a file bbolt panicked on stays
// locked until the process exits (Open still returns the error).
func unlock(*os.File) {}
