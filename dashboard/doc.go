// Package dashboard is a server-rendered operator UI over a payments
// engine: customers with their KYC state, internal accounts and balances,
// external accounts, quotes and transactions with their events in order,
// webhook deliveries (attempts, status, next retry, a Resend button that
// then says what happened), dead-lettered work, the ledger (every ledger
// account's balance, a transaction's journal), the API's latest requests
// (Options.Requests, followed live with Options.RequestStream), and the
// clock with its state and buttons to advance, freeze and resume it (in
// every page's header). Customers, accounts, transactions and the ledger
// link to each other.
//
// It is a package of its own, beside package httpapi, because it is a
// different surface with different rules: httpapi serves the reference's
// REST API and nothing else (every exchange is checked against the
// reference), while the dashboard serves HTML pages for a person, with
// sessions, forms and CSRF protection. Both read the engine only through
// its public methods.
//
// The pages are plain HTML rendered by html/template from templates
// embedded in the binary, with one embedded stylesheet and one small
// script (requests.js: the request log's live rows, read from the
// dashboard's requests/stream): no build step, no external assets. On a
// narrow screen the header and the navigation wrap, wide tables scroll
// inside their box, and ids never wrap mid-word.
//
// # Access
//
// Every page takes the platform's API credentials: HTTP Basic with the
// token's client id and secret, as the REST API takes them. A browser can
// instead open a one-time login link (Dashboard.LoginLink, which the
// sandbox server prints at start): it sets a session cookie and is spent.
// Moving the clock and sending a webhook again need a token with the
// MANAGE permission (or a session). Every POST must come from the
// dashboard's own pages: it carries a token bound to the caller, and the
// standard library's cross-origin protection (http.CrossOriginProtection:
// Sec-Fetch-Site, else Origin against Host) refuses what a browser sent
// from another origin. The pages' Referrer-Policy (no-referrer) makes
// browsers send "Origin: null" with their forms, so Origin alone is not
// what decides.
//
// # Mounting
//
//	d := dashboard.New(dashboard.Options{Engine: eng})
//	mux := http.NewServeMux()
//	mux.Handle("/dashboard/", d)
//	mux.Handle("/", httpapi.New(eng, httpapi.Config{}))
//	fmt.Println("log in at", baseURL+d.LoginLink())
//
// The history of delivered events, and of those not sent because no
// webhook endpoint was configured (NOT_SENT, with the reason), shown on
// the quote, transaction and webhook pages, is kept only by an engine with payments.Config.EventHistory set (see
// payments.Webhooks.ListDeliveries); without it the pages show the events
// still waiting and those given up.
package dashboard
