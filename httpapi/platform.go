package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// platformRoutes serve the platform configuration and API tokens.
func platformRoutes() []route {
	return []route{
		{method: "GET", path: "/config", fn: getConfig},
		{method: "PATCH", path: "/config", perm: manage, fn: patchConfig},
		{method: "POST", path: "/tokens", perm: manage, fn: createToken},
		{method: "GET", path: "/tokens", fn: listTokens},
		{method: "GET", path: "/tokens/{tokenId}", fn: getToken},
		{method: "DELETE", path: "/tokens/{tokenId}", perm: manage, fn: deleteToken},
	}
}

func getConfig(r *request) (int, any, error) {
	cfg, err := r.eng.Platform.Config(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, cfg)
}

func patchConfig(r *request) (int, any, error) {
	var u payments.PlatformConfigUpdate
	if err := r.decode(&u); err != nil {
		return fail(err)
	}
	cfg, err := r.eng.Platform.UpdateConfig(r.ctx(), u)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, cfg)
}

func createToken(r *request) (int, any, error) {
	var req payments.CreateTokenRequest
	if err := r.decode(&req); err != nil {
		return fail(err)
	}
	req.Issuer = r.token
	tok, err := r.eng.Platform.CreateToken(r.ctx(), req)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, tok)
}

func listTokens(r *request) (int, any, error) {
	q := r.query()
	f := payments.TokenFilter{
		Name:         q.str("name"),
		CreatedAfter: q.time("createdAfter"), CreatedBefore: q.time("createdBefore"),
		UpdatedAfter: q.time("updatedAfter"), UpdatedBefore: q.time("updatedBefore"),
	}
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Platform.ListTokens(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

func getToken(r *request) (int, any, error) {
	tok, err := r.eng.Platform.Token(r.ctx(), r.path("tokenId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tok)
}

func deleteToken(r *request) (int, any, error) {
	if err := r.eng.Platform.DeleteToken(r.ctx(), r.path("tokenId")); err != nil {
		return fail(err)
	}
	return noContent()
}
