package stablecoins

import (
	"context"
	"errors"
	"iter"
	"strings"

	"github.com/paygrid/payments/internal/engine"
)

// Stablecoin tables: links (with their write-only credentials), the unique
// provider account of each link, registered tokens, the unique symbols and
// token identifiers, operations, and operation steps due on the clock.
const (
	tableStablecoinLinks    = "stablecoin_links"
	tableStablecoinLinkKeys = "stablecoin_link_keys"
	tableStablecoins        = "stablecoins"
	tableStablecoinSymbols  = "stablecoin_symbols"
	tableStablecoinTokens   = "stablecoin_tokens"
	tableStablecoinOps      = "stablecoin_ops"
	tableStablecoinOpsDue   = "stablecoin_ops_due"
)

// Index names of the stablecoin tables.
const (
	ixOpsStatus = "ops"      // stablecoins: serviceOperationsStatus
	ixCoin      = "coin"     // operations: stablecoinId
	ixCoinType  = "coinType" // operations: stablecoinId/operationType
)

// Service is the stablecoin issuance area: provider-account links,
// registered tokens, their Service-enablement state, and mints and burns,
// whose fiat value moves through the ledger (the token's reserve account,
// Reserve). Reach it as eng.Stablecoins (payments.Stablecoins).
type Service struct{ e *engine.Handle }

// NewService returns the Stablecoins group of h.
func NewService(h *engine.Handle) Service { return Service{h} }

// linkRecord is a link as stored: the API view plus the credentials the
// provider is called with. The secret never leaves the engine.
type linkRecord struct {
	ProviderAccount
	APIClientID     string `json:"apiClientId"`
	APIClientSecret string `json:"apiClientSecret"`
}

// ref names the link, with its credentials, in a call to the provider.
func (r *linkRecord) ref() ProviderAccountRef {
	return ProviderAccountRef{LinkID: r.ID, Provider: r.Provider, Environment: r.ProviderEnvironment,
		ProviderAccountID: r.ProviderAccountID, APIClientID: r.APIClientID, APIClientSecret: r.APIClientSecret}
}

// env is the provider environment of the platform's mode.
func (s Service) env() string {
	if s.e.Config.Sandbox {
		return EnvSandbox
	}
	return EnvProduction
}

// stablecoinError maps a refusal of the stablecoins package to its code;
// other errors pass unchanged.
func stablecoinError(err error) error {
	codes := []struct {
		sentinel error
		code     engine.Code
	}{
		{ErrNoLink, CodeStablecoinProviderAccountNotFound},
		{ErrSelectionRequired, CodeStablecoinProviderAccountSelectionRequired},
		{ErrLinkInvalid, CodeStablecoinProviderAccountInvalid},
		{ErrLinkRevoked, CodeStablecoinProviderAccountRevoked},
		{ErrNotRequestable, CodeStablecoinServiceEnablementNotRequestable},
		{ErrNotRepresentable, CodeStablecoinAmountNotRepresentable},
		{ErrNotProvisioned, CodeStablecoinNotProvisioned},
		{ErrOpsNotEnabled, CodeStablecoinServiceOperationsNotEnabled},
		{ErrOpNotSupported, CodeStablecoinOperationNotSupported},
		{ErrBurnSourceNotSupported, CodeStablecoinBurnSourceNotSupported},
		{ErrExternalNotSupported, CodeStablecoinExternalAccountNotSupported},
		{ErrTransition, engine.CodeInvalidStateTransition},
	}
	for _, c := range codes {
		if errors.Is(err, c.sentinel) {
			return &engine.Error{Code: c.code, Message: err.Error(), Err: err}
		}
	}
	return engine.Invalid(err) // field errors; nil stays nil
}

// providerError passes the provider's coded answers and SERVICE_UNAVAILABLE
// through and answers anything else as STABLECOIN_PROVIDER_ERROR.
func providerError(err error) error {
	var pe *engine.Error
	if errors.As(err, &pe) {
		return pe
	}
	return &engine.Error{Code: CodeStablecoinProviderError, Message: "the stablecoin provider could not complete the request", Err: err}
}

