// Package railside is the engine's side of the rail boundary: the payments
// handed to the rail after commit (SendPayment, IntendPull: an intent each,
// handed over at least once and keyed by the payment id), the outcomes the
// rail reports back (Rails.Report, each applied once per payment and
// reference), and the schedule of those that take effect later (due work,
// CatchUp, Drop). A rail that decides at once (rails.Instant) has its
// outcomes applied at the end of the paying transaction instead.
//
// It is part of the quotes area and sits below package quotes, which owns
// the payments themselves: quotes.Area registers this package's state,
// tables, intents and due work, and gives it the two functions through
// which an outcome reaches its payment (Options.Known, Options.Settle), so
// this package never imports quotes. Package quotes re-exports Rails
// (quotes.Rails), and so does the root (payments.Rails); its operations
// are named under the quotes area for an Observer ("quotes",
// "Rails.Report"), as they were before the split.
//
// Through the root facade, from a production rail's webhook:
//
//	err := eng.Rails.Report(ctx, payments.RailReport{PaymentID: id, Outcome: payments.RailCompleted})
package railside
