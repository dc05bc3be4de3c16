// Package wallets is the embedded-wallets area (the reference's Embedded
// Wallet Auth operations): EMBEDDED_WALLET internal accounts whose actions the wallet
// holder authorizes with a session key, so that the platform moves money
// from them only with the holder's signature.
//
// The package owns the area's vocabulary (AuthMethod, AuthSession,
// SignedChallenge, DelegatedKey and the requests that make them), its
// rules (credential uniqueness, OTP limits, the signed-retry check) and
// its operations (Service, which the root facade exposes as eng.Wallets).
// Its HTTP routes live in httpapi/wallets.go.
//
// # Credentials and sessions
//
// A wallet has one or more credentials (CredentialEmailOTP,
// CredentialSmsOTP, CredentialPasskey, CredentialOAuth). Authenticating
// with one (Challenge, then Verify) opens a session bound to a P-256 key
// the client holds: the session signs for WalletSessionTTL, and every
// signed flow of the wallet accepts a stamp by an active session's key.
// A wallet's first credential is registered at once (Provision registers
// the EMAIL_OTP credential of the customer's email, when no other wallet
// holds it); any further credential, a revocation, a privacy change, an
// export or a contact change is itself a signed flow, so only the holder
// can change how the wallet is held.
//
// A delegated key is a P-256 key the service holds for a card funded by
// the wallet, created in three legs a session of the wallet signs
// (CreateDelegatedKey): it lets card payments from the wallet be signed
// without the holder at hand, until it is revoked. A funding source has
// at most one ACTIVE key.
//
// Each OTP credential is limited: WalletOTPAttempts wrong codes within
// WalletOTPLockout lock it, and challenges come at most
// WalletOTPChallengesPerHour times an hour, WalletOTPResendInterval apart;
// beyond that the answer is RATE_LIMITED with Retry-After. The counts are
// written with the attempt they limit, in the same transaction, so
// concurrent guesses are all counted.
//
// # Signed flows
//
// One mechanism serves every signed flow (signed.go): the first call,
// without headers, stores a pending request that binds the operation, its
// target and its body, and answers 202 with a SignedChallenge
// (payloadToSign, requestId, expiresAt). The retry repeats the call with a
// stamp over payloadToSign (Signature.Stamp, the Service-Wallet-Signature
// header) and the requestId (Signature.RequestID); it is checked, and the
// pending request consumed, in the transaction that makes the change. A
// consumed request cannot be replayed, and of concurrent retries of one
// challenge exactly one succeeds. A failed retry is 401 with
// REQUEST_ID_MISSING, WALLET_SIGNATURE_MISSING, UNAUTHORIZED,
// WALLET_SIGNATURE_BODY_MISMATCH, WALLET_SIGNATURE_MALFORMED or
// WALLET_SIGNATURE_INVALID, and changes nothing.
//
// # How an operation runs
//
// Every operation is a declaration (engine.Op) that engine.Run carries
// out: a write is one store transaction (a read one View). What needs
// randomness or the outside world comes first, in its Prefetch: the keys
// and OTP bytes an operation may need are drawn before it (drawWallet), OIDC tokens and WebAuthn attestations are checked by the
// pure functions of walletauth, and what is sealed with HPKE (a legacy
// session's key, an export) is sealed then, to the client key the request
// names. The transaction function then only reads, decides and writes, so
// a store may run it more than once; ids come from Txn.NewID and the time
// from Txn.Now. A refusal that must still commit its writes (a wrong OTP
// code, counted) is kept (engine.Keep) and answered after the commit;
// one that writes nothing rolls back.
//
// # Idempotency
//
// On a handle with an idempotency key (payments.Engine.WithIdempotency)
// every write operation records its whole answer in its own transaction:
// the result, or for a signed flow's leg the result and the challenge as
// one record (signedAnswer), with the fingerprint of its typed input. A
// retry with the key replays it: the same challenge, session, credential,
// key or wallet, and nothing is opened, drawn or sent twice; the same key
// with another input is CONFLICT. Operations that gather something before
// their transaction (a token or passkey check, drawn keys, a seal) look
// for the recorded answer first (engine.Run replays before Prefetch), so
// a retry is answered before any of it runs again
// (an OIDC token that expired since still replays its login).
//
// A signed retry is another request than the call that asked for its
// challenge, though it repeats the same body: its fingerprint includes its
// Request-Id (Signature.leg), so a caller that reuses one key across the
// legs gives each leg its own Idempotency.Scope, as the HTTP layer does
// (httpapi appends " signed <Request-Id>" when the wallet-signature header
// is sent). Then a repeat of the first call replays the challenge, the
// signed retry runs once, and a repeat of it replays its answer instead of
// finding its challenge consumed. ExecuteQuote is the quotes area's
// execution, idempotent the same way.
//
// # Side effects and events
//
// An OTP code is never sent inside a transaction: outside the sandbox it is
// written as a code intent of the customers area (customers.IntendCode)
// and handed to the CodeSender after commit; the sandbox's code is
// SandboxOTPCode and is not sent. The area emits no webhook of its own; a
// quote executed from a wallet emits the quotes area's.
//
// # Hooks for the areas below
//
// The wallets area sits above customers and quotes, which call it through
// hooks they declare and the root's New wires:
//
//   - Provision opens a customer's embedded wallet where the customers
//     area opens the customer's accounts (customers.Options.ProvisionWallet).
//   - ContactChange moves the OTP credentials tied to a customer's email or
//     phone when the customers area updates it (customers.Options.ContactChanged;
//     without a signature there, a tied change is WALLET_SIGNATURE_MISSING,
//     and Service.UpdateCustomer is the signed route).
//   - QuotePayload is the payloadToSign of a quote paid from a wallet
//     (quotes.Options.WalletPayload).
//   - CheckQuoteSignature verifies the stamp over it when the quote
//     executes (quotes.Options.CheckWalletSignature); quotes.Execute refuses
//     a wallet quote that did not pass it, so no other path (an agent's
//     execute included) pays from a wallet unsigned.
//
// Area declares the tables and the state (Options: the WebAuthn relying
// party and the OIDC issuers' keys, from payments.Config.WalletRelyingParty
// and OIDCKeys) that New registers; the area has no due work.
//
// # Cryptography
//
// The cryptography is package walletauth's, pure and without I/O:
//
//   - P-256 API-key stamps over a payloadToSign (walletauth.ParseStamp,
//     Stamp.Verify), the payloads themselves in the reference's activity
//     shape (walletauth.Activity);
//   - WebAuthn registration and assertion of passkeys against the relying
//     party (walletauth.RelyingParty), with the signature counter kept;
//   - HPKE (RFC 9180) for OTP attempts sealed to a per-challenge target key
//     (walletauth.TargetBundle, OpenOTP), wallet exports (SealExport) and
//     the legacy flow's session key (SealSessionKey);
//   - OIDC ID tokens checked by claims (walletauth.CheckOIDC) and, with
//     issuer keys, by signature (VerifyOIDCSignature); outside the sandbox
//     a token whose signature cannot be verified is refused.
//
// Secrets stored by the area (OTP codes, delegated keys' private scalars,
// the wallet secret an export seals) never leave it in an answer except
// sealed to a key the client proved it holds.
//
// # Example
//
// An OTP login through the root facade: the client seals the code it
// received to the challenge's target, and signs the payload of the second
// leg with its own P-256 key, which becomes the session's key.
//
//	creds, err := eng.Wallets.Credentials(ctx, walletID)
//	ch, err := eng.Wallets.Challenge(ctx, creds[0].ID, payments.ChallengeRequest{})
//	bundle, err := walletauth.SealOTP(ch.OtpEncryptionTargetBundle, walletauth.OTPAttempt{Code: code, PublicKey: clientPub})
//	req := payments.VerifyRequest{Type: payments.CredentialEmailOTP, EncryptedOtpBundle: bundle}
//	_, leg, err := eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{}) // 202: payloadToSign
//	stamp, err := walletauth.SignStamp(clientKey, []byte(leg.PayloadToSign))
//	session, _, err := eng.Wallets.Verify(ctx, creds[0].ID, req, payments.Signature{Stamp: stamp, RequestID: leg.RequestID})
//	// From now on the session's key signs: a quote paid from the wallet
//	// executes with a stamp over its payloadToSign.
//	q, err := eng.Wallets.ExecuteQuote(ctx, quoteID, quoteStamp)
package wallets
