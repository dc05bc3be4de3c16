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

// envOf is the provider environment of e's platform mode.
func envOf(e *engine.Handle) string {
	if e.Config.Sandbox {
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
func (s Service) LinkProviderAccount(ctx context.Context, req LinkRequest) (*ProviderAccount, error) {
	return engine.Run(ctx, s.e, linkAccount, req)
}

// linkAccount is Service.LinkProviderAccount's operation: the provider
// verifies the credentials outside every transaction.
var linkAccount = engine.Op[LinkRequest, *ProviderAccount, ProviderAccountInfo]{Area: "stablecoins", Name: "LinkProviderAccount",
	Validate: func(req *LinkRequest) error { return engine.Invalid(req.Validate()) },
	Prefetch: func(ctx context.Context, e *engine.Handle, req *LinkRequest, info *ProviderAccountInfo, _ error) error {
		var err error
		if *info, err = stablecoinsSlot.Of(e).Provider.VerifyAccount(ctx, envOf(e), *req); err != nil {
			return providerError(err)
		}
		return nil
	},
	Decide: func(t *engine.Txn, req *LinkRequest, info *ProviderAccountInfo) (*ProviderAccount, error) {
		now := t.Now
		r := linkRecord{ProviderAccount: ProviderAccount{ID: t.NewID("StablecoinProviderAccount"),
			Provider: req.Provider, ProviderAccountID: info.ProviderAccountID, ProviderEnvironment: envOf(t.Handle),
			Status: LinkActive, LastVerifiedAt: &now, CreatedAt: now, UpdatedAt: now},
			APIClientID: req.APIClientID, APIClientSecret: req.APIClientSecret}
		key := r.Provider + "|" + r.ProviderEnvironment + "|" + r.ProviderAccountID
		if err := engine.Claim(t, tableStablecoinLinkKeys, key, r.ID, engine.Errorf(engine.CodeConflict, "provider account %s is already linked", r.ProviderAccountID)); err != nil {
			return nil, err
		}
		if err := engine.InsertJSON(t, tableStablecoinLinks, r.ID, r); err != nil {
			return nil, err
		}
		return &r.ProviderAccount, nil
	}}

// ProviderAccount returns a link (STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND).
func (s Service) ProviderAccount(ctx context.Context, id string) (*ProviderAccount, error) {
	return engine.Run(ctx, s.e, getLink, id)
}

// getLink is Service.ProviderAccount's operation.
var getLink = engine.Op[string, *ProviderAccount, struct{}]{Area: "stablecoins", Name: "ProviderAccount", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*ProviderAccount, error) {
		r, err := stablecoinLink(t, *id)
		if err != nil {
			return nil, err
		}
		return &r.ProviderAccount, nil
	}}

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
func (s Service) ListProviderAccounts(ctx context.Context, f ProviderAccountFilter, p engine.ListParams) (engine.Page[ProviderAccount], error) {
	return engine.Run(ctx, s.e, listLinks, linkList{f, p})
}

// linkList is a ListProviderAccounts request.
type linkList struct {
	f ProviderAccountFilter
	p engine.ListParams
}

// listLinks is Service.ListProviderAccounts's operation.
var listLinks = engine.Op[linkList, engine.Page[ProviderAccount], struct{}]{Area: "stablecoins", Name: "ListProviderAccounts", Access: engine.Read,
	Decide: func(t *engine.Txn, in *linkList, _ *struct{}) (engine.Page[ProviderAccount], error) {
		f := in.f
		q := engine.ListQuery[linkRecord]{Table: tableStablecoinLinks, Index: engine.IxAll, Match: func(r *linkRecord) bool {
			return (f.Provider == "" || r.Provider == f.Provider) && (f.Status == "" || r.Status == f.Status)
		}}
		recs, err := engine.List(t, q.Narrowest([2]string{engine.IxStatus, string(f.Status)}), in.p)
		if err != nil {
			return engine.Page[ProviderAccount]{}, err
		}
		return engine.MapPage(recs, func(r *linkRecord) (*ProviderAccount, error) { return &r.ProviderAccount, nil })
	}}

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
func (s Service) SetProviderAccountStatus(ctx context.Context, id string, status LinkStatus) (*ProviderAccount, error) {
	return engine.Run(ctx, s.e, setLinkStatus, [2]string{id, string(status)})
}

// setLinkStatus is Service.SetProviderAccountStatus's operation; its
// request is [id, status].
var setLinkStatus = engine.Op[[2]string, *ProviderAccount, struct{}]{Area: "stablecoins", Name: "SetProviderAccountStatus",
	Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (*ProviderAccount, error) {
		status := LinkStatus(in[1])
		r, err := stablecoinLink(t, in[0])
		if err != nil {
			return nil, err
		}
		switch status {
		case LinkActive:
			now := t.Now
			r.LastVerifiedAt = &now
		case LinkInvalid, LinkRevoked:
		default:
			return nil, engine.Errorf(engine.CodeInvalidInput, "status must be ACTIVE, INVALID or REVOKED")
		}
		r.Status, r.UpdatedAt = status, t.Now
		if err := engine.PutJSON(t, tableStablecoinLinks, r.ID, r); err != nil {
			return nil, err
		}
		return &r.ProviderAccount, nil
	}}

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
func (s Service) Register(ctx context.Context, req RegisterRequest) (*Stablecoin, error) {
	return engine.Run(ctx, s.e, register, req)
}

// registered is what a registration gathers before its transaction: the
// link chosen and the provider's token.
type registered struct {
	link *linkRecord
	tok  StablecoinToken
}

// register is Service.Register's operation: the link is chosen in a read
// and the provider asked outside every transaction.
var register = engine.Op[RegisterRequest, *Stablecoin, registered]{Area: "stablecoins", Name: "Register",
	Validate: func(req *RegisterRequest) error { return engine.Invalid(req.Validate()) },
	Prefetch: func(ctx context.Context, e *engine.Handle, req *RegisterRequest, f *registered, _ error) error {
		if err := e.View(ctx, func(t *engine.Txn) (err error) {
			f.link, err = selectLink(t, req.StablecoinProviderAccountID)
			return err
		}); err != nil {
			return err
		}
		var err error
		if f.tok, err = stablecoinsSlot.Of(e).Provider.Token(ctx, f.link.ref(), req.ProviderTokenIdentifier, req.Network, req.NetworkTokenIdentifier); err != nil {
			return providerError(err)
		}
		return nil
	},
	Decide: func(t *engine.Txn, req *RegisterRequest, f *registered) (*Stablecoin, error) {
		tok := f.tok
		l, err := selectLink(t, req.StablecoinProviderAccountID)
		if err != nil {
			return nil, err
		}
		if l.ID != f.link.ID {
			return nil, engine.Errorf(CodeStablecoinProviderAccountSelectionRequired, "the platform's provider account links changed; pass stablecoinProviderAccountId")
		}
		c := Stablecoin{ID: t.NewID("Stablecoin"), Name: tok.Name, Symbol: tok.Symbol, BaseCurrency: tok.BaseCurrency,
			Network: req.Network, Decimals: tok.Decimals, IssuanceStatus: tok.IssuanceStatus,
			ServiceOperationsStatus: OpsNotEnabled, NetworkTokenIdentifier: req.NetworkTokenIdentifier,
			Provider: l.Provider, StablecoinProviderAccountID: l.ID, ProviderEnvironment: l.ProviderEnvironment,
			ProviderTokenIdentifier: req.ProviderTokenIdentifier, CreatedAt: t.Now, UpdatedAt: t.Now}
		taken := engine.Errorf(CodeStablecoinTokenIdentifierAlreadyExists, "token %s is already registered", req.NetworkTokenIdentifier)
		if err := engine.Claim(t, tableStablecoinTokens, "network|"+c.Network+"|"+c.NetworkTokenIdentifier, c.ID, taken); err != nil {
			return nil, err
		}
		taken = engine.Errorf(CodeStablecoinTokenIdentifierAlreadyExists, "provider token %s is already registered", req.ProviderTokenIdentifier)
		if err := engine.Claim(t, tableStablecoinTokens, "provider|"+c.Provider+"|"+c.ProviderEnvironment+"|"+c.ProviderTokenIdentifier, c.ID, taken); err != nil {
			return nil, err
		}
		if err := engine.Claim(t, tableStablecoinSymbols, c.Symbol, c.ID, engine.Errorf(CodeStablecoinSymbolAlreadyExists, "symbol %s is already registered", c.Symbol)); err != nil {
			return nil, err
		}
		if err := engine.InsertJSON(t, tableStablecoins, c.ID, c); err != nil {
			return nil, err
		}
		return &c, nil
	}}

// Get returns a stablecoin (STABLECOIN_NOT_FOUND).
func (s Service) Get(ctx context.Context, id string) (*Stablecoin, error) {
	return engine.Run(ctx, s.e, getCoin, id)
}

// getCoin is Service.Get's operation.
var getCoin = engine.Op[string, *Stablecoin, struct{}]{Area: "stablecoins", Name: "Get", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Stablecoin, error) { return stablecoin(t, *id) }}

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
func (s Service) List(ctx context.Context, f StablecoinFilter, p engine.ListParams) (engine.Page[Stablecoin], error) {
	return engine.Run(ctx, s.e, listCoins, coinList{f, p})
}

