package wallets

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/validate"
	"github.com/paygrid/payments/walletauth"
)

// UpdateInternalAccountRequest is the body of PATCH /internal-accounts/{id}
// (reference InternalAccountUpdateRequest).
type UpdateInternalAccountRequest struct {
	PrivateEnabled *bool `json:"privateEnabled,omitempty"`
}

// UpdateInternalAccount sets an embedded wallet's privacy, a signed flow a
// session of the wallet signs. The challenge is nil once updated.
// INVALID_INPUT without privateEnabled or for an account that is not an
// embedded wallet; ACCOUNT_NOT_FOUND for an unknown one; the signed-retry
// codes. With an idempotency key each leg records its answer and a retry
// of the leg replays it.
func (w Service) UpdateInternalAccount(ctx context.Context, id string, req UpdateInternalAccountRequest, sig Signature) (*accounts.InternalAccountView, *SignedChallenge, error) {
	out, err := engine.Run(ctx, w.e, updateInternalAccount, walletCall[UpdateInternalAccountRequest]{id: id, body: req, sig: sig, fp: []any{id, req, sig.leg()}})
	return out.Result, out.Challenge, err
}

// updateInternalAccount is Service.UpdateInternalAccount's operation.
var updateInternalAccount = engine.Op[walletCall[UpdateInternalAccountRequest], signedAnswer[accounts.InternalAccountView], struct{}]{Area: "wallets", Name: "UpdateInternalAccount",
	Validate: func(in *walletCall[UpdateInternalAccountRequest]) error {
		if in.body.PrivateEnabled == nil {
			return engine.Invalid(validate.Errors{{Field: "privateEnabled", Message: "privateEnabled is required"}})
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *walletCall[UpdateInternalAccountRequest], _ *struct{}) (out signedAnswer[accounts.InternalAccountView], err error) {
		id, req, sig := in.id, in.body, in.sig
		err = func() error {
			out = signedAnswer[accounts.InternalAccountView]{}
			a, err := accounts.Internal(t, id)
			if err != nil {
				return err
			}
			if a.Type != accounts.EmbeddedWallet {
				return engine.Invalid(validate.Errors{{Field: "privateEnabled", Message: "only embedded wallets have a privacy setting"}})
			}
			out.Challenge, _, err = signed(t, sig, signedOp{op: "account.update", target: id, accountID: id, body: req,
				activity: "UPDATE_WALLET", params: map[string]any{"privateEnabled": *req.PrivateEnabled}})
			if out.Challenge != nil || err != nil {
				return err
			}
			v := *req.PrivateEnabled
			a.PrivateEnabled, a.UpdatedAt = &v, t.Now
			if err := accounts.SaveInternal(t, a); err != nil {
				return err
			}
			out.Result, err = accounts.View(t, a)
			return err
		}()
		return out, err
	}}

// ExportRequest is the body of POST /internal-accounts/{id}/export.
type ExportRequest struct {
	ClientPublicKey string `json:"clientPublicKey"`
}

// WalletExport is the sealed export of a wallet (reference
// InternalAccountExportResponse).
type WalletExport struct {
	ID                         string `json:"id"`
	EncryptedWalletCredentials string `json:"encryptedWalletCredentials"`
}

// Export seals the wallet's secret to clientPublicKey (uncompressed P-256
// hex) with HPKE, a signed flow a session of the wallet signs. The
// sandbox's envelope has empty dataSignature and enclaveQuorumPublic.
// INVALID_INPUT for a key that is not uncompressed P-256;
// ACCOUNT_NOT_FOUND when the account is not an embedded wallet; the
// signed-retry codes. The secret is drawn at the first export and kept,
// so every export seals the same secret. Sealing draws randomness, so it
// runs before the transaction, over the secret as a read found it; the
// transaction checks the secret is still that one (only a concurrent
// first export changes it, and then the export runs again). With an
// idempotency key each leg records its answer, the sealed secret
// included, and a retry of the leg replays it.
func (w Service) Export(ctx context.Context, id string, req ExportRequest, sig Signature) (*WalletExport, *SignedChallenge, error) {
	out, err := engine.Run(ctx, w.e, exportWallet, walletCall[ExportRequest]{id: id, body: req, sig: sig, fp: []any{id, req, sig.leg()}})
	return out.Result, out.Challenge, err
}

// exportWallet is Service.Export's operation: the secret is sealed in
// Prefetch, and sealed again (up to twice) when Decide finds that a
// concurrent first export drew another (errSecretMoved, marked Missing).
var exportWallet = engine.Op[walletCall[ExportRequest], signedAnswer[WalletExport], *sealedExport]{Area: "wallets", Name: "Export",
	Validate: func(in *walletCall[ExportRequest]) error {
		var fe validate.Errors
		if checkClientKey(&fe, "clientPublicKey", in.body.ClientPublicKey) && !legacy(in.body.ClientPublicKey) {
			fe.Add("clientPublicKey", nil, "clientPublicKey must be an uncompressed P-256 key (130 hex characters, 04 prefix)")
		}
		return engine.Invalid(fe.Err())
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, in *walletCall[ExportRequest], x **sealedExport, _ error) (err error) {
		*x, err = sealExport(ctx, e, in.id, in.body, in.sig)
		return err
	},
	Decide: func(t *engine.Txn, in *walletCall[ExportRequest], f **sealedExport) (out signedAnswer[WalletExport], err error) {
		id, req, sig, x := in.id, in.body, in.sig, *f
		err = func() error {
			out = signedAnswer[WalletExport]{}
			a, err := walletAccount(t, id)
			if err != nil {
				return err
			}
			out.Challenge, _, err = signed(t, sig, signedOp{op: "account.export", target: id, accountID: id, body: req,
				activity: "EXPORT_WALLET", params: map[string]any{"targetPublicKey": req.ClientPublicKey, "walletId": a.ID}})
			if out.Challenge != nil || err != nil {
				return err
			}
			var stored walletSecret
			switch err := engine.GetJSON(t, tableWalletSecrets, id, &stored); {
			case errors.Is(err, engine.ErrNotFound):
				if err := engine.PutJSON(t, tableWalletSecrets, id, walletSecret{Secret: x.secret}); err != nil {
					return err
				}
			case err != nil:
				return err
			case !bytes.Equal(stored.Secret, x.secret):
				return engine.Missing(errSecretMoved)
			}
			out.Result = &WalletExport{ID: id, EncryptedWalletCredentials: x.sealed}
			return nil
		}()
		return out, err
	}}

// errSecretMoved refuses an export whose secret was drawn by a concurrent
// first export after this one sealed another.
var errSecretMoved = engine.Errorf(engine.CodeConflict, "the wallet's secret was created by a concurrent export; export again")

// sealedExport is a wallet secret and its seal to an export's client key.
type sealedExport struct {
	secret []byte
	sealed string
}

// sealExport seals, for a signed export of wallet id, the wallet's secret
// as stored, or a new one drawn when it has none yet; nothing for the call
// that asks for the challenge, which seals nothing.
func sealExport(ctx context.Context, e *engine.Handle, id string, req ExportRequest, sig Signature) (*sealedExport, error) {
	x := &sealedExport{}
	if sig.leg() == "" {
		return x, nil
	}
	var s walletSecret
	err := e.View(ctx, func(t *engine.Txn) error {
		if err := engine.GetJSON(t, tableWalletSecrets, id, &s); !errors.Is(err, engine.ErrNotFound) {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if x.secret = s.Secret; x.secret == nil {
		x.secret = make([]byte, 32)
		if _, err := rand.Read(x.secret); err != nil {
			return nil, err
		}
	}
	pub, _ := hex.DecodeString(req.ClientPublicKey)
	org, _ := walletIDs(id)
	if x.sealed, err = walletauth.SealExport(pub, org, x.secret); err != nil {
		return nil, err
	}
	return x, nil
}

// QuotePayload is the payloadToSign of a quote paid from an
// embedded wallet: it binds the quote, the wallet and the amounts. It is
// the quotes area's WalletPayload hook, called when such a quote is
// created; a pure function of the quote (its creation time included), so
// a retried transaction computes the same payload.
func QuotePayload(q *quotes.Record) string {
	return activity(q.Source.AccountID, "SIGN_TRANSACTION_V2", map[string]any{"quoteId": q.ID, "signWith": q.Source.AccountID,
		"totalSendingAmount": q.TotalSendingAmount, "sendingCurrency": q.SendingCurrency.Code,
		"totalReceivingAmount": q.TotalReceivingAmount, "receivingCurrency": q.ReceivingCurrency.Code}, q.CreatedAt)
}

// ExecuteQuote executes a quote whose source is an embedded wallet, with
// the stamp over its payloadToSign by an active session of that wallet
// (Service-Wallet-Signature; no Request-Id). Other quotes execute as
// the quotes area's Execute does and ignore the stamp. The execution is
// the quotes area's (quotes.ExecuteWith), with its answers and its
// idempotency: WALLET_SIGNATURE_MISSING without a stamp, the stamp codes
// of CheckQuoteSignature, QUOTE_NOT_FOUND, QUOTE_EXPIRED, CONFLICT for a
// quote already executed, INSUFFICIENT_FUNDS.
func (w Service) ExecuteQuote(ctx context.Context, id, stamp string) (*quotes.Quote, error) {
	return engine.Run(ctx, w.e, executeQuote, [2]string{id, stamp})
}

// executeQuote is Service.ExecuteQuote's operation: its request is [quote
// id, stamp], and the quotes area's execution (quotes.ExecuteWith) carries
// it out, with its own idempotency, in Prefetch, which settles the answer.
var executeQuote = engine.Op[[2]string, *quotes.Quote, *quotes.Quote]{Area: "wallets", Name: "ExecuteQuote", Access: engine.Read,
	Prefetch: func(ctx context.Context, e *engine.Handle, in *[2]string, q **quotes.Quote, _ error) (err error) {
		stamp := in[1]
		if *q, err = quotes.ExecuteWith(e, ctx, in[0], quotes.ExecuteOptions{}, &stamp); err != nil {
			return err
		}
		return engine.Settled
	},
	Decide: func(*engine.Txn, *[2]string, **quotes.Quote) (*quotes.Quote, error) { return nil, nil },
	Answer: func(_ *engine.Handle, _ *[2]string, q **quotes.Quote, _ *quotes.Quote, err error) (*quotes.Quote, error) {
		return *q, err
	}}