// LinkProviderAccount verifies API credentials with the provider and links
// the account they open (ACTIVE). The secret is write-only: it is kept to
// call the provider and never returned. The same provider account linked
// twice is CONFLICT. Bad fields are INVALID_INPUT; refused credentials
// STABLECOIN_VERIFICATION_FAILED, or whatever coded error the provider
// answers (providerError). The provider is asked before the transaction
// and only after an idempotent replay was ruled out, so a retry under the
// same idempotency key does not ask it again.
func (s Service) LinkProviderAccount(ctx context.Context, req LinkRequest) (_ *ProviderAccount, err error) {
	ctx, op := begin(ctx, s.e, "LinkProviderAccount")
	defer op.End(&err)
	e := s.e
	if err := engine.Invalid(req.Validate()); err != nil {
		return nil, err
	}
	var out *ProviderAccount
	if ok, err := engine.Replay(ctx, e, req, &out); ok {
		return out, err
	}
	info, err := stablecoinsSlot.Of(e).Provider.VerifyAccount(ctx, s.env(), req)
	if err != nil {
		return nil, providerError(err)
	}
	err = engine.Once(ctx, e, req, &out, func(t *engine.Txn) error {
		now := t.Now
		r := linkRecord{ProviderAccount: ProviderAccount{ID: t.NewID("StablecoinProviderAccount"),
			Provider: req.Provider, ProviderAccountID: info.ProviderAccountID, ProviderEnvironment: s.env(),
			Status: LinkActive, LastVerifiedAt: &now, CreatedAt: now, UpdatedAt: now},
			APIClientID: req.APIClientID, APIClientSecret: req.APIClientSecret}
		key := r.Provider + "|" + r.ProviderEnvironment + "|" + r.ProviderAccountID
		if err := engine.Claim(t, tableStablecoinLinkKeys, key, r.ID, engine.Errorf(engine.CodeConflict, "provider account %s is already linked", r.ProviderAccountID)); err != nil {
			return err
		}
		out = &r.ProviderAccount
		return engine.InsertJSON(t, tableStablecoinLinks, r.ID, r)
	})
	return out, err
}

// ProviderAccount returns a link (STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND).
func (s Service) ProviderAccount(ctx context.Context, id string) (_ *ProviderAccount, err error) {
	ctx, op := begin(ctx, s.e, "ProviderAccount")
	defer op.End(&err)
	var r *linkRecord
	err = s.e.View(ctx, func(t *engine.Txn) (err error) { r, err = stablecoinLink(t, id); return err })
	if err != nil {
		return nil, err
	}
	return &r.ProviderAccount, nil
}

// stablecoinLink loads a link with its credentials
// (STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND).
func stablecoinLink(t *engine.Txn, id string) (*linkRecord, error) {
	var r linkRecord
	if err := engine.GetJSON(t, tableStablecoinLinks, id, &r); err != nil {
		return nil, engine.NotFound(err, CodeStablecoinProviderAccountNotFound, "stablecoin provider account", id)
	}
	return &r, nil
}

// ProviderAccountFilter narrows ListProviderAccounts; zero members match all.
type ProviderAccountFilter struct {
	Provider string
	Status   LinkStatus
}

// ListProviderAccounts lists the platform's links in creation order
// (newest first with p.Desc), from the status index when a status is given.
func (s Service) ListProviderAccounts(ctx context.Context, f ProviderAccountFilter, p engine.ListParams) (_ engine.Page[ProviderAccount], err error) {
	ctx, op := begin(ctx, s.e, "ListProviderAccounts")
	defer op.End(&err)
	var page engine.Page[ProviderAccount]
	err = s.e.View(ctx, func(t *engine.Txn) error {
		q := engine.ListQuery[linkRecord]{Table: tableStablecoinLinks, Index: engine.IxAll, Match: func(r *linkRecord) bool {
			return (f.Provider == "" || r.Provider == f.Provider) && (f.Status == "" || r.Status == f.Status)
		}}
		recs, err := engine.List(t, q.Narrowest([2]string{engine.IxStatus, string(f.Status)}), p)
		if err != nil {
			return err
		}
		page, err = engine.MapPage(recs, func(r *linkRecord) (*ProviderAccount, error) { return &r.ProviderAccount, nil })
		return err
	})
	return page, err
}

