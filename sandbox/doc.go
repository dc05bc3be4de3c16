// Package sandbox provides what a test or a local sandbox needs around a
// payments.Engine: a controllable clock, and (as the engine grows) the sandbox
// Rail and KYCProvider driven by the spec's suffix rules and a ready-made
// in-memory engine.
//
//	clock := sandbox.NewClock(time.Time{})
//	eng, _ := payments.New(payments.Config{Store: memstore.New(), Now: clock.Now})
//	clock.Advance(5 * time.Minute) // quotes expire, lifecycles move on
package sandbox
