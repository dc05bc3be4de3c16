package engine_test

import (
	"context"
	"time"
)

// ctx is the context of the tests' engine calls.
var ctx = context.Background()

// timeZero is where the tests' clocks start (enginetest.NewEnv's) and
// enginetest.SeedTx's series begins.
func timeZero() time.Time { return time.Time{} }
