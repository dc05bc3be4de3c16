package platform

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"iter"
	"strings"
	"sync"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// Token tables: tokens by id (tokenRecord, with the secret's hash), and
// the unique index from clientId to token id that Authenticate reads and
// CreateToken claims.
const (
	tableTokens       = "tokens"
	tableTokenClients = "token_clients"
)

// Permission is what an API token may do. httpapi checks a route's
// permission against the authenticated token (Token.Has); reads need none
// beyond a valid token.
type Permission string

// Permissions (reference enum Permission).
const (
	PermView     Permission = "VIEW"     // read everything
	PermTransact Permission = "TRANSACT" // create and execute quotes
	PermManage   Permission = "MANAGE"   // platform config, tokens, customers
)

// Token is an API token as the API shows it. The secret is never stored;
// only its SHA-256 hash is, and it is shown once, in CreatedToken.
type Token struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Permissions []Permission `json:"permissions"`
	ClientID    string       `json:"clientId"`
	CreatedAt   time.Time    `json:"createdAt"`
	UpdatedAt   time.Time    `json:"updatedAt"`
}

// Has reports whether the token carries permission p.
func (t *Token) Has(p Permission) bool {
	for _, q := range t.Permissions {
		if q == p {
			return true
		}
	}
	return false
}

// CreatedToken is a new token with its one-time secret.
type CreatedToken struct {
	Token
	ClientSecret string `json:"clientSecret"`
}

// Credential returns the Basic-auth credential "clientId:clientSecret".
func (c *CreatedToken) Credential() string { return c.ClientID + ":" + c.ClientSecret }

// tokenRecord is a token as stored: the API's view and the SHA-256 (hex)
// of its secret, never the secret itself.
type tokenRecord struct {
	Token
	SecretHash string `json:"secretHash"`
}

// CreateTokenRequest names a token and its permissions.
type CreateTokenRequest struct {
	Name        string       `json:"name"`
	Permissions []Permission `json:"permissions"`
	// ClientID and ClientSecret fix the credential instead of generating one
	// (the sandbox server's -token flag). Not accepted over HTTP.
	ClientID     string `json:"-"`
	ClientSecret string `json:"-"`
	// Issuer is the token making the request, when one does (httpapi sets
	// it). A token may grant only permissions it holds (VIEW, which every
	// token has, aside): otherwise the answer is FORBIDDEN. Nil means the
	// embedding program itself, which may grant anything.
	Issuer *Token `json:"-"`
}

