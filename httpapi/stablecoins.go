package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/stablecoins"
)

// stablecoinRoutes serve provider-account links, registered stablecoins
// and their mints and burns. The four POSTs require an Idempotency-Key, as
// the reference marks them.
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

func getProviderAccount(r *request) (int, any, error) {
	a, err := r.eng.Stablecoins.ProviderAccount(r.ctx(), r.path("stablecoinProviderAccountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

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

func getStablecoin(r *request) (int, any, error) {
	c, err := r.eng.Stablecoins.Get(r.ctx(), r.path("stablecoinId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

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

// listStablecoinOperations lists newest first, as the reference says.
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

func getStablecoinOperation(r *request) (int, any, error) {
	op, err := r.eng.Stablecoins.Operation(r.ctx(), r.path("stablecoinOperationId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, op)
}