// ListProviderAccountsAll walks every page of ListProviderAccounts from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (s Service) ListProviderAccountsAll(ctx context.Context, f ProviderAccountFilter, p engine.ListParams) iter.Seq2[ProviderAccount, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[ProviderAccount], error) {
		return s.ListProviderAccounts(ctx, f, p)
	})
}

// SetProviderAccountStatus records what the provider or the operator
// learned about a link: INVALID when its credentials stop verifying,
// REVOKED when it was withdrawn, ACTIVE when it verifies again. Requests
// naming a link that is not ACTIVE are refused with
// STABLECOIN_PROVIDER_ACCOUNT_INVALID or _REVOKED. Any status may follow
// any other; another value is INVALID_INPUT, an unknown link
// STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND. Tokens and operations of the link
// keep their records; new operations on them are refused while it is not
// ACTIVE.
func (s Service) SetProviderAccountStatus(ctx context.Context, id string, status LinkStatus) (_ *ProviderAccount, err error) {
	ctx, op := begin(ctx, s.e, "SetProviderAccountStatus")
	defer op.End(&err)
	var out *ProviderAccount
	err = engine.Once(ctx, s.e, []string{id, string(status)}, &out, func(t *engine.Txn) error {
		r, err := stablecoinLink(t, id)
		if err != nil {
			return err
		}
		switch status {
		case LinkActive:
			now := t.Now
			r.LastVerifiedAt = &now
		case LinkInvalid, LinkRevoked:
		default:
			return engine.Errorf(engine.CodeInvalidInput, "status must be ACTIVE, INVALID or REVOKED")
		}
		r.Status, r.UpdatedAt = status, t.Now
		out = &r.ProviderAccount
		return engine.PutJSON(t, tableStablecoinLinks, r.ID, r)
	})
	return out, err
}

// selectLink picks the link a request uses (Select) from the status index:
// up to two ACTIVE links (two are enough to know the choice is ambiguous),
// and one INVALID and one REVOKED to explain why none is usable. Reading
// no more keeps the cost constant however many links a platform has.
func selectLink(t *engine.Txn, named string) (*linkRecord, error) {
	if named != "" {
		r, err := stablecoinLink(t, named)
		if err != nil {
			return nil, err
		}
		_, err = Select([]Link{{ID: r.ID, Status: r.Status}}, named)
		return r, stablecoinError(err)
	}
	var links []Link
	for _, st := range []struct {
		status LinkStatus
		n      int
	}{{LinkActive, 2}, {LinkInvalid, 1}, {LinkRevoked, 1}} {
		n := 0
		err := t.Scan(engine.IndexTable(tableStablecoinLinks, engine.IxStatus), engine.ScanOptions{Prefix: engine.EscapeValue(string(st.status)) + "|"}, func(k string, _ []byte) (bool, error) {
			links = append(links, Link{ID: k[strings.LastIndexByte(k, '|')+1:], Status: st.status})
			n++
			return n < st.n, nil
		})
		if err != nil {
			return nil, err
		}
	}
	l, err := Select(links, "")
	if err != nil {
		return nil, stablecoinError(err)
	}
	return stablecoinLink(t, l.ID)
}

