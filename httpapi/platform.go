package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// platformRoutes serve the platform configuration (/config) and the API
// tokens clients authenticate with (/tokens). Any token may read both; a
// change takes MANAGE. A token's secret is only in the answer to its
// creation (and that answer's idempotent replays): every read leaves it out.
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

// getConfig is GET /config: the platform configuration, 200.
func getConfig(r *request) (int, any, error) {
	cfg, err := r.eng.Platform.Config(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, cfg)
}

// patchConfig is PATCH /config: the members given change, the others stay;
// 200 with the new configuration, or INVALID_INPUT naming every bad member
// with nothing changed.
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

// createToken is POST /tokens: 201 with the new token and its secret. The
// calling token is the issuer: asking for a permission it lacks is
// FORBIDDEN, so no token can mint a stronger one.
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

// listTokens is GET /tokens, oldest first, filtered by name and the
// created/updated date-time bounds, paged by limit and cursor.
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

// getToken is GET /tokens/{tokenId}: the token without its secret, or
// TOKEN_NOT_FOUND.
func getToken(r *request) (int, any, error) {
	tok, err := r.eng.Platform.Token(r.ctx(), r.path("tokenId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tok)
}

// deleteToken is DELETE /tokens/{tokenId}: 204; the token stops working at
// once, TOKEN_NOT_FOUND when there is none.
func deleteToken(r *request) (int, any, error) {
	if err := r.eng.Platform.DeleteToken(r.ctx(), r.path("tokenId")); err != nil {
		return fail(err)
	}
	return noContent()
}
