// Package sandbox provides what a test or a local sandbox needs around a
// payments.Engine: a controllable clock, and the sandbox KYC provider, rail,
// rate source, directory and card issuer, each steered by one table of the sandbox's suffix
// rules and test addresses. New assembles them into a ready-made in-memory
// engine:
//
//	eng, clock, err := sandbox.New()
//	if err != nil { ... }
//	defer eng.Close()
//	clock.Advance(6 * time.Minute) // quotes expire, payments settle
//	eng.ProcessDue(ctx)            // apply what is due, without sleeping
//
// New's rail is InstantRail: a payout's outcome, decided by its
// destination's suffix, is applied in the transaction that executes it,
// as nothing leaves the process. Rail decides the same outcomes and reports
// them through the hand-over after commit, as a network's adapter does; it
// is the one to embed in a rail of one's own.
//
// # Testing a service over HTTP
//
// NewServer starts the whole REST API in process for one test, with a
// seeded platform, an API token, a frozen Clock and a WebhookReceiver that
// verifies the platform's signed webhooks; servers share nothing, so
// parallel tests each run their own:
//
//	srv := sandbox.NewServer(t)
//	// call srv.BaseURL with srv.ClientID and srv.ClientSecret ...
//	srv.Controls.AdvanceBy(ctx, 6*time.Minute) // applies what falls due, delivers its webhooks
//	ev, ok := srv.Webhooks.Wait("OUTGOING_PAYMENT.COMPLETED", time.Second)
//
// # The clock
//
// A Clock stands frozen (NewClock) or follows real time with an offset
// (NewRealClock, the sandbox server's); Freeze and Resume switch between
// the two. Controls pair a clock with its engine: Controls.Advance stops
// the clock at each instant where work or a webhook delivery falls due on
// the way and applies it (payments.Sandbox.Advance), so everything
// happens in order. Controls implements httpapi.TestClock, which serves it
// under /sandbox/clock; Controls.Now and Controls.AdvanceBy are the plain
// functions a dashboard needs.
package sandbox
