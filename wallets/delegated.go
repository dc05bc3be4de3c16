package wallets

import (
	"context"
	"crypto/ecdh"
	"encoding/hex"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/paygrid/payments/cards"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
	"github.com/paygrid/payments/walletauth"
)

// Delegated keys (reference DelegatedKey): a service-held P-256 key that
// may sign card payments from an embedded wallet that funds a card. It is
// created in three legs signed by a session of the wallet: the first call
// answers the challenge to create the key's user, the first signed retry
// creates the key (PENDING) and answers the challenge to grant its policy,
// the second signed retry makes it ACTIVE (201). One ACTIVE key per card
// funding source.

// Delegated key states.
const (
	// DelegatedKeyPending is a key created by the second leg, waiting for
	// its policy grant (the third leg).
	DelegatedKeyPending = "PENDING"
	// DelegatedKeyActive may sign; at most one per funding source.
	DelegatedKeyActive = "ACTIVE"
	// DelegatedKeyRevoked no longer signs; its private key is erased.
	DelegatedKeyRevoked = "REVOKED"
)

// DelegatedKey is a delegated signing key as the API shows it: the public
// key in compressed SEC1 hex, never the private one.
type DelegatedKey struct {
	ID              string    `json:"id"`
	CardID          string    `json:"cardId"`
	FundingSourceID string    `json:"fundingSourceId"`
	AccountID       string    `json:"accountId"`
	PublicKey       string    `json:"publicKey"`
	Nickname        string    `json:"nickname"`
	Status          string    `json:"status"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

// delegatedKeyRecord is a DelegatedKey as stored, with its private key
// (the P-256 scalar drawn before the creating transaction; nil once
// revoked).
type delegatedKeyRecord struct {
	DelegatedKey
	PrivateKey []byte `json:"privateKey"`
}

// CreateDelegatedKeyRequest is the body of POST /auth/delegated-keys, the
// same on all three legs.
type CreateDelegatedKeyRequest struct {
	CardID            string `json:"cardId"`
	InternalAccountID string `json:"internalAccountId"`
	Nickname          string `json:"nickname"`
}

// fundingSourceID names the binding of a card to a wallet that funds it:
// a name-based UUID, so the same card and wallet always give the same id
// and nothing needs storing.
func fundingSourceID(cardID, accountID string) string {
	return "CardFundingSource:" + uuid.NewSHA1(uuid.NameSpaceURL, []byte(cardID+"|"+accountID)).String()
}

// CreateDelegatedKey runs one leg of the three-leg flow: the challenge of
// the next leg, or (last leg) the ACTIVE key. Every leg repeats the same
// body, signed by an active session of the wallet (the signed-retry
// codes of signed.go). INVALID_INPUT for a missing member; NOT_FOUND for
// an unknown card or a card the wallet does not fund; ACCOUNT_NOT_FOUND
// when the account is not an embedded wallet; CONFLICT when the funding
// source already has an ACTIVE key. Each leg is one transaction, so of
// concurrent retries of one leg exactly one proceeds. With an idempotency
// key each leg records its answer and a retry of the leg replays it: the
// same challenge, or the same key, never a second one.
func (w Service) CreateDelegatedKey(ctx context.Context, req CreateDelegatedKeyRequest, sig Signature) (*DelegatedKey, *SignedChallenge, error) {
	out, err := engine.Run(ctx, w.e, createDelegatedKey, walletCall[CreateDelegatedKeyRequest]{body: req, sig: sig, fp: []any{req, sig.leg()}})
	return out.Result, out.Challenge, err
}

// createDelegatedKey is Service.CreateDelegatedKey's operation; the
// wallet's random draws are made in Prefetch.
var createDelegatedKey = engine.Op[walletCall[CreateDelegatedKeyRequest], signedAnswer[DelegatedKey], *walletDraws]{Area: "wallets", Name: "CreateDelegatedKey",
	Validate: func(in *walletCall[CreateDelegatedKeyRequest]) error {
		req := in.body
		var fe validate.Errors
		fe.Required("cardId", req.CardID)
		fe.Required("internalAccountId", req.InternalAccountID)
		if fe.Required("nickname", req.Nickname) {
			fe.MaxLen("nickname", req.Nickname, 256)
		}
		return engine.Invalid(fe.Err())
	},
	Prefetch: prefetchDraws[CreateDelegatedKeyRequest],
	Decide: func(t *engine.Txn, in *walletCall[CreateDelegatedKeyRequest], f **walletDraws) (out signedAnswer[DelegatedKey], err error) {
		req, sig, d := in.body, in.sig, *f
		err = func() error {
			out = signedAnswer[DelegatedKey]{}
			card, err := cards.Get(t, req.CardID)
			if err != nil {
				return err
			}
			a, err := walletAccount(t, req.InternalAccountID)
			if err != nil {
				return err
			}
			if !slices.Contains(card.FundingSources, a.ID) {
				return engine.Errorf(engine.CodeNotFound, "card %s is not funded by embedded wallet %s", card.ID, a.ID)
			}
			fs := fundingSourceID(card.ID, a.ID)
			keys, err := delegatedKeys(t, a.ID, fs)
			if err != nil {
				return err
			}
			for _, k := range keys {
				if k.Status == DelegatedKeyActive {
					return engine.Errorf(engine.CodeConflict, "funding source %s already has the ACTIVE delegated key %s; revoke it first", fs, k.ID)
				}
			}
			// The Request-Id tells the legs apart: the second leg's challenge
			// is marked leg 2, and its signed retry activates the key.
			op := signedOp{op: "delegated.create", target: fs, accountID: a.ID, body: req, activity: "CREATE_USERS",
				params: map[string]any{"fundingSourceId": fs, "userName": req.Nickname}}
			if sig.RequestID != "" {
				if p, err := pendingOp(t, sig.RequestID); err == nil && p.Data["leg"] == "2" {
					op.op = "delegated.activate"
				}
			}
			var p *pendingRequest
			out.Challenge, p, err = signed(t, sig, op)
			if out.Challenge != nil || err != nil {
				return err
			}
			if op.op == "delegated.create" {
				k, err := newDelegatedKey(t, req, card.ID, fs, a.ID, d)
				if err != nil {
					return err
				}
				out.Challenge, _, err = challenge(t, signedOp{op: "delegated.activate", target: fs, accountID: a.ID, body: req, activity: "CREATE_POLICY",
					params: map[string]any{"delegatedKeyId": k.ID, "publicKey": k.PublicKey}, data: map[string]string{"leg": "2", "key": k.ID}})
				return err
			}
			pending, err := delegatedKey(t, p.Data["key"])
			if err != nil {
				return err
			}
			pending.Status, pending.UpdatedAt = DelegatedKeyActive, t.Now
			out.Result = &pending.DelegatedKey
			return engine.PutJSON(t, tableWalletDelegatedKeys, pending.ID, pending)
		}()
		return out, err
	}}

// prefetchDraws makes a wallet operation's random draws (drawWallet)
// before its transaction.
func prefetchDraws[B any](_ context.Context, e *engine.Handle, _ *walletCall[B], d **walletDraws, _ error) (err error) {
	*d, err = drawWallet(e)
	return err
}

// pendingOp loads a pending signed request without checking it (signed
// does that); used only to choose which leg a retry answers.
func pendingOp(t *engine.Txn, id string) (*pendingRequest, error) {
	var p pendingRequest
	return &p, engine.GetJSON(t, tableWalletRequests, id, &p)
}

// newDelegatedKey stores a PENDING key of the wallet accountID for funding
// source fs, whose private scalar is the one drawn in d.
func newDelegatedKey(t *engine.Txn, req CreateDelegatedKeyRequest, cardID, fs, accountID string, d *walletDraws) (*delegatedKeyRecord, error) {
	sk, err := ecdh.P256().NewPrivateKey(d.session)
	if err != nil {
		return nil, err
	}
	k := &delegatedKeyRecord{DelegatedKey: DelegatedKey{ID: t.NewID("DelegatedKey"), CardID: cardID, FundingSourceID: fs,
		AccountID: accountID, PublicKey: hex.EncodeToString(walletauth.CompressPoint(sk.PublicKey().Bytes())), Nickname: req.Nickname,
		Status: DelegatedKeyPending, CreatedAt: t.Now, UpdatedAt: t.Now}, PrivateKey: d.session}
	if err := engine.PutJSON(t, tableWalletDelegatedKeys, k.ID, k); err != nil {
		return nil, err
	}
	return k, t.Put(tableWalletDelegatedKeysByAcc, accountID+"|"+k.ID, []byte(k.ID))
}

// delegatedKeys lists the delegated keys of a wallet, of one funding
// source when fs is set.
func delegatedKeys(t *engine.Txn, accountID, fs string) ([]*delegatedKeyRecord, error) {
	var out []*delegatedKeyRecord
	err := t.Scan(tableWalletDelegatedKeysByAcc, engine.ScanOptions{Prefix: accountID + "|"}, func(_ string, v []byte) (bool, error) {
		k, err := delegatedKey(t, string(v))
		if err == nil && (fs == "" || k.FundingSourceID == fs) {
			out = append(out, k)
		}
		return true, err
	})
	return out, err
}

// delegatedKey reads a delegated key: NOT_FOUND when there is none.
func delegatedKey(t *engine.Txn, id string) (*delegatedKeyRecord, error) {
	var k delegatedKeyRecord
	if err := engine.GetJSON(t, tableWalletDelegatedKeys, id, &k); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "delegated key", id)
	}
	return &k, nil
}

// DelegatedKeyFilter narrows Service.DelegatedKeys: at least one member.
type DelegatedKeyFilter struct {
	AccountID       string
	FundingSourceID string
}

// DelegatedKeys lists delegated keys of any status, of a wallet and/or a
// funding source; INVALID_INPUT when f is empty. A filter by funding
// source alone scans every wallet's keys.
func (w Service) DelegatedKeys(ctx context.Context, f DelegatedKeyFilter) ([]DelegatedKey, error) {
	return engine.Run(ctx, w.e, listDelegatedKeys, f)
}

// listDelegatedKeys is Service.DelegatedKeys's operation.
var listDelegatedKeys = engine.Op[DelegatedKeyFilter, []DelegatedKey, struct{}]{Area: "wallets", Name: "DelegatedKeys", Access: engine.Read,
	Validate: func(f *DelegatedKeyFilter) error {
		if f.AccountID == "" && f.FundingSourceID == "" {
			return engine.Invalid(validate.Errors{{Field: "accountId", Message: "accountId or fundingSourceId is required"}})
		}
		return nil
	},
	Decide: func(t *engine.Txn, f *DelegatedKeyFilter, _ *struct{}) ([]DelegatedKey, error) {
		out := []DelegatedKey{}
		err := func() error {
			out = out[:0]
			prefix := f.AccountID
			if prefix != "" {
				prefix += "|"
			}
			return t.Scan(tableWalletDelegatedKeysByAcc, engine.ScanOptions{Prefix: prefix}, func(_ string, v []byte) (bool, error) {
				k, err := delegatedKey(t, string(v))
				if err == nil && (f.FundingSourceID == "" || k.FundingSourceID == f.FundingSourceID) {
					out = append(out, k.DelegatedKey)
				}
				return true, err
			})
		}()
		return out, err
	}}

// DelegatedKey returns one delegated key; NOT_FOUND when there is none.
func (w Service) DelegatedKey(ctx context.Context, id string) (*DelegatedKey, error) {
	return engine.Run(ctx, w.e, getDelegatedKey, id)
}

// getDelegatedKey is Service.DelegatedKey's operation.
var getDelegatedKey = engine.Op[string, *DelegatedKey, struct{}]{Area: "wallets", Name: "DelegatedKey", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*DelegatedKey, error) {
		k, err := delegatedKey(t, *id)
		if err != nil {
			return nil, err
		}
		return &k.DelegatedKey, nil
	}}

// RevokeDelegatedKey revokes an ACTIVE delegated key (INVALID_INPUT
// otherwise, NOT_FOUND for an unknown one); the service signs its own
// removal, so no session signature is asked for. The private key is
// erased in the same transaction.
func (w Service) RevokeDelegatedKey(ctx context.Context, id string) error {
	_, err := engine.Run(ctx, w.e, revokeDelegatedKey, id)
	return err
}

// revokeDelegatedKey is Service.RevokeDelegatedKey's operation.
var revokeDelegatedKey = engine.Op[string, struct{}, struct{}]{Area: "wallets", Name: "RevokeDelegatedKey",
	Decide: func(t *engine.Txn, in *string, _ *struct{}) (out struct{}, err error) {
		id := *in
		err = func() error {
			k, err := delegatedKey(t, id)
			if err != nil {
				return err
			}
			if k.Status != DelegatedKeyActive {
				return engine.Invalid(validate.Errors{{Field: "id", Message: "only an ACTIVE delegated key can be revoked; this one is " + k.Status}})
			}
			k.Status, k.UpdatedAt, k.PrivateKey = DelegatedKeyRevoked, t.Now, nil
			return engine.PutJSON(t, tableWalletDelegatedKeys, k.ID, k)
		}()
		return out, err
	}}
