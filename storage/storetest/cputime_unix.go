//go:build unix

package storetest

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user and system) the process has used so
// far, and whether the platform could tell. Benchmarks take it before and
// after a measured run to report CPU per operation beside wall time: on a
// machine whose every processor is busy, CPU per operation is what bounds
// throughput.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
