package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// walletRoutes serve the Embedded Wallet Auth tag and the signed wallet
// actions on internal accounts (PATCH and export).
//
// Most writes here are signed flows (package wallets, "Signed flows"): the
// first call, without a signature, answers 202 with a SignedChallenge
// (payloadToSign, requestId, expiresAt); the client repeats the same call,
// same body, with a stamp over payloadToSign, made by a session key of the
// wallet, in the brand's wallet-signature header (Service-Wallet-Signature
// by default) and the challenge's requestId in the Request-Id header. The
// retry answers as the route says (201, 200 or 204); a bad one is 401 with
// the signed-retry codes (REQUEST_ID_MISSING, WALLET_SIGNATURE_MISSING,
// WALLET_SIGNATURE_MALFORMED, WALLET_SIGNATURE_BODY_MISMATCH,
// WALLET_SIGNATURE_INVALID). A challenge is consumed by its retry and
// cannot be replayed. Request-Id is the reference's challenge id, not the
// request log's X-Request-Id.
//
// The lists here are not paged: a wallet has few credentials, sessions and
// keys, and the reference answers them whole as {"data": [...]}.
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

// signedScope is what a signed retry adds to its idempotency scope. A
// request with the wallet-signature header is another request than the
// call that asked for its challenge, though it repeats the same method,
// path and body, and clients may repeat its Idempotency-Key too: on the
// call's scope it would replay the 202 challenge and never run. With
// " signed <Request-Id>" appended, a repeat without the header replays the
// challenge, the signed retry runs, and a repeat of the signed retry
// replays its answer. Each leg of a three-leg flow (delegated keys) has
// its own requestId, so its own scope; a quote's signed execution has no
// Request-Id and gains " signed ". A Request-Id alone changes nothing: some
// HTTP clients send one on every request, and only a stamped request is a
// signed retry (a passkey verification's Request-Id names its challenge
// on its only leg).
func (h *Handler) signedScope(hr *http.Request) string {
	if hr.Header.Get(h.brand.WalletSignatureHeader()) == "" {
		return ""
	}
	return " signed " + hr.Header.Get("Request-Id")
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

// createCredential is POST /auth/credentials: 201 with the credential. A
// wallet's first credential registers at once; any further one is a signed
// flow (202 first).
func createCredential(r *request) (int, any, error) {
	var in payments.CreateCredentialRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	m, ch, err := r.eng.Wallets.CreateCredential(r.ctx(), in, r.signature())
	return signedAnswer(http.StatusCreated, m, ch, err)
}

// listCredentials is GET /auth/credentials?accountId=...: the wallet's
// credentials, oldest first; an unknown account has none.
func listCredentials(r *request) (int, any, error) {
	cs, err := r.eng.Wallets.Credentials(r.ctx(), r.query().str("accountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": cs})
}

// revokeCredential is DELETE /auth/credentials/{id}, a signed flow a session
// of another credential signs: 202, then 204 once revoked with its sessions.
// The last credential cannot be revoked (INVALID_INPUT).
func revokeCredential(r *request) (int, any, error) {
	ch, err := r.eng.Wallets.RevokeCredential(r.ctx(), r.path("id"), r.signature())
	return signedAnswer[struct{}](0, nil, ch, err)
}

// challengeCredential is POST /auth/credentials/{id}/challenge: 200 with a
// new OTP code's target or a passkey's session payload. Not signed: it
// proves nothing yet. RATE_LIMITED, with Retry-After, while the credential
// is locked or challenged too often.
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

// verifyCredential is POST /auth/credentials/{id}/verify: 200 with a new
// session. An OTP verification has two legs: the sealed code answers 202
// with a challenge that the client's new key signs, and the signed retry
// opens the session.
func verifyCredential(r *request) (int, any, error) {
	var in payments.VerifyRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	s, ch, err := r.eng.Wallets.Verify(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusOK, s, ch, err)
}

// listSessions is GET /auth/sessions?accountId=...: the wallet's active
// sessions.
func listSessions(r *request) (int, any, error) {
	ss, err := r.eng.Wallets.Sessions(r.ctx(), r.query().str("accountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": ss})
}

// revokeSession is DELETE /auth/sessions/{id}, a signed flow any active
// session of the wallet signs: 202, then 204.
func revokeSession(r *request) (int, any, error) {
	ch, err := r.eng.Wallets.RevokeSession(r.ctx(), r.path("id"), r.signature())
	return signedAnswer[struct{}](0, nil, ch, err)
}

// refreshSession is POST /auth/sessions/{id}/refresh, signed by the session
// being refreshed: 202, then 201 with a new session for clientPublicKey; the
// old one stays until it expires or is revoked.
func refreshSession(r *request) (int, any, error) {
	var in payments.RefreshRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	s, ch, err := r.eng.Wallets.RefreshSession(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusCreated, s, ch, err)
}

// createDelegatedKey is POST /auth/delegated-keys, a three-leg signed flow:
// each leg repeats the same body and answers 202 with the next challenge,
// the last 201 with the ACTIVE key.
func createDelegatedKey(r *request) (int, any, error) {
	var in payments.CreateDelegatedKeyRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	k, ch, err := r.eng.Wallets.CreateDelegatedKey(r.ctx(), in, r.signature())
	return signedAnswer(http.StatusCreated, k, ch, err)
}

// listDelegatedKeys is GET /auth/delegated-keys, of any status, of a wallet
// (accountId) and/or a funding source (fundingSourceId); one of them is
// required.
func listDelegatedKeys(r *request) (int, any, error) {
	q := r.query()
	ks, err := r.eng.Wallets.DelegatedKeys(r.ctx(), payments.DelegatedKeyFilter{AccountID: q.str("accountId"), FundingSourceID: q.str("fundingSourceId")})
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": ks})
}

// getDelegatedKey is GET /auth/delegated-keys/{id}.
func getDelegatedKey(r *request) (int, any, error) {
	k, err := r.eng.Wallets.DelegatedKey(r.ctx(), r.path("id"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, k)
}

// revokeDelegatedKey is DELETE /auth/delegated-keys/{id}: 204. Not signed:
// the service signs its own removal, and the private key is erased with it.
func revokeDelegatedKey(r *request) (int, any, error) {
	if err := r.eng.Wallets.RevokeDelegatedKey(r.ctx(), r.path("id")); err != nil {
		return fail(err)
	}
	return noContent()
}

// updateInternalAccount is PATCH /internal-accounts/{id}: an embedded
// wallet's privacy setting, a signed flow: 202, then 200 with the account.
func updateInternalAccount(r *request) (int, any, error) {
	var in payments.UpdateInternalAccountRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a, ch, err := r.eng.Wallets.UpdateInternalAccount(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusOK, a, ch, err)
}

// exportWallet is POST /internal-accounts/{id}/export, a signed flow: 202,
// then 200 with the wallet's secret sealed (HPKE) to the client's
// clientPublicKey.
func exportWallet(r *request) (int, any, error) {
	var in payments.ExportRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	x, ch, err := r.eng.Wallets.Export(r.ctx(), r.path("id"), in, r.signature())
	return signedAnswer(http.StatusOK, x, ch, err)
}
