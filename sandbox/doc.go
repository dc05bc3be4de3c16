// Package sandbox provides what a test or a local sandbox needs around a
// payments.Engine: a controllable clock, and the sandbox KYC provider, rail,
// rate source, directory and card issuer, each steered by one table of the spec's suffix
// rules and test addresses. New assembles them into a ready-made in-memory
// engine:
//
//	eng, clock, err := sandbox.New()
//	if err != nil { ... }
//	defer eng.Close()
//	clock.Advance(6 * time.Minute) // quotes expire, payments settle
//	eng.ProcessDue(ctx)            // apply what is due, without sleeping
package sandbox
