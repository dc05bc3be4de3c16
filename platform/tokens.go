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
func (pl Service) CreateToken(ctx context.Context, req CreateTokenRequest) (*CreatedToken, error) {
	return engine.Run(ctx, pl.e, createToken, req)
}

// createToken is Service.CreateToken's operation. The answer, secret
// included, is what a retry with the same idempotency key replays.
var createToken = engine.Op[CreateTokenRequest, *CreatedToken, CreatedToken]{Area: "platform", Name: "CreateToken",
	Validate: checkTokenRequest,
	Prefetch: func(_ context.Context, e *engine.Handle, req *CreateTokenRequest, out *CreatedToken, _ error) error {
		id, err := e.NewID("Token")
		if err != nil {
			return err
		}
		*out = CreatedToken{ClientSecret: req.ClientSecret}
		out.Token = Token{ID: id, Name: req.Name, Permissions: req.Permissions, ClientID: req.ClientID, CreatedAt: e.Now(), UpdatedAt: e.Now()}
		if out.ClientID == "" {
			out.ClientID = engine.RandomHex(16)
		}
		if out.ClientSecret == "" {
			out.ClientSecret = engine.RandomHex(18)
		}
		return nil
	},
	Decide: func(t *engine.Txn, _ *CreateTokenRequest, out *CreatedToken) (*CreatedToken, error) {
		if err := engine.Claim(t, tableTokenClients, out.ClientID, out.ID, engine.Errorf(engine.CodeConflict, "clientId %s is taken", out.ClientID)); err != nil {
			return nil, err
		}
		if err := engine.InsertJSON(t, tableTokens, out.ID, tokenRecord{Token: out.Token, SecretHash: engine.HashSecret(out.ClientSecret)}); err != nil {
			return nil, err
		}
		return out, nil
	},
}

// checkTokenRequest checks a token request's fields (INVALID_INPUT, every
// problem at once), then that its Issuer holds the permissions it grants
// (FORBIDDEN).
func checkTokenRequest(req *CreateTokenRequest) error {
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
		return err
	}
	if req.Issuer != nil {
		for _, p := range req.Permissions {
			if p != PermView && !req.Issuer.Has(p) {
				return engine.Errorf(engine.CodeForbidden, "this API token lacks the %s permission, so it cannot grant it", p)
			}
		}
	}
	return nil
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
func (pl Service) Authenticate(ctx context.Context, user, secret string) (*Token, error) {
	return engine.Run(ctx, pl.e, authenticate, credential{user: user, secret: secret})
}

// credential is a Basic-auth credential to check (Service.Authenticate).
type credential struct{ user, secret string }

// verification is what Authenticate gathers: the secret's hash, the
// revocation generation it began at, the token the cache remembered (the
// answer, settled before any read) or the record read.
type verification struct {
	hash [sha256.Size]byte
	gen  uint64
	tok  *Token
	rec  tokenRecord
}