// coinList is a List request.
type coinList struct {
	f StablecoinFilter
	p engine.ListParams
}

// listCoins is Service.List's operation.
var listCoins = engine.Op[coinList, engine.Page[Stablecoin], struct{}]{Area: "stablecoins", Name: "List", Access: engine.Read,
	Decide: func(t *engine.Txn, in *coinList, _ *struct{}) (engine.Page[Stablecoin], error) {
		f := in.f
		q := engine.ListQuery[Stablecoin]{Table: tableStablecoins, Index: engine.IxAll, Match: func(c *Stablecoin) bool {
			return (f.IssuanceStatus == "" || c.IssuanceStatus == f.IssuanceStatus) &&
				(f.ServiceOperationsStatus == "" || c.ServiceOperationsStatus == f.ServiceOperationsStatus) &&
				(f.Provider == "" || c.Provider == f.Provider)
		}}
		return engine.List(t, q.Narrowest([2]string{ixOpsStatus, string(f.ServiceOperationsStatus)}, [2]string{engine.IxStatus, string(f.IssuanceStatus)}), in.p)
	}}

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
func (s Service) RequestEnablement(ctx context.Context, id string) (*Stablecoin, error) {
	return engine.Run(ctx, s.e, requestEnablement, [2]string{id, "request"})
}

