// Package wirecheck checks HTTP exchanges against the public OpenAPI
// reference (../shared/reference/openapi.yaml beside the repository), adapted
// to this project by the renames and additions below, each a deliberate
// deviation listed in Deviations.
//
// TEST-ONLY: import this package from _test.go files only. It links
// github.com/getkin/kin-openapi, which must never reach the binaries of the
// library's users; a non-test import would put it there.
//
// Typical use in an HTTP-layer test:
//
//	wc := wirecheck.Load(t)                  // nil when the reference is absent
//	client := wc.Client(t, handler)          // in-process; checks every exchange
//	resp, err := client.Get("/2025-10-13/config")
//
// or, against an httptest.Server:
//
//	client := &http.Client{Transport: wirecheck.Load(t).Transport(t, srv.Client().Transport)}
//
// Problems are reported with t.Errorf (the test fails, the response still
// reaches it unchanged). See [Checker.Check] for what is checked and [Skip]
// and [SkipRequest] for opting a request out.
//
// Every method works on a nil *Checker and then checks nothing, so tests run
// (without the wire check) where the reference is not available.
//
// # Adaptations of the reference
//
// Before parsing, the YAML text gets the maker's name renamed to the
// neutral word (Grid-Wallet-Signature, X-Grid-Signature, GRID_SWITCH_ERROR,
// CLOSED_BY_GRID, GRID_INTERNAL_ACCOUNT, the two stablecoin codes, and the
// gridApi…/gridOperationsStatus fields). After parsing, the document is
// changed so that:
//
//   - its servers are dropped (the checker strips the base path itself, see
//     [Checker.WithBasePath]), so routes match whatever prefix a test uses;
//   - every error schema (components.schemas.ErrorNNN) declares and requires
//     the string property reason (the deviation error-reason; Check also
//     requires it to equal message), and its code enum also holds the codes
//     this API sends for that status and the reference lacks (specErrorCodes);
//   - POST /sandbox/receive exists as an alias of POST /sandbox/uma/receive
//     (sandbox-receive-alias), and the platform config carries
//     skipVerificationPaperwork (skip-verification-paperwork).
//
// # OpenAPI 3.1
//
// kin-openapi v0.152.0 parses every 3.1 construct the reference uses (type
// arrays with "null", enums holding null, numeric exclusiveMinimum, schema
// examples arrays, unevaluatedProperties, webhooks) and checks values
// against them: with its JSON Schema 2020-12 validator for schemas that use
// 2020-12-only keywords, with its built-in validator (which understands type
// arrays and numeric bounds) for the others. The self-tests exercise each of
// these. Workarounds, all in the loader:
//
//   - Document validation runs with [openapi3.DisableExamplesValidation]:
//     some of the reference's own examples break their schemas (readOnly
//     properties in webhook request examples, for instance), which would
//     stop the router from being built. Examples play no part in checking
//     traffic.
//   - Servers are dropped (see above): the reference's server URL has a
//     /grid/2025-10-13 path that our routes do not carry.
//   - The /sandbox/receive alias gets copies of its operations with the
//     suffix "SpecAlias" on their operationId, which must stay unique.
package wirecheck