// Register registers a token the linked provider account already issued.
// The link is the one named, or the platform's only ACTIVE one (several:
// STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED). The provider supplies
// the token's name, symbol, decimals and issuance state; a symbol or token
// identifier registered before is 409 STABLECOIN_SYMBOL_ALREADY_EXISTS or
// STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS. It starts NOT_ENABLED for the
// Service's operations. The provider's answer to an unknown or mismatched
// token is STABLECOIN_VERIFICATION_FAILED; a token the provider has not
// PROVISIONED is still registered, with its issuance status. The link is
// chosen again in the transaction: if it changed since the provider was
// asked, the request is STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED
// rather than registering under another link.
func (s Service) Register(ctx context.Context, req RegisterRequest) (_ *Stablecoin, err error) {
	ctx, op := begin(ctx, s.e, "Register")
	defer op.End(&err)
	e := s.e
	if err := engine.Invalid(req.Validate()); err != nil {
		return nil, err
	}
	var out *Stablecoin
	if ok, err := engine.Replay(ctx, e, req, &out); ok {
		return out, err
	}
	var link *linkRecord
	if err := e.View(ctx, func(t *engine.Txn) (err error) {
		link, err = selectLink(t, req.StablecoinProviderAccountID)
		return err
	}); err != nil {
		return nil, err
	}
	tok, err := stablecoinsSlot.Of(e).Provider.Token(ctx, link.ref(), req.ProviderTokenIdentifier, req.Network, req.NetworkTokenIdentifier)
	if err != nil {
		return nil, providerError(err)
	}
	err = engine.Once(ctx, e, req, &out, func(t *engine.Txn) error {
		l, err := selectLink(t, req.StablecoinProviderAccountID)
		if err != nil {
			return err
		}
		if l.ID != link.ID {
			return engine.Errorf(CodeStablecoinProviderAccountSelectionRequired, "the platform's provider account links changed; pass stablecoinProviderAccountId")
		}
		c := Stablecoin{ID: t.NewID("Stablecoin"), Name: tok.Name, Symbol: tok.Symbol, BaseCurrency: tok.BaseCurrency,
			Network: req.Network, Decimals: tok.Decimals, IssuanceStatus: tok.IssuanceStatus,
			ServiceOperationsStatus: OpsNotEnabled, NetworkTokenIdentifier: req.NetworkTokenIdentifier,
			Provider: l.Provider, StablecoinProviderAccountID: l.ID, ProviderEnvironment: l.ProviderEnvironment,
			ProviderTokenIdentifier: req.ProviderTokenIdentifier, CreatedAt: t.Now, UpdatedAt: t.Now}
		taken := engine.Errorf(CodeStablecoinTokenIdentifierAlreadyExists, "token %s is already registered", req.NetworkTokenIdentifier)
		if err := engine.Claim(t, tableStablecoinTokens, "network|"+c.Network+"|"+c.NetworkTokenIdentifier, c.ID, taken); err != nil {
			return err
		}
		taken = engine.Errorf(CodeStablecoinTokenIdentifierAlreadyExists, "provider token %s is already registered", req.ProviderTokenIdentifier)
		if err := engine.Claim(t, tableStablecoinTokens, "provider|"+c.Provider+"|"+c.ProviderEnvironment+"|"+c.ProviderTokenIdentifier, c.ID, taken); err != nil {
			return err
		}
		if err := engine.Claim(t, tableStablecoinSymbols, c.Symbol, c.ID, engine.Errorf(CodeStablecoinSymbolAlreadyExists, "symbol %s is already registered", c.Symbol)); err != nil {
			return err
		}
		out = &c
		return engine.InsertJSON(t, tableStablecoins, c.ID, c)
	})
	return out, err
}

// Get returns a stablecoin (STABLECOIN_NOT_FOUND).
func (s Service) Get(ctx context.Context, id string) (_ *Stablecoin, err error) {
	ctx, op := begin(ctx, s.e, "Get")
	defer op.End(&err)
	var c *Stablecoin
	err = s.e.View(ctx, func(t *engine.Txn) (err error) { c, err = stablecoin(t, id); return err })
	return c, err
}

// stablecoin loads a registered stablecoin (STABLECOIN_NOT_FOUND).
func stablecoin(t *engine.Txn, id string) (*Stablecoin, error) {
	var c Stablecoin
	if err := engine.GetJSON(t, tableStablecoins, id, &c); err != nil {
		return nil, engine.NotFound(err, CodeStablecoinNotFound, "stablecoin", id)
	}
	return &c, nil
}

// StablecoinFilter narrows List; zero members match all.
type StablecoinFilter struct {
	IssuanceStatus          IssuanceStatus
	ServiceOperationsStatus OpsStatus
	Provider                string
}

// List lists registered stablecoins in creation order (newest first with
// p.Desc), from the index of the enablement or issuance status when given.
func (s Service) List(ctx context.Context, f StablecoinFilter, p engine.ListParams) (_ engine.Page[Stablecoin], err error) {
	ctx, op := begin(ctx, s.e, "List")
	defer op.End(&err)
	var page engine.Page[Stablecoin]
	err = s.e.View(ctx, func(t *engine.Txn) error {
		q := engine.ListQuery[Stablecoin]{Table: tableStablecoins, Index: engine.IxAll, Match: func(c *Stablecoin) bool {
			return (f.IssuanceStatus == "" || c.IssuanceStatus == f.IssuanceStatus) &&
				(f.ServiceOperationsStatus == "" || c.ServiceOperationsStatus == f.ServiceOperationsStatus) &&
				(f.Provider == "" || c.Provider == f.Provider)
		}}
		var err error
		page, err = engine.List(t, q.Narrowest([2]string{ixOpsStatus, string(f.ServiceOperationsStatus)}, [2]string{engine.IxStatus, string(f.IssuanceStatus)}), p)
		return err
	})
	return page, err
}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (s Service) ListAll(ctx context.Context, f StablecoinFilter, p engine.ListParams) iter.Seq2[Stablecoin, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Stablecoin], error) {
		return s.List(ctx, f, p)
	})
}

