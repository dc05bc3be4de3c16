package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// walletRoutes serve the Embedded Wallet Auth tag and the signed wallet
// actions on internal accounts (PATCH and export).
func walletRoutes() []route {
	return []route{
		{method: "POST", path: "/auth/credentials", perm: manage, fn: createCredential},
		{method: "GET", path: "/auth/credentials", fn: listCredentials},
		{method: "DELETE", path: "/auth/credentials/{id}", perm: manage, fn: revokeCredential},
		{method: "POST", path: "/auth/credentials/{id}/challenge", perm: manage, fn: challengeCredential},
		{method: "POST", path: "/auth/credentials/{id}/verify", perm: manage, fn: verifyCredential},
		{method: "GET", path: "/auth/sessions", fn: listSessions},
		{method: "DELETE", path: "/auth/sessions/{id}", perm: manage, fn: revokeSession},
		{method: "POST", path: "/auth/sessions/{id}/refresh", perm: manage, fn: refreshSession},
		{method: "POST", path: "/auth/delegated-keys", perm: manage, fn: createDelegatedKey},
		{method: "GET", path: "/auth/delegated-keys", fn: listDelegatedKeys},
		{method: "GET", path: "/auth/delegated-keys/{id}", fn: getDelegatedKey},
		{method: "DELETE", path: "/auth/delegated-keys/{id}", perm: manage, fn: revokeDelegatedKey},
		{method: "PATCH", path: "/internal-accounts/{id}", perm: manage, fn: updateInternalAccount},
		{method: "POST", path: "/internal-accounts/{id}/export", perm: manage, fn: exportWallet},
	}
}

// signature is the signed-retry headers of r: the stamp in the brand's
// wallet-signature header (Service-Wallet-Signature by default).
func (r *request) signature() payments.Signature {
	return payments.Signature{Stamp: r.Header.Get(r.h.brand.WalletSignatureHeader()), RequestID: r.Header.Get("Request-Id")}
}

// signedAnswer answers a signed flow: 202 with the challenge of a first
// leg, status with v once done.
func signedAnswer[T any](status int, v *T, ch *payments.SignedChallenge, err error) (int, any, error) {
	switch {
	case err != nil:
		return fail(err)
	case ch != nil:
		return ok(http.StatusAccepted, ch)
	case v == nil:
		return noContent()
	}
	return ok(status, v)
}

func createCredential(r *request) (int, any, error) {
	var in payments.CreateCredentialRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	m, ch, err := r.eng.Wallets.CreateCredential(r.ctx(), in, r.signature())
	return signedAnswer(http.StatusCreated, m, ch, err)
}

func listCredentials(r *request) (int, any, error) {
	cs, err := r.eng.Wallets.Credentials(r.ctx(), r.query().str("accountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": cs})
}

func revokeCredential(r *request) (int, any, error) {
	ch, err := r.eng.Wallets.RevokeCredential(r.ctx(), r.path("id"), r.signature())
	return signedAnswer[struct{}](0, nil, ch, err)
}

func challengeCredential(r *request) (int, any, error) {
	var in payments.ChallengeRequest
	if err := r.decodeOptional(&in); err != nil {
		return fail(err)
	}
	c, err := r.eng.Wallets.Challenge(r.ctx(), r.path("id"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

func verifyCredential(r *request) (int, any, error) {
	var in payments.VerifyRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	s, ch, err := r.eng.Wallets.Verify(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusOK, s, ch, err)
}

func listSessions(r *request) (int, any, error) {
	ss, err := r.eng.Wallets.Sessions(r.ctx(), r.query().str("accountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": ss})
}

func revokeSession(r *request) (int, any, error) {
	ch, err := r.eng.Wallets.RevokeSession(r.ctx(), r.path("id"), r.signature())
	return signedAnswer[struct{}](0, nil, ch, err)
}

func refreshSession(r *request) (int, any, error) {
	var in payments.RefreshRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	s, ch, err := r.eng.Wallets.RefreshSession(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusCreated, s, ch, err)
}

func createDelegatedKey(r *request) (int, any, error) {
	var in payments.CreateDelegatedKeyRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	k, ch, err := r.eng.Wallets.CreateDelegatedKey(r.ctx(), in, r.signature())
	return signedAnswer(http.StatusCreated, k, ch, err)
}

func listDelegatedKeys(r *request) (int, any, error) {
	q := r.query()
	ks, err := r.eng.Wallets.DelegatedKeys(r.ctx(), payments.DelegatedKeyFilter{AccountID: q.str("accountId"), FundingSourceID: q.str("fundingSourceId")})
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": ks})
}

func getDelegatedKey(r *request) (int, any, error) {
	k, err := r.eng.Wallets.DelegatedKey(r.ctx(), r.path("id"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, k)
}

func revokeDelegatedKey(r *request) (int, any, error) {
	if err := r.eng.Wallets.RevokeDelegatedKey(r.ctx(), r.path("id")); err != nil {
		return fail(err)
	}
	return noContent()
}

func updateInternalAccount(r *request) (int, any, error) {
	var in payments.UpdateInternalAccountRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a, ch, err := r.eng.Wallets.UpdateInternalAccount(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusOK, a, ch, err)
}

func exportWallet(r *request) (int, any, error) {
	var in payments.ExportRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	x, ch, err := r.eng.Wallets.Export(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusOK, x, ch, err)
}
