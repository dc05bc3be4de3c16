package wallets

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/walletauth"
)

// One signed-retry mechanism serves every signed flow: the first call, without headers, stores a pending
// request binding the operation, its target and its body, and answers 202
// with payloadToSign, requestId and expiresAt; the retry repeats the call
// with the stamp over payloadToSign (Service-Wallet-Signature) and the
// requestId (Request-Id). The retry is checked in this order, each failure
// a 401 and nothing changes: REQUEST_ID_MISSING (a stamp without
// Request-Id), WALLET_SIGNATURE_MISSING (a Request-Id without stamp),
// UNAUTHORIZED (no unexpired pending request of this operation and target
// has that id), WALLET_SIGNATURE_BODY_MISMATCH (the body differs from the
// bound one), WALLET_SIGNATURE_MALFORMED (the stamp does not parse),
// WALLET_SIGNATURE_INVALID (the signature does not verify over the payload,
// or its key is not the required signer: an active session of the wallet,
// or the key the flow names). A consumed request cannot be replayed.

// Signature is the signed-retry headers of a request; the zero Signature
// asks for the challenge.
type Signature struct {
	Stamp     string // Service-Wallet-Signature
	RequestID string // Request-Id
}

// leg tells the legs of a signed flow apart in an operation's idempotency
// fingerprint: "" for a call without a stamp (the one that asks for the
// challenge, or a passkey login, whose Request-Id names its challenge);
// otherwise the Request-Id of the signed retry. A signed retry is another
// request than the call that asked for its challenge, though its body is
// the same, so a caller that reuses one idempotency key across the legs
// gives each leg its own Idempotency.Scope, as the HTTP layer does
// (httpapi appends " signed <Request-Id>"); on one Scope the signed leg is
// CONFLICT, never a replay of the challenge. The stamp itself is left
// out: a stamp made again over the same payload differs, and is the same
// request.
func (s Signature) leg() string {
	if s.Stamp == "" {
		return ""
	}
	return "signed " + s.RequestID
}

// signedAnswer is the answer a signed flow's operation records
// and returns: the challenge of a leg that asks for a signature, or the
// result once done (nil for an operation without one). Both halves are one
// record, so a replayed leg answers exactly as it first did.
type signedAnswer[T any] struct {
	Result    *T               `json:"result,omitempty"`
	Challenge *SignedChallenge `json:"challenge,omitempty"`
}

// SignedChallenge is the 202 answer of a signed flow's first leg (reference
// SignedRequestChallenge; Type is set on the Embedded Wallet Auth routes).
type SignedChallenge struct {
	Type          string    `json:"type,omitempty"`
	PayloadToSign string    `json:"payloadToSign"`
	RequestID     string    `json:"requestId"`
	ExpiresAt     time.Time `json:"expiresAt"`
}

// pendingRequest is an issued challenge waiting for its signed retry,
// keyed by its "Request:" id. It is deleted when a retry consumes it; an
// expired one is refused by its ExpiresAt and stays stored.
type pendingRequest struct {
	ID        string    `json:"id"`
	Op        string    `json:"op"`
	Target    string    `json:"target"`
	AccountID string    `json:"accountId"`
	BodyHash  string    `json:"bodyHash"`
	Payload   string    `json:"payload"`
	Type      string    `json:"type,omitempty"`
	ExpiresAt time.Time `json:"expiresAt"`
	// Signer, when set, is the one key that may sign (an OTP login's TEK);
	// otherwise any active session of the wallet but those of Exclude.
	Signer  string `json:"signer,omitempty"`
	Exclude string `json:"exclude,omitempty"`
	// Data carries what a later leg needs (a passkey login's client key).
	Data map[string]string `json:"data,omitempty"`
}

// signedOp describes one signed flow's request: op and target name what
// the pending request may be consumed for, accountID the wallet whose
// sessions may sign, and activity and params the payloadToSign.
type signedOp struct {
	op, target, accountID string
	body                  any    // the request as bound into the payload
	activity              string // ACTIVITY_TYPE_ suffix
	params                map[string]any
	typ                   string // the challenge's type member
	signer, exclude       string
	data                  map[string]string
}