// CreateToken creates an API token. The returned secret is not retrievable
// again through the token API. Invalid names, permissions or fixed
// credentials are INVALID_INPUT (every problem at once); a permission the
// Issuer lacks is FORBIDDEN; a fixed ClientID that another token holds is
// CONFLICT.
//
// The id, client id and secret are drawn before the transaction, so a
// store that reruns the transaction writes the same token. On a handle
// with an idempotency key the answer is recorded with the key, and a retry
// replays it with the same secret: the plain secret therefore stays in the
// idempotency record for the key's retention.
func (pl Service) CreateToken(ctx context.Context, req CreateTokenRequest) (_ *CreatedToken, err error) {
	ctx, op := begin(ctx, pl.e, "CreateToken")
	defer op.End(&err)
	e := pl.e
	var fe validate.Errors
	if fe.Required("name", req.Name) {
		fe.MaxLen("name", req.Name, 255)
	}
	if len(req.Permissions) == 0 {
		fe.Add("permissions", &validate.Constraint{Enum: []string{"VIEW", "TRANSACT", "MANAGE"}}, "permissions must list at least one of VIEW, TRANSACT, MANAGE")
	}
	seen := map[Permission]bool{}
	for i, p := range req.Permissions {
		if fe.Enum(validate.Index("permissions", i), string(p), "VIEW", "TRANSACT", "MANAGE") && seen[p] {
			fe.Add(validate.Index("permissions", i), nil, "permission %s is listed twice", p)
		}
		seen[p] = true
	}
	if req.ClientID != "" && (len(req.ClientID) > 128 || strings.ContainsAny(req.ClientID, ": ") || len(req.ClientSecret) < 16) {
		fe.Add("clientId", nil, "a fixed credential needs a clientId without ':' and a secret of at least 16 characters")
	}
	if err := engine.Invalid(fe.Err()); err != nil {
		return nil, err
	}
	if req.Issuer != nil {
		for _, p := range req.Permissions {
			if p != PermView && !req.Issuer.Has(p) {
				return nil, engine.Errorf(engine.CodeForbidden, "this API token lacks the %s permission, so it cannot grant it", p)
			}
		}
	}
	id, err := e.NewID("Token")
	if err != nil {
		return nil, err
	}
	out := &CreatedToken{ClientSecret: req.ClientSecret}
	out.Token = Token{ID: id, Name: req.Name, Permissions: req.Permissions, ClientID: req.ClientID, CreatedAt: e.Now(), UpdatedAt: e.Now()}
	if out.ClientID == "" {
		out.ClientID = engine.RandomHex(16)
	}
	if out.ClientSecret == "" {
		out.ClientSecret = engine.RandomHex(18)
	}
	// The answer, secret included, is what a retry with the same
	// idempotency key replays.
	var created *CreatedToken
	err = engine.Once(ctx, e, req, &created, func(t *engine.Txn) error {
		if err := engine.Claim(t, tableTokenClients, out.ClientID, id, engine.Errorf(engine.CodeConflict, "clientId %s is taken", out.ClientID)); err != nil {
			return err
		}
		created = out
		return engine.InsertJSON(t, tableTokens, id, tokenRecord{Token: out.Token, SecretHash: engine.HashSecret(out.ClientSecret)})
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// errUnauthorized is the single answer to every credential failure, so that
// callers cannot tell a wrong id from a wrong secret.
var errUnauthorized = &engine.Error{Code: engine.CodeUnauthorized, Message: "invalid API credentials"}

// Authenticate checks a Basic-auth credential: user is the token's clientId
// (or its id, "Token:..."), secret its client secret, compared in constant
// time. Every failure is UNAUTHORIZED, with one message; a store failure is
// returned as it is.
//
// Verified credentials are remembered for authCacheTTL so that busy clients
// do not pay a store read per request; revoking a token forgets them all in
// this process (other processes on the same store keep theirs until they
// expire). A verification that raced a revocation is not remembered.
func (pl Service) Authenticate(ctx context.Context, user, secret string) (_ *Token, err error) {
	ctx, op := begin(ctx, pl.e, "Authenticate")
	defer op.End(&err)
	e := pl.e
	if user == "" || secret == "" {
		return nil, errUnauthorized
	}
	got := sha256.Sum256([]byte(secret))
	gen := platformSlot.Of(e).auth.generation()
	if tok, ok := platformSlot.Of(e).auth.lookup(user, got, e.Clock()); ok {
		return tok, nil
	}
	// An unknown client id costs what a known one with a wrong secret does:
	// the same two reads, one record decoded (a decoy's) and one hash
	// compared, so response times do not tell which client ids exist.
	var rec tokenRecord
	err = e.View(ctx, func(t *engine.Txn) error {
		rec = tokenRecord{}
		id := user
		var missing error
		if !strings.HasPrefix(user, "Token:") {
			b, err := t.Get(tableTokenClients, user)
			switch {
			case err == nil:
				id = string(b)
			case errors.Is(err, engine.ErrNotFound):
				id, missing = decoyTokenID, err
			default:
				return err
			}
		}
		b, err := t.Get(tableTokens, id)
		switch {
		case errors.Is(err, engine.ErrNotFound):
			b, missing = decoyToken, err
		case err != nil:
			return err
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return err
		}
		return missing
	})
	want, _ := hex.DecodeString(rec.SecretHash)
	if len(want) == 0 {
		want = make([]byte, sha256.Size)
	}
	ok := subtle.ConstantTimeCompare(want, got[:]) == 1
	if errors.Is(err, engine.ErrNotFound) || (err == nil && !ok) {
		return nil, errUnauthorized
	}
	if err != nil {
		return nil, err
	}
	platformSlot.Of(e).auth.remember(user, got, &rec.Token, e.Clock(), gen)
	return &rec.Token, nil
}

// decoyTokenID and decoyToken stand in for the record of an unknown client
// id (see Authenticate): a token record of the usual shape whose secret
// hash no secret matches in practice.
const decoyTokenID = "Token:00000000-0000-0000-0000-000000000000"

var decoyToken, _ = json.Marshal(tokenRecord{Token: Token{ID: decoyTokenID, Name: "decoy",
	Permissions: []Permission{PermView}}, SecretHash: engine.RandomHex(sha256.Size)})

// authCacheTTL bounds how long a verified credential is remembered, and so
// how long another process may still accept a revoked token.
const authCacheTTL = time.Minute

// authEntry is one remembered credential: the hash of the secret that was
// verified, the token, and when.
type authEntry struct {
	hash [sha256.Size]byte
	tok  *Token
	at   time.Time
}

// authCache remembers verified credentials by user. Its generation moves
// on every revocation, so a verification that raced a revocation is not
// remembered.
type authCache struct {
	mu  sync.Mutex
	m   map[string]authEntry
	gen uint64
}

// generation returns the revocation generation; a verification takes it
// before reading the store and remembers its result only if it is unchanged.
func (c *authCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// lookup returns the token remembered for user if the secret's hash matches
// (in constant time) and the entry is younger than authCacheTTL.
func (c *authCache) lookup(user string, hash [sha256.Size]byte, now time.Time) (*Token, bool) {
	c.mu.Lock()
	en, ok := c.m[user]
	c.mu.Unlock()
	if !ok || now.Sub(en.at) > authCacheTTL || subtle.ConstantTimeCompare(en.hash[:], hash[:]) != 1 {
		return nil, false
	}
	return en.tok, true
}

// remember keeps a verified credential unless a revocation happened since
// gen. The map is reset beyond 10,000 users rather than evicted entry by
// entry: a forgotten entry only costs one store read.
func (c *authCache) remember(user string, hash [sha256.Size]byte, tok *Token, now time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.m == nil || len(c.m) > 10_000 {
		c.m = map[string]authEntry{}
	}
	c.m[user] = authEntry{hash: hash, tok: tok, at: now}
}

// forget drops every entry and moves the generation on.
func (c *authCache) forget() {
	c.mu.Lock()
	c.m = nil
	c.gen++
	c.mu.Unlock()
}

// Token returns the token with id, without its secret: TOKEN_NOT_FOUND
// when there is none.
func (pl Service) Token(ctx context.Context, id string) (_ *Token, err error) {
	ctx, op := begin(ctx, pl.e, "Token")
	defer op.End(&err)
	e := pl.e
	var rec tokenRecord
	err = e.View(ctx, func(t *engine.Txn) error { return engine.GetJSON(t, tableTokens, id, &rec) })
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeTokenNotFound, "token", id)
	}
	return &rec.Token, nil
}

// TokenFilter narrows Service.ListTokens; zero members match everything.
// Time bounds are inclusive.
type TokenFilter struct {
	Name                        string
	CreatedAfter, CreatedBefore time.Time
	UpdatedAfter, UpdatedBefore time.Time
}

// ListTokens lists tokens, oldest first, from the index that narrows the
// filter most (the name index when Name is set). A malformed cursor or
// limit is INVALID_INPUT.
func (pl Service) ListTokens(ctx context.Context, f TokenFilter, p engine.ListParams) (_ engine.Page[Token], err error) {
	ctx, op := begin(ctx, pl.e, "ListTokens")
	defer op.End(&err)
	e := pl.e
	var page engine.Page[Token]
	err = e.View(ctx, func(t *engine.Txn) error {
		var err error
		q := engine.ListQuery[Token]{Table: tableTokens, Index: engine.IxAll, From: f.CreatedAfter, To: f.CreatedBefore,
			Match: func(tok *Token) bool {
				return (f.Name == "" || tok.Name == f.Name) &&
					InRange(tok.CreatedAt, f.CreatedAfter, f.CreatedBefore) &&
					InRange(tok.UpdatedAt, f.UpdatedAfter, f.UpdatedBefore)
			}}
		page, err = engine.List(t, q.Narrowest([2]string{ixName, f.Name}), p)
		return err
	})
	return page, err
}

// ListTokensAll walks every page of ListTokens from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (pl Service) ListTokensAll(ctx context.Context, f TokenFilter, p engine.ListParams) iter.Seq2[Token, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Token], error) {
		return pl.ListTokens(ctx, f, p)
	})
}

