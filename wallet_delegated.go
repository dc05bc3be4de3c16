package payments

import (
	"context"
	"crypto/ecdh"
	"encoding/hex"
	"slices"
	"time"

	"github.com/google/uuid"
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
	DelegatedKeyPending = "PENDING"
	DelegatedKeyActive  = "ACTIVE"
	DelegatedKeyRevoked = "REVOKED"
)

// DelegatedKey is a delegated signing key.
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

// delegatedKeyRecord is a DelegatedKey as stored, with its private key.
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

// fundingSourceID names the binding of a card to a wallet that funds it.
func fundingSourceID(cardID, accountID string) string {
	return "CardFundingSource:" + uuid.NewSHA1(uuid.NameSpaceURL, []byte(cardID+"|"+accountID)).String()
}

// CreateDelegatedKey runs one leg of the three-leg flow: the challenge of
// the next leg, or (last leg) the ACTIVE key.
func (w Wallets) CreateDelegatedKey(ctx context.Context, req CreateDelegatedKeyRequest, sig Signature) (*DelegatedKey, *SignedChallenge, error) {
	e := w.e
	var fe validate.Errors
	fe.Required("cardId", req.CardID)
	fe.Required("internalAccountId", req.InternalAccountID)
	if fe.Required("nickname", req.Nickname) {
		fe.MaxLen("nickname", req.Nickname, 256)
	}
	if err := engine.Invalid(fe.Err()); err != nil {
		return nil, nil, err
	}
	d, err := drawWallet(e)
	if err != nil {
		return nil, nil, err
	}
	var out *DelegatedKey
	var ch *SignedChallenge
	err = e.Update(ctx, func(t *engine.Txn) error {
		out, ch = nil, nil
		card, err := card(t, req.CardID)
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
		op := signedOp{op: "delegated.create", target: fs, accountID: a.ID, body: req, activity: "CREATE_USERS",
			params: map[string]any{"fundingSourceId": fs, "userName": req.Nickname}}
		if sig.RequestID != "" {
			if p, err := pendingOp(t, sig.RequestID); err == nil && p.Data["leg"] == "2" {
				op.op = "delegated.activate"
			}
		}
		var p *pendingRequest
		ch, p, err = signed(t, sig, op)
		if ch != nil || err != nil {
			return err
		}
		if op.op == "delegated.create" {
			k, err := newDelegatedKey(t, req, card.ID, fs, a.ID, d)
			if err != nil {
				return err
			}
			ch, _, err = challenge(t, signedOp{op: "delegated.activate", target: fs, accountID: a.ID, body: req, activity: "CREATE_POLICY",
				params: map[string]any{"delegatedKeyId": k.ID, "publicKey": k.PublicKey}, data: map[string]string{"leg": "2", "key": k.ID}})
			return err
		}
		pending, err := delegatedKey(t, p.Data["key"])
		if err != nil {
			return err
		}
		pending.Status, pending.UpdatedAt = DelegatedKeyActive, t.Now
		out = &pending.DelegatedKey
		return engine.PutJSON(t, tableWalletDelegatedKeys, pending.ID, pending)
	})
	return out, ch, err
}

// pendingOp loads a pending signed request.
func pendingOp(t *engine.Txn, id string) (*pendingRequest, error) {
	var p pendingRequest
	return &p, engine.GetJSON(t, tableWalletRequests, id, &p)
}

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

func delegatedKey(t *engine.Txn, id string) (*delegatedKeyRecord, error) {
	var k delegatedKeyRecord
	if err := engine.GetJSON(t, tableWalletDelegatedKeys, id, &k); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "delegated key", id)
	}
	return &k, nil
}

// DelegatedKeyFilter narrows Wallets.DelegatedKeys: at least one member.
type DelegatedKeyFilter struct {
	AccountID       string
	FundingSourceID string
}

// DelegatedKeys lists delegated keys of any status.
func (w Wallets) DelegatedKeys(ctx context.Context, f DelegatedKeyFilter) ([]DelegatedKey, error) {
	if f.AccountID == "" && f.FundingSourceID == "" {
		return nil, engine.Invalid(validate.Errors{{Field: "accountId", Message: "accountId or fundingSourceId is required"}})
	}
	out := []DelegatedKey{}
	err := w.e.View(ctx, func(t *engine.Txn) error {
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
	})
	return out, err
}

// DelegatedKey returns one delegated key.
func (w Wallets) DelegatedKey(ctx context.Context, id string) (*DelegatedKey, error) {
	var out *DelegatedKey
	err := w.e.View(ctx, func(t *engine.Txn) error {
		k, err := delegatedKey(t, id)
		if err == nil {
			out = &k.DelegatedKey
		}
		return err
	})
	return out, err
}

// RevokeDelegatedKey revokes an ACTIVE delegated key (INVALID_INPUT
// otherwise); the service signs its own removal.
func (w Wallets) RevokeDelegatedKey(ctx context.Context, id string) error {
	return w.e.Update(ctx, func(t *engine.Txn) error {
		k, err := delegatedKey(t, id)
		if err != nil {
			return err
		}
		if k.Status != DelegatedKeyActive {
			return engine.Invalid(validate.Errors{{Field: "id", Message: "only an ACTIVE delegated key can be revoked; this one is " + k.Status}})
		}
		k.Status, k.UpdatedAt, k.PrivateKey = DelegatedKeyRevoked, t.Now, nil
		return engine.PutJSON(t, tableWalletDelegatedKeys, k.ID, k)
	})
}
