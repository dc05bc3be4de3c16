package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/stablecoins"
)

// stablecoinRoutes serve provider-account links, registered stablecoins
// and their mints and burns. The four POSTs require an Idempotency-Key, as
// the reference marks them (400 INVALID_INPUT naming the header without
// one): each asks the stablecoin provider to act, and the key is what lets a
// retry replay the first answer instead of asking it again. Linking and
// registering take MANAGE, minting and burning TRANSACT.
//
// The list filters with enumerated values (provider, status,
// issuanceStatus, serviceOperationsStatus, operationType) are checked here
// against the reference's values, every bad one reported at once. With a
// brand set, serviceOperationsStatus is sent under the brand's name and
// translated before it is read (Config.Brand).
func stablecoinRoutes() []route {
	return []route{
		{method: "POST", path: "/stablecoin-provider-accounts", perm: manage, keyed: true, fn: linkProviderAccount},
		{method: "GET", path: "/stablecoin-provider-accounts", fn: listProviderAccounts},
		{method: "GET", path: "/stablecoin-provider-accounts/{stablecoinProviderAccountId}", fn: getProviderAccount},
		{method: "POST", path: "/stablecoins", perm: manage, keyed: true, fn: registerStablecoin},
		{method: "GET", path: "/stablecoins", fn: listStablecoins},
		{method: "GET", path: "/stablecoins/{stablecoinId}", fn: getStablecoin},
		{method: "POST", path: "/stablecoins/{stablecoinId}/mints", perm: transact, keyed: true, fn: mintStablecoin},
		{method: "POST", path: "/stablecoins/{stablecoinId}/burns", perm: transact, keyed: true, fn: burnStablecoin},
		{method: "GET", path: "/stablecoins/{stablecoinId}/operations", fn: listStablecoinOperations},
		{method: "GET", path: "/stablecoin-operations/{stablecoinOperationId}", fn: getStablecoinOperation},
	}
}

// linkProviderAccount is POST /stablecoin-provider-accounts: the provider
// verifies the API credentials, 201 with the ACTIVE link. The secret is
// write-only: no answer carries it. STABLECOIN_VERIFICATION_FAILED for
// refused credentials, CONFLICT for an account linked already.
func linkProviderAccount(r *request) (int, any, error) {
	var in stablecoins.LinkRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a, err := r.eng.Stablecoins.LinkProviderAccount(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, a)
}

// listProviderAccounts is GET /stablecoin-provider-accounts, oldest first,
// filtered by provider and status (ACTIVE, INVALID, REVOKED).
func listProviderAccounts(r *request) (int, any, error) {
	q := r.query()
	f := payments.ProviderAccountFilter{Provider: q.str("provider"), Status: stablecoins.LinkStatus(q.str("status"))}
	if f.Provider != "" {
		q.fe.Enum("provider", f.Provider, stablecoins.ProviderBrale)
	}
	if f.Status != "" {
		q.fe.Enum("status", string(f.Status), string(stablecoins.LinkActive), string(stablecoins.LinkInvalid), string(stablecoins.LinkRevoked))
	}
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Stablecoins.ListProviderAccounts(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getProviderAccount is GET
// /stablecoin-provider-accounts/{stablecoinProviderAccountId}.
func getProviderAccount(r *request) (int, any, error) {
	a, err := r.eng.Stablecoins.ProviderAccount(r.ctx(), r.path("stablecoinProviderAccountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// registerStablecoin is POST /stablecoins: a token the linked provider
// account already issued, 201 with it NOT_ENABLED for the platform's own
// operations. STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED when several
// links could be meant.
func registerStablecoin(r *request) (int, any, error) {
	var in stablecoins.RegisterRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	c, err := r.eng.Stablecoins.Register(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, c)
}

// listStablecoins is GET /stablecoins, oldest first, filtered by
// issuanceStatus, serviceOperationsStatus and provider.
func listStablecoins(r *request) (int, any, error) {
	q := r.query()
	f := payments.StablecoinFilter{IssuanceStatus: stablecoins.IssuanceStatus(q.str("issuanceStatus")),
		ServiceOperationsStatus: stablecoins.OpsStatus(q.str("serviceOperationsStatus")), Provider: q.str("provider")}
	if f.IssuanceStatus != "" {
		q.fe.Enum("issuanceStatus", string(f.IssuanceStatus), "PENDING_REVIEW", "PROVISIONING", "PROVISIONED", "REJECTED", "FAILED")
	}
	if f.ServiceOperationsStatus != "" {
		q.fe.Enum("serviceOperationsStatus", string(f.ServiceOperationsStatus), "NOT_ENABLED", "PENDING_APPROVAL", "ENABLING", "ENABLED", "DISABLED")
	}
	if f.Provider != "" {
		q.fe.Enum("provider", f.Provider, stablecoins.ProviderBrale)
	}
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Stablecoins.List(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getStablecoin is GET /stablecoins/{stablecoinId}.
func getStablecoin(r *request) (int, any, error) {
	c, err := r.eng.Stablecoins.Get(r.ctx(), r.path("stablecoinId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

// mintStablecoin is POST /stablecoins/{stablecoinId}/mints: 201 with the
// mint, waiting in PENDING_FUNDING with wire instructions or funded by an
// ACH debit; its fiat value enters the token's reserve when it completes.
func mintStablecoin(r *request) (int, any, error) {
	var in stablecoins.MintRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	op, err := r.eng.Stablecoins.Mint(r.ctx(), r.path("stablecoinId"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, op)
}

// burnStablecoin is POST /stablecoins/{stablecoinId}/burns: 201 with the
// burn, its fiat value held from the reserve at once (INSUFFICIENT_FUNDS
// beyond what was minted) and paid out to the bank account when it
// completes.
func burnStablecoin(r *request) (int, any, error) {
	var in stablecoins.BurnRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	op, err := r.eng.Stablecoins.Burn(r.ctx(), r.path("stablecoinId"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, op)
}

// listStablecoinOperations is GET /stablecoins/{stablecoinId}/operations:
// its mints and burns (one kind with operationType), newest first as the
// reference says, paged by limit and cursor.
func listStablecoinOperations(r *request) (int, any, error) {
	q := r.query()
	typ := stablecoins.OpType(q.str("operationType"))
	if typ != "" {
		q.fe.Enum("operationType", string(typ), string(stablecoins.Mint), string(stablecoins.Burn))
	}
	p := q.page(true)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Stablecoins.ListOperations(r.ctx(), r.path("stablecoinId"), typ, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getStablecoinOperation is GET
// /stablecoin-operations/{stablecoinOperationId}: a mint or a burn as it
// stands.
func getStablecoinOperation(r *request) (int, any, error) {
	op, err := r.eng.Stablecoins.Operation(r.ctx(), r.path("stablecoinOperationId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, op)
}