// DeleteToken revokes a token (TOKEN_NOT_FOUND when there is none): its
// record and its client id's index entry go in one transaction, so the
// client id may be used again. Its credential stops working in this
// process at once; the cache is cleared even when the delete fails, which
// only costs store reads.
func (pl Service) DeleteToken(ctx context.Context, id string) (err error) {
	ctx, op := begin(ctx, pl.e, "DeleteToken")
	defer op.End(&err)
	e := pl.e
	defer platformSlot.Of(e).auth.forget()
	return engine.Once(ctx, e, id, &struct{}{}, func(t *engine.Txn) error {
		var rec tokenRecord
		if err := engine.GetJSON(t, tableTokens, id, &rec); err != nil {
			return engine.NotFound(err, engine.CodeTokenNotFound, "token", id)
		}
		if err := t.Delete(tableTokenClients, rec.ClientID); err != nil && !errors.Is(err, engine.ErrNotFound) {
			return err
		}
		return t.Delete(tableTokens, id)
	})
}

// InRange reports whether ts lies within the inclusive bounds; zero bounds
// are open. Every area's list filters (createdAfter, updatedBefore, ...)
// use it, so the bounds mean the same everywhere.
func InRange(ts, after, before time.Time) bool {
	return (after.IsZero() || !ts.Before(after)) && (before.IsZero() || !ts.After(before))
}
