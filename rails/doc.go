// Package rails holds the contract between the payments engine and the
// rails that move money outside it: the Rail interface with its optional
// Puller, the Reporter rails report through, the payments and reports they
// exchange, and the external accounts a rail checks and pays out to. Its
// conformance suite is rails/railtest. The root package re-exports these
// names (payments.Rail, payments.Reporter, payments.RailReport, ...).
//
// # The contract
//
// The engine never calls Send, Pull or CheckAccount inside a store
// transaction. An operation that pays out writes an intent in its own
// transaction; after commit the engine hands the payment to Rail.Send
// (Puller.Pull for collections) and removes the intent once the rail took
// it. A rail error leaves the intent for the engine's rail worker, which
// retries with backoff and finally parks the payment in the dead letters,
// still PROCESSING: a payment the rail may have received is never failed by
// guesswork. Send and Pull are therefore called at least once per payment
// and must be idempotent on the payment's ID. A simulated rail that decides
// a payout's outcomes from the payment alone may implement Instant instead:
// its outcomes are applied in the transaction that makes the payment, with
// nothing handed over after commit.
//
// Outcomes flow back through one entry point, payments.Reporter: the
// Reporter given to Send, or Engine.Rails.Report from the rail's own
// webhook handler or poller. A report names the payment, an outcome
// (ACCEPTED, COMPLETED, FAILED, RETURNED), the rail's own reference for it
// and, optionally, the instant it takes effect. Each (payment, reference)
// applies once, so a rail may report again after a crash or a redelivery.
//
// # Writing an adapter
//
// Send submits the payment to the network, keyed by OutgoingPayment.ID,
// and returns nil once the network holds it (reporting ACCEPTED with the
// network's reference is optional). When the network later announces
// settlement, failure or a return, the adapter calls Engine.Rails.Report.
// See the package example for an adapter around a bank's HTTP API.
//
// # Conformance
//
// railtest.Run checks a rail against the contract: every report names the
// payment it was given, outcomes follow the lifecycle (nothing after a
// failure; a return only after completion), a payment handed over twice
// reports nothing new, a cancelled context returns promptly, and account
// checks leave the account untouched. The sandbox rail runs it, as do a
// deliberately slow and a deliberately failing rail in the engine's tests.
package rails
