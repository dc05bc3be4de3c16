package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// accountRoutes serve internal accounts, external accounts (customer and
// platform variants), ownership proofs, trusted beneficiaries, receiver
// lookups and the directories.
func accountRoutes() []route {
	rs := []route{
		{method: "GET", path: "/customers/internal-accounts", fn: listInternalAccounts(payments.CustomerScope)},
		{method: "GET", path: "/platform/internal-accounts", fn: listInternalAccounts(payments.PlatformScope)},
		{method: "POST", path: "/sandbox/internal-accounts/{accountId}/fund", perm: manage, fn: fundInternalAccount},
		{method: "POST", path: "/customers/external-accounts/{externalAccountId}/trust", perm: manage, fn: startTrust(true)},
		{method: "POST", path: "/customers/external-accounts/{externalAccountId}/trust/confirm", perm: manage, fn: confirmTrust(true)},
		{method: "POST", path: "/customers/external-accounts/{externalAccountId}/untrust", perm: manage, fn: startTrust(false)},
		{method: "POST", path: "/customers/external-accounts/{externalAccountId}/untrust/confirm", perm: manage, fn: confirmTrust(false)},
	}
	for _, side := range []struct {
		prefix string
		scope  payments.Scope
	}{{"/customers/external-accounts", payments.CustomerScope}, {"/platform/external-accounts", payments.PlatformScope}} {
		p := side.scope
		rs = append(rs,
			route{method: "POST", path: side.prefix, perm: manage, fn: createExternalAccount(p)},
			route{method: "GET", path: side.prefix, fn: listExternalAccounts(p)},
			route{method: "GET", path: side.prefix + "/{externalAccountId}", fn: getExternalAccount(p)},
			route{method: "DELETE", path: side.prefix + "/{externalAccountId}", perm: manage, fn: deleteExternalAccount(p)},
			route{method: "POST", path: side.prefix + "/{externalAccountId}/challenge", perm: manage, fn: ownershipChallenge(p)},
			route{method: "POST", path: side.prefix + "/{externalAccountId}/verify", perm: manage, fn: verifyOwnership(p)},
		)
	}
	return rs
}

func listInternalAccounts(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		q := r.query()
		f := payments.InternalAccountFilter{CustomerID: q.str("customerId"), Currency: q.str("currency"), Type: payments.AccountType(q.str("type"))}
		p := q.page(false)
		if err := q.err(); err != nil {
			return fail(err)
		}
		page, err := r.eng.Accounts.ListInternal(r.ctx(), f, scope, p)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, page)
	}
}

func fundInternalAccount(r *request) (int, any, error) {
	var in struct {
		Amount int64 `json:"amount"`
	}
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a, err := r.eng.Sandbox.Fund(r.ctx(), r.path("accountId"), in.Amount)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

func createExternalAccount(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		var in payments.ExternalAccountInput
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
		a, err := r.eng.Accounts.CreateExternal(r.ctx(), in, scope)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusCreated, a)
	}
}

func listExternalAccounts(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		q := r.query()
		f := payments.ExternalAccountFilter{CustomerID: q.str("customerId"), Currency: q.str("currency")}
		p := q.page(false)
		if err := q.err(); err != nil {
			return fail(err)
		}
		page, err := r.eng.Accounts.ListExternal(r.ctx(), f, scope, p)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, page)
	}
}

func getExternalAccount(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		a, err := r.eng.Accounts.External(r.ctx(), r.path("externalAccountId"), scope)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, a)
	}
}

func deleteExternalAccount(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		if err := r.eng.Accounts.DeleteExternal(r.ctx(), r.path("externalAccountId"), scope); err != nil {
			return fail(err)
		}
		return noContent()
	}
}

func ownershipChallenge(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		var in struct {
			Method string `json:"method"`
		}
		if len(r.body) > 0 {
			if err := r.decode(&in); err != nil {
				return fail(err)
			}
		}
		ch, err := r.eng.Accounts.CreateOwnershipChallenge(r.ctx(), r.path("externalAccountId"), scope, in.Method)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusCreated, ch)
	}
}

func verifyOwnership(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		var in struct {
			Signature       string `json:"signature"`
			SignatureScheme string `json:"signatureScheme"`
		}
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
		a, err := r.eng.Accounts.VerifyOwnership(r.ctx(), r.path("externalAccountId"), scope, in.Signature, in.SignatureScheme)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, a)
	}
}

func startTrust(trust bool) handlerFunc {
	return func(r *request) (int, any, error) {
		out, err := r.eng.Accounts.StartTrust(r.ctx(), r.path("externalAccountId"), trust)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, out)
	}
}

func confirmTrust(trust bool) handlerFunc {
	return func(r *request) (int, any, error) {
		var in struct {
			Code string `json:"code"`
		}
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
		out, err := r.eng.Accounts.ConfirmTrust(r.ctx(), r.path("externalAccountId"), trust, in.Code)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, out)
	}
}