// authenticate is Service.Authenticate's operation.
var authenticate = engine.Op[credential, *Token, verification]{Area: "platform", Name: "Authenticate", Access: engine.Read,
	Prefetch: func(_ context.Context, e *engine.Handle, c *credential, v *verification, _ error) error {
		if c.user == "" || c.secret == "" {
			return errUnauthorized
		}
		v.hash = sha256.Sum256([]byte(c.secret))
		v.gen = platformSlot.Of(e).auth.generation()
		if tok, ok := platformSlot.Of(e).auth.lookup(c.user, v.hash, e.Clock()); ok {
			v.tok = tok
			return engine.Settled
		}
		return nil
	},
	// An unknown client id costs what a known one with a wrong secret does:
	// the same two reads, one record decoded (a decoy's) and one hash
	// compared, so response times do not tell which client ids exist.
	Decide: func(t *engine.Txn, c *credential, v *verification) (*Token, error) {
		v.rec = tokenRecord{}
		id := c.user
		var missing error
		if !strings.HasPrefix(c.user, "Token:") {
			b, err := t.Get(tableTokenClients, c.user)
			switch {
			case err == nil:
				id = string(b)
			case errors.Is(err, engine.ErrNotFound):
				id, missing = decoyTokenID, err
			default:
				return nil, err
			}
		}
		b, err := t.Get(tableTokens, id)
		switch {
		case errors.Is(err, engine.ErrNotFound):
			b, missing = decoyToken, err
		case err != nil:
			return nil, err
		}
		if err := json.Unmarshal(b, &v.rec); err != nil {
			return nil, err
		}
		return nil, missing
	},
	Answer: func(e *engine.Handle, c *credential, v *verification, _ *Token, err error) (*Token, error) {
		if v.tok != nil {
			return v.tok, nil
		}
		want, _ := hex.DecodeString(v.rec.SecretHash)
		if len(want) == 0 {
			want = make([]byte, sha256.Size)
		}
		ok := subtle.ConstantTimeCompare(want, v.hash[:]) == 1
		if errors.Is(err, engine.ErrNotFound) || (err == nil && !ok) {
			return nil, errUnauthorized
		}
		if err != nil {
			return nil, err
		}
		tok := v.rec.Token
		platformSlot.Of(e).auth.remember(c.user, v.hash, &tok, e.Clock(), v.gen)
		return &tok, nil
	},
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
func (pl Service) Token(ctx context.Context, id string) (*Token, error) {
	return engine.Run(ctx, pl.e, getToken, id)
}

// getToken is Service.Token's operation.
var getToken = engine.Op[string, *Token, struct{}]{Area: "platform", Name: "Token", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Token, error) {
		var rec tokenRecord
		if err := engine.GetJSON(t, tableTokens, *id, &rec); err != nil {
			return nil, engine.NotFound(err, engine.CodeTokenNotFound, "token", *id)
		}
		return &rec.Token, nil
	}}

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
func (pl Service) ListTokens(ctx context.Context, f TokenFilter, p engine.ListParams) (engine.Page[Token], error) {
	return engine.Run(ctx, pl.e, listTokens, tokenQuery{f, p})
}

// tokenQuery is a ListTokens request: the filter and the page.
type tokenQuery struct {
	f TokenFilter
	p engine.ListParams
}

// listTokens is Service.ListTokens's operation.
var listTokens = engine.Op[tokenQuery, engine.Page[Token], struct{}]{Area: "platform", Name: "ListTokens", Access: engine.Read,
	Decide: func(t *engine.Txn, in *tokenQuery, _ *struct{}) (engine.Page[Token], error) {
		f := in.f
		q := engine.ListQuery[Token]{Table: tableTokens, Index: engine.IxAll, From: f.CreatedAfter, To: f.CreatedBefore,
			Match: func(tok *Token) bool {
				return (f.Name == "" || tok.Name == f.Name) &&
					InRange(tok.CreatedAt, f.CreatedAfter, f.CreatedBefore) &&
					InRange(tok.UpdatedAt, f.UpdatedAfter, f.UpdatedBefore)
			}}
		return engine.List(t, q.Narrowest([2]string{ixName, f.Name}), in.p)
	}}

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
func (pl Service) DeleteToken(ctx context.Context, id string) error {
	_, err := engine.Run(ctx, pl.e, deleteToken, id)
	return err
}

// deleteToken is Service.DeleteToken's operation; its answer clears the
// verified credentials, even when the delete failed.
var deleteToken = engine.Op[string, struct{}, struct{}]{Area: "platform", Name: "DeleteToken",
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (struct{}, error) {
		var rec tokenRecord
		if err := engine.GetJSON(t, tableTokens, *id, &rec); err != nil {
			return struct{}{}, engine.NotFound(err, engine.CodeTokenNotFound, "token", *id)
		}
		if err := t.Delete(tableTokenClients, rec.ClientID); err != nil && !errors.Is(err, engine.ErrNotFound) {
			return struct{}{}, err
		}
		return struct{}{}, t.Delete(tableTokens, *id)
	},
	Answer: func(e *engine.Handle, _ *string, _ *struct{}, out struct{}, err error) (struct{}, error) {
		platformSlot.Of(e).auth.forget()
		return out, err
	}}

// InRange reports whether ts lies within the inclusive bounds; zero bounds
// are open. Every area's list filters (createdAfter, updatedBefore, ...)
// use it, so the bounds mean the same everywhere.
func InRange(ts, after, before time.Time) bool {
	return (after.IsZero() || !ts.Before(after)) && (before.IsZero() || !ts.After(before))
}
