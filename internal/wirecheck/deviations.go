package wirecheck

// Deviation is one deliberate difference between what the server sends
// and the public reference, which the checker accepts. ID is the key the
// README's "Deliberate deviations from the reference" section lists it
// under (a test keeps the two in step).
type Deviation struct {
	ID   string
	What string
	Why  string
}

// Deviations is the one list of the differences from the reference that
// remain on purpose. The checker's adaptations (load.go: adapt,
// adaptErrorSchemas, specErrorCodes; check.go: genericStatus) implement
// exactly these; add an entry here and to the README before accepting
// anything else.
var Deviations = []Deviation{
	{"error-reason", "Every error body also carries reason, equal to message.",
		"This API's error body names the message reason; sending both serves clients of either."},
	{"spec-error-codes", "Error codes of this API that the reference's ErrorNNN enums lack (specErrorCodes) are sent.",
		"This API's code wins where it is more precise (CUSTOMER_NOT_FOUND rather than NOT_FOUND, for instance)."},
	{"generic-error-statuses", "Any operation may answer 400, 401, 403, 404, 405, 409, 410, 413, 415, 423, 429, 500, 501 or 503 with the error body, also where the reference lists fewer statuses (genericStatus), e.g. 400 from GET /uma-providers for a bad limit.",
		"Validation, authentication, idempotency and limits apply to every operation alike; the reference lists only some of them per operation."},
	{"unsupported-media-type", "A request body not sent as application/json is refused with 415 UNSUPPORTED_MEDIA_TYPE.",
		"The reference states no media-type rule; accepting text/plain or untyped bodies lets browsers post cross-site without a preflight."},
	{"paged-discoveries", "GET /discoveries takes limit, cursor and sortOrder and answers hasMore, nextCursor and totalCount.",
		"Every list is paged alike (issue 16); the extra members are optional for clients."},
	{"sandbox-receive-alias", "POST /sandbox/receive is served as an alias of POST /sandbox/uma/receive.",
		"The name this API gave it first; clients of either work."},
	{"skip-verification-paperwork", "The platform config carries skipVerificationPaperwork.",
		"A setting of this API: the sandbox decides KYC at creation, without documents."},
	{"crypto-rails", "GET /exchange-rates asked for a crypto destinationCurrency by name reports destinationPaymentRail LIGHTNING, SOLANA or SPARK.",
		"The reference's PaymentRail names no crypto network; the unfiltered list holds only fiat corridors, which conform."},
	{"string-caps", "Strings the reference leaves unbounded are capped: address members at 255 characters, every other JSON string at 4096 (httpapi.DefaultMaxStringLength).",
		"No member may carry a body-sized value (issue 16, item 18)."},
	{"committed-answers", "Executing a quote (execute, immediatelyExecute, /sandbox/send, /transfer-out) answers the committed state, PROCESSING (a transfer in: PENDING), where the reference's docs show an instant rail answering COMPLETED.",
		"The payment is handed to the rail after commit; answering what committed keeps an idempotent replay byte-identical. The sandbox rail reports before the call returns, so a GET right after shows COMPLETED."},
	{"card-limit-409", "POST /cards answers 409 CARD_LIMIT_REACHED beyond the live-card limits.",
		"This API's code for the limit; the reference lists no 409 for the operation."},
	{"closed-card-not-mutable", "Any change to a CLOSED card is 409 CARD_NOT_MUTABLE, un-freezing included.",
		"A closed card is final; the reference's example answers INVALID_STATE_TRANSITION for un-freezing a closed card."},
	{"wallet-export-secret", "POST /internal-accounts/{id}/export seals the wallet's 32-byte secret, where the reference's plaintext is a mnemonic.",
		"The engine holds no BIP-39 word list; the sealed envelope, suite and info string are the reference's."},
}
