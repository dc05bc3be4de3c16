package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// accountRoutes serve internal accounts (read-only here: they open with
// their customer or currency, and wallets.go serves the embedded wallets'
// signed PATCH), the sandbox's funding of them, external accounts,
// ownership proofs of self-custody wallets and trusted beneficiaries.
//
// The reference serves the customers' and the platform's accounts under two
// prefixes, /customers/... and /platform/...; each handler is made for one
// scope (payments.Scope), and an id of the other scope is
// ACCOUNT_NOT_FOUND, so a platform account is never reached through a
// customer route nor the reverse. Lists are oldest first, paged by limit and
// cursor.
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

// listInternalAccounts serves GET /customers/internal-accounts and
// /platform/internal-accounts, with their balances, filtered by customerId,
// currency and type.
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

// fundInternalAccount is POST /sandbox/internal-accounts/{accountId}/fund
// with {"amount"} in minor units: 200 with the account and its new balance,
// and an INTERNAL_ACCOUNT.BALANCE_UPDATED webhook. Sandbox mode only.
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

// createExternalAccount serves POST on both external-account prefixes: 201
// with the account. INVALID_BANK_ACCOUNT for identifiers that fail their
// checks, DUPLICATE_EXTERNAL_ACCOUNT for one the owner already has. The rail
// checks the account before it is stored, so its beneficiary verification is
// in the answer.
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

// listExternalAccounts serves GET on both prefixes, filtered by customerId
// and currency.
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

// getExternalAccount serves GET .../{externalAccountId} of scope.
func getExternalAccount(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		a, err := r.eng.Accounts.External(r.ctx(), r.path("externalAccountId"), scope)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, a)
	}
}

// deleteExternalAccount serves DELETE .../{externalAccountId}: 204; a
// trusted beneficiary is BENEFICIARY_TRUSTED until it is untrusted.
func deleteExternalAccount(scope payments.Scope) handlerFunc {
	return func(r *request) (int, any, error) {
		if err := r.eng.Accounts.DeleteExternal(r.ctx(), r.path("externalAccountId"), scope); err != nil {
			return fail(err)
		}
		return noContent()
	}
}

// ownershipChallenge serves POST .../{externalAccountId}/challenge, with an
// optional {"method"} (WALLET_SIGNATURE by default, or LIVENESS): 201 with
// the message the wallet must sign, which names the account and a fresh
// nonce. CONFLICT for an account that needs no proof.
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

// verifyOwnership serves POST .../{externalAccountId}/verify with
// {"signature", "signatureScheme"}: 200 with the account ACTIVE. A bad
// signature is INVALID_INPUT and spends the challenge, so a wrong signature
// cannot be tried again on the same message.
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

// startTrust serves POST
// /customers/external-accounts/{externalAccountId}/trust and /untrust: 200
// with an SMS one-time code challenge, valid 5 minutes, that the .../confirm
// route completes. Customers outside SCA regions get CONFLICT.
func startTrust(trust bool) handlerFunc {
	return func(r *request) (int, any, error) {
		out, err := r.eng.Accounts.StartTrust(r.ctx(), r.path("externalAccountId"), trust)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusOK, out)
	}
}

// confirmTrust serves the .../trust/confirm and .../untrust/confirm routes
// with {"code"}: 200 once the beneficiary is trusted or untrusted; a wrong
// code is INVALID_INPUT and leaves the challenge open.
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