// requestEnablement is Service.RequestEnablement's operation; its request
// is [id, "request"].
var requestEnablement = engine.Op[[2]string, *Stablecoin, struct{}]{Area: "stablecoins", Name: "RequestEnablement",
	Decide: moveOps(func(c *Stablecoin, _ string) (OpsStatus, error) {
		return RequestEnablement(c.ServiceOperationsStatus)
	})}

// SetOperationsStatus is the operator's move of a stablecoin's
// enablement (OperatorSet: approve to ENABLING, finish to
// ENABLED, decline to NOT_ENABLED, disable and re-enable); other moves are
// INVALID_STATE_TRANSITION. An ENABLED stablecoin gets its Service
// currency code, its symbol.
func (s Service) SetOperationsStatus(ctx context.Context, id string, to OpsStatus) (*Stablecoin, error) {
	return engine.Run(ctx, s.e, setOpsStatus, [2]string{id, string(to)})
}

// setOpsStatus is Service.SetOperationsStatus's operation; its request is
// [id, status].
var setOpsStatus = engine.Op[[2]string, *Stablecoin, struct{}]{Area: "stablecoins", Name: "SetOperationsStatus",
	Decide: moveOps(func(c *Stablecoin, to string) (OpsStatus, error) {
		return OpsStatus(to), OperatorSet(c.ServiceOperationsStatus, OpsStatus(to))
	})}

// moveOps is the Decide of an enablement move, on a request [id, input]:
// decide answers the next state from the current one and the input, or a
// refusal of the rules. A move to the current state writes nothing and
// answers the stablecoin as it is.
func moveOps(decide func(c *Stablecoin, input string) (OpsStatus, error)) func(t *engine.Txn, in *[2]string, _ *struct{}) (*Stablecoin, error) {
	return func(t *engine.Txn, in *[2]string, _ *struct{}) (*Stablecoin, error) {
		c, err := stablecoin(t, in[0])
		if err != nil {
			return nil, err
		}
		next, err := decide(c, in[1])
		if err != nil {
			return nil, stablecoinError(err)
		}
		if next == c.ServiceOperationsStatus {
			return c, nil
		}
		c.ServiceOperationsStatus, c.UpdatedAt = next, t.Now
		if next == OpsEnabled {
			c.Currency = c.Symbol
		}
		if err := engine.PutJSON(t, tableStablecoins, c.ID, c); err != nil {
			return nil, err
		}
		return c, nil
	}
}

// SetIssuanceStatus records the provider's issuance state of a token
// (PENDING_REVIEW, PROVISIONING, PROVISIONED, REJECTED, FAILED). Only a
// PROVISIONED token mints and burns (STABLECOIN_NOT_PROVISIONED). Any
// state may follow any other, as the provider reports it; another value is
// INVALID_INPUT. Operations already created keep running.
func (s Service) SetIssuanceStatus(ctx context.Context, id string, status IssuanceStatus) (*Stablecoin, error) {
	return engine.Run(ctx, s.e, setIssuance, [2]string{id, string(status)})
}

// setIssuance is Service.SetIssuanceStatus's operation; its request is
// [id, status].
var setIssuance = engine.Op[[2]string, *Stablecoin, struct{}]{Area: "stablecoins", Name: "SetIssuanceStatus",
	Validate: func(in *[2]string) error {
		switch status := IssuanceStatus(in[1]); status {
		case IssuancePendingReview, IssuanceProvisioning, IssuanceProvisioned,
			IssuanceRejected, IssuanceFailed:
			return nil
		default:
			return engine.Errorf(engine.CodeInvalidInput, "issuanceStatus %q is not a StablecoinIssuanceStatus", status)
		}
	},
	Decide: func(t *engine.Txn, in *[2]string, _ *struct{}) (*Stablecoin, error) {
		c, err := stablecoin(t, in[0])
		if err != nil {
			return nil, err
		}
		c.IssuanceStatus, c.UpdatedAt = IssuanceStatus(in[1]), t.Now
		if err := engine.PutJSON(t, tableStablecoins, c.ID, c); err != nil {
			return nil, err
		}
		return c, nil
	}}