// RequestEnablement asks the operator to enable a stablecoin for the
// Service's operations: from NOT_ENABLED it becomes
// PENDING_APPROVAL, a repeat while PENDING_APPROVAL succeeds unchanged,
// and from ENABLING, ENABLED or DISABLED it is 409
// STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE.
func (s Service) RequestEnablement(ctx context.Context, id string) (_ *Stablecoin, err error) {
	ctx, op := begin(ctx, s.e, "RequestEnablement")
	defer op.End(&err)
	return s.moveOps(ctx, id, "request", func(c *Stablecoin) (OpsStatus, error) {
		return RequestEnablement(c.ServiceOperationsStatus)
	})
}

// SetOperationsStatus is the operator's move of a stablecoin's
// enablement (OperatorSet: approve to ENABLING, finish to
// ENABLED, decline to NOT_ENABLED, disable and re-enable); other moves are
// INVALID_STATE_TRANSITION. An ENABLED stablecoin gets its Service
// currency code, its symbol.
func (s Service) SetOperationsStatus(ctx context.Context, id string, to OpsStatus) (_ *Stablecoin, err error) {
	ctx, op := begin(ctx, s.e, "SetOperationsStatus")
	defer op.End(&err)
	return s.moveOps(ctx, id, string(to), func(c *Stablecoin) (OpsStatus, error) {
		return to, OperatorSet(c.ServiceOperationsStatus, to)
	})
}

// moveOps runs one enablement move: decide answers the next state from the
// current one, or a refusal of the rules. A move to the current state
// writes nothing and answers the stablecoin as it is.
func (s Service) moveOps(ctx context.Context, id, input string, decide func(*Stablecoin) (OpsStatus, error)) (*Stablecoin, error) {
	var out *Stablecoin
	err := engine.Once(ctx, s.e, []string{id, input}, &out, func(t *engine.Txn) error {
		c, err := stablecoin(t, id)
		if err != nil {
			return err
		}
		next, err := decide(c)
		if err != nil {
			return stablecoinError(err)
		}
		out = c
		if next == c.ServiceOperationsStatus {
			return nil
		}
		c.ServiceOperationsStatus, c.UpdatedAt = next, t.Now
		if next == OpsEnabled {
			c.Currency = c.Symbol
		}
		return engine.PutJSON(t, tableStablecoins, c.ID, c)
	})
	return out, err
}

// SetIssuanceStatus records the provider's issuance state of a token
// (PENDING_REVIEW, PROVISIONING, PROVISIONED, REJECTED, FAILED). Only a
// PROVISIONED token mints and burns (STABLECOIN_NOT_PROVISIONED). Any
// state may follow any other, as the provider reports it; another value is
// INVALID_INPUT. Operations already created keep running.
func (s Service) SetIssuanceStatus(ctx context.Context, id string, status IssuanceStatus) (_ *Stablecoin, err error) {
	ctx, op := begin(ctx, s.e, "SetIssuanceStatus")
	defer op.End(&err)
	switch status {
	case IssuancePendingReview, IssuanceProvisioning, IssuanceProvisioned,
		IssuanceRejected, IssuanceFailed:
	default:
		return nil, engine.Errorf(engine.CodeInvalidInput, "issuanceStatus %q is not a StablecoinIssuanceStatus", status)
	}
	var out *Stablecoin
	err = engine.Once(ctx, s.e, []string{id, string(status)}, &out, func(t *engine.Txn) error {
		c, err := stablecoin(t, id)
		if err != nil {
			return err
		}
		c.IssuanceStatus, c.UpdatedAt = status, t.Now
		out = c
		return engine.PutJSON(t, tableStablecoins, c.ID, c)
	})
	return out, err
}
