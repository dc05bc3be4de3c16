//go:build !unix

package storetest

import "time"

// CPUTime cannot read the process's CPU time on this platform.
func CPUTime() (time.Duration, bool) { return 0, false }
