// Package crashtest holds the crash loop of the payments engine: a sandbox
// server on boltstore runs in a child process, the test sends it concurrent
// POSTs with idempotency keys, kills it with SIGKILL at random moments and
// restarts it on the same database file, again and again.
//
// After every restart each request that was in flight is retried with its
// key and body, and a sample of acknowledged ones is sent again. The
// idempotency contract (ARCHITECTURE.md, "How one operation runs")
// says what must come back: an acknowledged request replays its first answer
// byte for byte with Idempotent-Replayed: true; an in-flight one replays the
// answer it committed, or runs now if it never committed. No acknowledged
// write may be lost, no money may move twice, and payments.CheckLedger must
// pass on the file the killed process left.
//
// Everything lives in the package's tests (crashtest_test.go and its
// helpers); go test ./... runs it, testing.Short skips it. The child is the
// test binary itself, re-executed with -test.run=^TestCrashChild$ and the
// environment variable CRASHTEST_CHILD_DB naming the database. Under -race
// the child is therefore race-instrumented too: slower (about 20 s instead
// of 7 s for 50 healthy rounds on two cores) but it needs no toolchain at
// run time, no second build of every dependency without -race, and it
// reports data races of the engine under concurrent load, which the parent
// turns into failures.
//
// Settings (environment): CRASHTEST_ROUNDS is the number of kill/restart
// rounds (default 50 when CI=true, 10 otherwise; .ci/run sets 50);
// CRASHTEST_SEED fixes the random choices of workload and kill delays (the
// interleaving of the workers stays up to the scheduler). The loop stops by
// itself after three rounds that broke the contract.
package crashtest
