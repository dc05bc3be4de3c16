// Package httpapi serves the payments REST surface over a *payments.Engine as
// an http.Handler that the caller mounts anywhere. It holds no business rules:
// each handler decodes the request, makes one engine call and encodes the
// result; every error goes through one writer in the API's error body. Any
// decision about money, status or eligibility belongs to the engine's areas,
// so that an embedded program and an HTTP client get the same answers.
//
// # Mounting
//
// New builds the handler over an engine. It registers nothing globally: it
// builds its own http.ServeMux from the route table, so several handlers
// (over several engines, or under several base paths) can live in one
// process.
//
//	mux := http.NewServeMux()
//	mux.Handle("/2025-10-13/", httpapi.New(engine, httpapi.Config{BasePath: "/2025-10-13"}))
//
// Every route is registered under Config.BasePath, so the handler is
// mounted on that same prefix without http.StripPrefix. The other Config
// fields are optional: MaxBodyBytes (1 MiB) and MaxUploadBytes (10 MiB)
// cap request bodies, BodyReadTimeout (30 s) bounds reading one,
// MaxStringLength (DefaultMaxStringLength) caps every JSON string, Logger
// receives the request log, RequestLogSize (1000) sizes the in-memory log,
// TestClock lets the sandbox routes move time, and Brand puts another
// maker's name on the wire. A mounting server should still set
// http.Server's ReadHeaderTimeout, ReadTimeout and IdleTimeout; examples/server
// shows a complete one.
//
// # The route table and permissions
//
// The route table is one list per area, each in the file named after the
// area (routes.go joins them): platform.go (configuration and API tokens),
// customers.go with customers_verifications.go, customers_documents.go and
// customers_sca.go, accounts.go, quotes.go with quotes_lookups.go and
// quotes_invitations.go, cards.go, stablecoins.go, agents.go, wallets.go,
// and the sandbox_*.go files. A route names its method and path (net/http
// pattern syntax), the permission a write needs and the handler; flags mark
// the few routes that differ: uploads (multipart bodies up to
// MaxUploadBytes), keyed routes (an Idempotency-Key header is required),
// agent routes and the one public route.
//
// Platform routes authenticate with HTTP Basic and an API token
// ("clientId:clientSecret"); a missing or wrong one is 401 UNAUTHORIZED
// with a WWW-Authenticate challenge. Any valid token may read; writes need
// the permission the route names, else 403 FORBIDDEN naming it: MANAGE
// for what configures the platform and its customers (configuration,
// tokens, customers, accounts, cards, wallet credentials, sandbox control),
// TRANSACT for what moves money (quotes, transactions, transfers,
// invitations, mints and burns, agent approvals). The agent routes under /agents/me take the agent's own
// credential (Authorization: Bearer <accessToken>) and refuse platform
// credentials; redeeming a device code needs no credential at all.
//
// # The request pipeline
//
// Handler.ServeHTTP gives each request an id and logs it, then runs the
// matched route through the same steps, in this order, so that input is
// validated before any state is read:
//
//   - brand translation of the query string, when Config.Brand is set;
//   - authentication and the route's permission (401, 403);
//   - the body, read whole up to the route's limit (413 PAYLOAD_TOO_LARGE
//     above it) within BodyReadTimeout (400 INVALID_INPUT, and the
//     connection is closed, when it does not arrive in time);
//   - for JSON routes, the brand translation of the body and the strict
//     body checks (body.go): a non-empty body must be declared
//     application/json (415 UNSUPPORTED_MEDIA_TYPE), be one well-formed
//     JSON value, hold valid UTF-8 only, repeat no member of an object,
//     nest at most 64 levels and hold no string longer than
//     MaxStringLength; every finding is reported at once as an
//     INVALID_INPUT field error naming the member;
//   - the Idempotency-Key header (required on keyed routes);
//   - the handler, which decodes the body into the engine's request type
//     (member names match exactly: a name with its case changed is an
//     unknown member; unknown members are ignored, so clients of newer API
//     versions keep working; members of the wrong type are field errors; no
//     decoder message reaches the client) and makes one engine call.
//
// Every POST with an Idempotency-Key header runs on a handle from
// payments.Engine.WithIdempotency, scoped to the method and path (and to
// the agent, on agent routes) and fingerprinted by the body: the first
// answer is recorded in the operation's own transaction, a retry with the
// same key and body gets it again with the header Idempotent-Replayed:
// true, the same key with another body is 409 CONFLICT, and a key longer
// than payments.MaxIdempotencyKeyLength is 400 INVALID_INPUT. Only POSTs
// are keyed: other methods ignore the header.
//
// Signed wallet flows answer their first leg 202 with a SignedChallenge;
// the client retries the same call with a stamp over payloadToSign in the
// brand's wallet-signature header (Service-Wallet-Signature by default)
// and the challenge's requestId in Request-Id (wallets.go). That retry is
// another request, though its method, path and body are the same, so a
// request with the wallet-signature header is scoped apart: " signed " and
// its Request-Id are appended to the scope. A client may then reuse one
// Idempotency-Key across the legs: a repeat without the header replays the
// 202 challenge, the signed retry runs, and a repeat of the signed retry
// replays its answer (each leg of the three-leg delegated-key flow has its
// own requestId, so its own scope). A quote's signed execution has no
// Request-Id; its unsigned 401 WALLET_SIGNATURE_MISSING records nothing,
// so the stamped retry with the same key runs either way.
//
// # Errors
//
// Handlers return errors; one writer (errors.go) renders them all, those
// of the pipeline included, as the API's error body:
//
//	{"status": 400, "code": "INVALID_INPUT", "message": "...", "reason": "...",
//	 "details": {"errors": [{"field": "amount", "message": "..."}]}}
//
// The status comes from the one code-to-status table, payments.Code.Status,
// which the engine's areas fill and a root test checks for every code; no
// handler picks a status for an error. In broad strokes: 400 for INVALID_INPUT and
// the business refusals (INSUFFICIENT_FUNDS, QUOTE_EXPIRED, ...), 401 for
// UNAUTHORIZED and the wallet-signature codes, 403 FORBIDDEN, 404 for
// NOT_FOUND and the *_NOT_FOUND codes, 405 METHOD_NOT_ALLOWED, 409 for
// CONFLICT and the state refusals, 410 CUSTOMER_DELETED, 413
// PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 423 ACCOUNT_LOCKED, 429
// RATE_LIMITED (with Retry-After from details.retryAfterSeconds), 500 for
// INTERNAL_ERROR (any error without a code: its message is generic, its
// cause goes to the log), SERVICE_SWITCH_ERROR and any code missing from
// the table, 501 NOT_IMPLEMENTED and 503 SERVICE_UNAVAILABLE (with
// Retry-After when the store is unreachable: payments.ErrStoreUnavailable;
// a commit whose outcome is unknown is also logged at ERROR with its
// operation). A path no route serves is 404 NOT_FOUND, a known
// path on another method 405 with an Allow header, and a panicking handler
// 500 INTERNAL_ERROR.
//
// # Health and readiness
//
// Health and Ready return the liveness and readiness probes, for the
// mounting server to serve outside the base path (examples/server serves
// them at /healthz and /readyz). Health answers 200 while the process
// serves; Ready answers 503 while the store does not answer, the engine's
// workers are stopped, or the server is draining before shutdown.
//
// # The request log
//
// Every response carries X-Request-Id (RequestIDHeader): the client's own
// when well-formed, else a new one. Config.Logger gets one line per request
// (Error for 5xx), and LogHandler adds request_id to every line logged with
// the request's context, the engine's included. The handler also keeps the
// latest requests in memory (Config.RequestLogSize), read with
// Handler.Requests or GET /sandbox/requests (filtered by method, status or
// status class, path prefix and request id); they carry no secret and no
// body. GET /sandbox/requests/stream follows them as server-sent events
// (Handler.RequestStream mounts that stream behind another authentication);
// Handler.Close ends the streams when the server shuts down.
//
// # Metrics and traces
//
// When the engine has an Observer (payments.Config.Observer), each request
// is a unit of work for it (payments.WorkRequest) named by its route's
// pattern without the base path ("GET /quotes/{quoteId}", "" for a path no
// route serves), with its status and error code. It continues the trace of
// a traceparent header (TraceParentHeader), and the engine's operations
// run inside it. The handler imports no metrics or tracing library.
//
// # The sandbox routes
//
// Routes under /sandbox/ answer 403 FORBIDDEN unless the engine runs in
// sandbox mode (payments.Config.Sandbox). Some are the reference's own
// (funding an internal account, simulated sends and receipts, card network
// simulations, a test webhook); the rest are ours: the test clock
// (/sandbox/clock, which needs Config.TestClock, else 501 NOT_IMPLEMENTED),
// the state export, import and reset (/sandbox/state, /sandbox/reset), the
// webhook deliveries and their redelivery (/sandbox/webhooks), the
// request log (/sandbox/requests, and its stream /sandbox/requests/stream),
// events on demand (/sandbox/trigger, which needs a Config.TestClock that is
// also an EventTrigger, as sandbox.Controls is) and the ledger
// (/sandbox/ledger/accounts: every ledger account's balance per currency;
// /sandbox/ledger/entries?transactionId=: a record's journal), pages read
// from key ranges of the ledger's tables.
package httpapi