// signed runs the signed-retry step of op inside t. Without headers it
// stores the pending request and returns its challenge; with both it
// checks the retry and consumes the request, returning it. Consuming it
// in the caller's transaction is what makes a signature single-use: of
// two concurrent retries the store commits one, and the other finds the
// request gone (UNAUTHORIZED).
func signed(t *engine.Txn, sig Signature, op signedOp) (*SignedChallenge, *pendingRequest, error) {
	switch {
	case sig.Stamp == "" && sig.RequestID == "":
		return challenge(t, op)
	case sig.RequestID == "":
		return nil, nil, engine.Errorf(CodeRequestIDMissing, "the signed retry needs the Request-Id header with the requestId of the 202 answer")
	case sig.Stamp == "":
		return nil, nil, engine.Errorf(engine.CodeWalletSignatureMissing, "the signed retry needs the Service-Wallet-Signature header")
	}
	var p pendingRequest
	if err := engine.GetJSON(t, tableWalletRequests, sig.RequestID, &p); err != nil || p.Op != op.op || p.Target != op.target || !t.Now.Before(p.ExpiresAt) {
		return nil, nil, engine.Errorf(engine.CodeUnauthorized, "Request-Id %q does not match an unexpired pending request of this operation", sig.RequestID)
	}
	if p.BodyHash != bodyHash(op) {
		return nil, nil, engine.Errorf(CodeWalletSignatureBodyMismatch, "the retry's body differs from the one payloadToSign was issued for")
	}
	if err := checkStamp(t, sig.Stamp, p.Payload, p.AccountID, p.Signer, p.Exclude); err != nil {
		return nil, nil, err
	}
	return nil, &p, t.Delete(tableWalletRequests, p.ID)
}

// challenge stores op's pending request and returns its challenge, valid
// for SignedRequestTTL from t.Now.
func challenge(t *engine.Txn, op signedOp) (*SignedChallenge, *pendingRequest, error) {
	if op.params == nil {
		op.params = map[string]any{}
	}
	p := &pendingRequest{ID: t.NewID("Request"), Op: op.op, Target: op.target, AccountID: op.accountID, BodyHash: bodyHash(op),
		Payload: activity(op.accountID, op.activity, op.params, t.Now), Type: op.typ, ExpiresAt: t.Now.Add(SignedRequestTTL),
		Signer: op.signer, Exclude: op.exclude, Data: op.data}
	if err := engine.PutJSON(t, tableWalletRequests, p.ID, p); err != nil {
		return nil, nil, err
	}
	return &SignedChallenge{Type: p.Type, PayloadToSign: p.Payload, RequestID: p.ID, ExpiresAt: p.ExpiresAt}, nil, nil
}

// bodyHash fingerprints what a signed retry must repeat: the operation,
// its target and its body (as JSON, so field order in the client's body
// does not matter, only its decoded values).
func bodyHash(op signedOp) string {
	return walletauth.Digest(mustJSON([]any{op.op, op.target, op.body}))
}

// checkStamp verifies a stamp over payload: signed by signer when set,
// otherwise by an active session of wallet accountID that does not belong
// to credential exclude. The sandbox still accepts the legacy literal.
func checkStamp(t *engine.Txn, stamp, payload, accountID, signer, exclude string) error {
	if stamp == LegacyWalletSignature && t.Handle.Config.Sandbox {
		return nil
	}
	s, err := walletauth.ParseStamp(stamp)
	if err != nil {
		return engine.Errorf(CodeWalletSignatureMalformed, "the Service-Wallet-Signature header is not an API-key stamp (base64url JSON of publicKey, scheme %s, signature)", walletauth.StampScheme)
	}
	if err := s.Verify([]byte(payload)); err != nil {
		return engine.Errorf(CodeWalletSignatureInvalid, "the wallet signature does not verify over payloadToSign")
	}
	if signer != "" {
		if s.PublicKey != signer {
			return engine.Errorf(CodeWalletSignatureInvalid, "the wallet signature was not made with the key this request was issued for")
		}
		return nil
	}
	sessions, err := sessions(t, accountID)
	if err != nil {
		return err
	}
	for _, se := range sessions {
		if se.PublicKey == s.PublicKey && se.AuthMethodID != exclude {
			return nil
		}
	}
	if exclude != "" {
		return engine.Errorf(CodeWalletSignatureInvalid, "the signing key is not an active session of another credential of this wallet")
	}
	return engine.Errorf(CodeWalletSignatureInvalid, "the signing key is not an active session of this wallet")
}
