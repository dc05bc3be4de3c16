// Package lookups resolves the receivers of payments (a UMA address, an
// external account) into lookups a quote names by id, and pages the
// directories of the world beyond the platform (VASPs, discoveries, UMA
// providers) that the Directory port answers. It owns the lookups table;
// package quotes reads a lookup through Get and re-exports these names.
package lookups

import (
	"context"
	"iter"
	"regexp"
	"strconv"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// tableLookups holds receiver lookups by id.
const tableLookups = "lookups"

// Codes only lookups return.
const (
	// CodeRequestNotFound is a lookup id that is unknown or expired
	// (LOOKUP_REQUEST_NOT_FOUND).
	CodeRequestNotFound engine.Code = "LOOKUP_REQUEST_NOT_FOUND"
)

// Options is what payments.New gives the lookups: the Directory of
// receivers beyond the platform (nil knows nobody) and the rate source
// the lookups' estimated rates come from (quotes.Rate).
type Options struct {
	Directory Directory
	Rate      func(e *engine.Handle, ctx context.Context, from, to string) (money.Rate, time.Time, error)
}

var slot engine.Slot[Options]

// Area declares the lookups' table and codes; payments.New registers it.
func Area(o Options) engine.AreaDef {
	return engine.AreaDef{
		Codes:  map[engine.Code]int{CodeRequestNotFound: 404},
		State:  []engine.SlotEntry{slot.With(&o)},
		Tables: []engine.TableDef{{Name: tableLookups, Record: func() any { return new(record) }}},
	}
}

// LookupTTL is how long a quote may refer to a lookup. Expired lookups
// are refused (LOOKUP_REQUEST_NOT_FOUND), not deleted: nothing purges the
// table.
const LookupTTL = 15 * time.Minute

// PayerDataField is one piece of sender information a receiver requires;
// a quote to the receiver must carry each Mandatory one, non-empty, in
// senderCustomerInfo (INVALID_INPUT naming senderCustomerInfo.<name>).
type PayerDataField struct {
	Name      string `json:"name"`
	Mandatory bool   `json:"mandatory"`
}

// LookupCurrency is a currency a looked-up receiver accepts (reference
// CurrencyPreference); EstimatedExchangeRate is in units of USD per unit
// of this one (saveLookup asks for USD whatever the sender's currency), for
// display only.
type LookupCurrency struct {
	Currency              accounts.CurrencyInfo `json:"currency"`
	EstimatedExchangeRate float64               `json:"estimatedExchangeRate"`
	Min                   int64                 `json:"min"`
	Max                   int64                 `json:"max"`
}

// Lookup is the result of a receiver lookup (GET /receiver/uma/{address} or
// /receiver/external-account/{id}). A quote to a UMA address names it by
// lookupId and must supply every mandatory RequiredPayerDataFields entry in
// senderCustomerInfo. Exactly one of ReceiverUmaAddress and AccountID is set.
type Lookup struct {
	ID                      string           `json:"lookupId"`
	ReceiverUmaAddress      string           `json:"receiverUmaAddress,omitempty"`
	AccountID               string           `json:"accountId,omitempty"`
	ReceiverCustomerID      string           `json:"-"`
	CustomerID              string           `json:"-"` // the sender it was made for, if any
	SupportedCurrencies     []LookupCurrency `json:"supportedCurrencies"`
	RequiredPayerDataFields []PayerDataField `json:"requiredPayerDataFields"`
	CreatedAt               time.Time        `json:"-"`
	ExpiresAt               time.Time        `json:"-"`
}

// record stores a Lookup with the members the API does not show.
type record struct {
	Lookup
	ReceiverCustomerID string    `json:"receiverCustomerId,omitempty"`
	CustomerID         string    `json:"customerId,omitempty"`
	CreatedAt          time.Time `json:"createdAt"`
	ExpiresAt          time.Time `json:"expiresAt"`
}

// Get loads a lookup in t: LOOKUP_REQUEST_NOT_FOUND when absent or
// expired.
func Get(t *engine.Txn, id string) (*Lookup, error) {
	var r record
	if err := engine.GetJSON(t, tableLookups, id, &r); err != nil {
		return nil, engine.NotFound(err, CodeRequestNotFound, "lookup", id)
	}
	if t.Now.After(r.ExpiresAt) {
		return nil, engine.Errorf(CodeRequestNotFound, "lookup %s expired; look the receiver up again", id)
	}
	l := r.Lookup
	l.ReceiverCustomerID, l.CustomerID, l.CreatedAt, l.ExpiresAt = r.ReceiverCustomerID, r.CustomerID, r.CreatedAt, r.ExpiresAt
	return &l, nil
}

// reUmaAddress accepts "$user@domain" (the "$" may be omitted on input).
var reUmaAddress = regexp.MustCompile(`^\$?[a-zA-Z0-9._+-]{1,64}@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$`)

// UMA resolves a UMA address for a sender (customerID may be empty:
// the platform sends): a customer of this platform, or a receiver the
// Directory knows. Malformed addresses are INVALID_UMA_ADDRESS; nobody
// receiving there is UMA_NOT_FOUND; an unknown or deleted sender
// CUSTOMER_NOT_FOUND. A deleted customer of this platform receives nothing:
// its address is looked up in the Directory like any other.
//
// The platform's records are read in one read transaction; the Directory
// and the RateSource (estimated rates) are asked outside it, and the lookup
// is then stored in a write transaction of its own. It is not idempotent:
// each call stores a new lookup with a new id, valid LookupTTL.
func (ls Lookups) UMA(ctx context.Context, address, customerID string) (*Lookup, error) {
	return engine.Run(ctx, ls.e, lookUMA, request{Address: address, CustomerID: customerID})
}

// request is what a lookup asks: a UMA address or an external account,
// for a sender (CustomerID, optional).
type request struct{ Address, AccountID, CustomerID string }

// fetched is what a lookup gathers before it is stored: the lookup with
// its currencies priced.
type fetched struct{ l *Lookup }

// lookUMA reads the platform's records in a snapshot, asks the Directory
// and the rate source (Prefetch, outside every transaction) and stores the
// lookup (Decide).
var lookUMA = engine.Op[request, *Lookup, fetched]{Area: "quotes", Name: "Lookups.UMA", Access: engine.Unkeyed,
	Validate: func(in *request) error {
		if !reUmaAddress.MatchString(in.Address) {
			return engine.Errorf(engine.CodeInvalidUmaAddress, "%q is not a UMA address such as $alice@example.com", in.Address)
		}
		if in.Address[0] != '$' {
			in.Address = "$" + in.Address
		}
		return nil
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, in *request, f *fetched, _ error) error {
		l := &Lookup{ReceiverUmaAddress: in.Address, RequiredPayerDataFields: []PayerDataField{}}
		var currencies []string
		var p *platform.Config
		err := e.View(ctx, func(t *engine.Txn) error {
			var err error
			if p, err = platform.Load(t); err != nil {
				return err
			}
			if err := senderCustomer(t, in.CustomerID); err != nil {
				return err
			}
			c, err := customers.ByUma(t, in.Address)
			if err != nil && engine.CodeOf(err) != engine.CodeUmaNotFound {
				return err
			}
			if c != nil && !c.IsDeleted {
				l.ReceiverCustomerID = c.ID
				currencies = c.Currencies
				if len(currencies) == 0 {
					currencies = p.CurrencyCodes()
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if l.ReceiverCustomerID == "" {
			r, err := directory(e).LookupUMA(ctx, in.Address)
			if err != nil {
				return err
			}
			if r == nil {
				return engine.Errorf(engine.CodeUmaNotFound, "nobody receives at %s", in.Address)
			}
			currencies, l.RequiredPayerDataFields = r.Currencies, append(l.RequiredPayerDataFields, r.RequiredPayerDataFields...)
		}
		f.l = l
		return priceLookup(e, ctx, l, in.CustomerID, currencies, p)
	},
	Decide: storeLookup,
}

// ExternalAccount prepares a payment to an external account: the
// lookup names the account and what the sender must tell about itself (the
// platform's required counterparty fields for the account's currency).
// An unknown account is ACCOUNT_NOT_FOUND, an unknown or deleted sender
// CUSTOMER_NOT_FOUND. Like UMA, each call stores a new lookup.
func (ls Lookups) ExternalAccount(ctx context.Context, accountID, customerID string) (*Lookup, error) {
	return engine.Run(ctx, ls.e, lookExternalAccount, request{AccountID: accountID, CustomerID: customerID})
}

// lookExternalAccount reads the account and the platform in a snapshot,
// prices the account's currency (Prefetch) and stores the lookup (Decide).
var lookExternalAccount = engine.Op[request, *Lookup, fetched]{Area: "quotes", Name: "Lookups.ExternalAccount", Access: engine.Unkeyed,
	Prefetch: func(ctx context.Context, e *engine.Handle, in *request, f *fetched, _ error) error {
		l := &Lookup{AccountID: in.AccountID, RequiredPayerDataFields: []PayerDataField{}}
		var cur string
		var p *platform.Config
		err := e.View(ctx, func(t *engine.Txn) error {
			a, err := accounts.External(t, in.AccountID)
			if err != nil {
				return err
			}
			cur = a.Currency
			if err := senderCustomer(t, in.CustomerID); err != nil {
				return err
			}
			p, err = platform.Load(t)
			return err
		})
		if err != nil {
			return err
		}
		for _, c := range p.SupportedCurrencies {
			if c.CurrencyCode == cur {
				for _, f := range c.RequiredCounterpartyFields {
					l.RequiredPayerDataFields = append(l.RequiredPayerDataFields, PayerDataField(f))
				}
			}
		}
		f.l = l
		return priceLookup(e, ctx, l, in.CustomerID, []string{cur}, p)
	},
	Decide: storeLookup,
}

// priceLookup fills the lookup's currencies (estimated rates from USD,
// whoever the sender is), outside every transaction. The rates are for
// display only: a pair the rate source cannot price shows 0 rather than
// failing the lookup, and the quote made from it fetches its own rate.
// Currencies unknown to package money are left out; min and max are the
// platform's limits for the currency when it supports it.
func priceLookup(e *engine.Handle, ctx context.Context, l *Lookup, customerID string, currencies []string, p *platform.Config) error {
	l.CustomerID = customerID
	l.SupportedCurrencies = []LookupCurrency{}
	rate := slot.Of(e).Rate
	for _, code := range currencies {
		c, ok := money.Lookup(code)
		if !ok {
			continue
		}
		lc := LookupCurrency{Currency: accounts.CurrencyInfo{Code: c.Code, Name: c.Name, Symbol: c.Symbol, Decimals: c.Decimals}, Min: 1, Max: money.MaxAmount}
		for _, pc := range p.SupportedCurrencies {
			if pc.CurrencyCode == code {
				lc.Min, lc.Max = pc.MinAmount, pc.MaxAmount
			}
		}
		if rate != nil {
			if r, _, err := rate(e, ctx, "USD", code); err == nil {
				lc.EstimatedExchangeRate = r.Float64()
			}
		}
		l.SupportedCurrencies = append(l.SupportedCurrencies, lc)
	}
	return nil
}

// storeLookup gives the priced lookup its id and lifetime and stores it.
func storeLookup(t *engine.Txn, _ *request, f *fetched) (*Lookup, error) {
	id, err := t.Handle.NewID("Lookup")
	if err != nil {
		return nil, err
	}
	l := *f.l
	l.ID, l.CreatedAt, l.ExpiresAt = id, t.Handle.Now(), t.Handle.Now().Add(LookupTTL)
	rec := record{Lookup: l, ReceiverCustomerID: l.ReceiverCustomerID, CustomerID: l.CustomerID, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt}
	if err := engine.InsertJSON(t, tableLookups, id, rec); err != nil {
		return nil, err
	}
	return &l, nil
}

// senderCustomer checks the optional sending customer of a lookup: an
// unknown or deleted one is CUSTOMER_NOT_FOUND (the lookups answer 404, not
// 410).
func senderCustomer(t *engine.Txn, id string) error {
	if id == "" {
		return nil
	}
	r, err := customers.RecordOf(t, id)
	if err != nil {
		return err
	}
	if r.IsDeleted {
		return engine.Errorf(engine.CodeCustomerNotFound, "customer %s is deleted", id)
	}
	return nil
}

// VASPs lists the VASP directory a page at a time, in directory order
// (reversed when p.Desc). The Directory is asked for the whole list on
// every page; its errors reach the caller as is, and a cursor this list did
// not issue is INVALID_INPUT.
func (ls Lookups) VASPs(ctx context.Context, p engine.ListParams) (engine.Page[VASP], error) {
	return engine.Run(ctx, ls.e, listVASPs, p)
}

// listVASPs asks the Directory (Prefetch, no transaction) and pages what
// it answered.
var listVASPs = directoryList("Lookups.VASPs", "vasps", func(ctx context.Context, d Directory, _ *engine.ListParams) ([]VASP, error) {
	return d.VASPs(ctx)
})

// VASPsAll walks every page of VASPs from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (ls Lookups) VASPsAll(ctx context.Context, p engine.ListParams) iter.Seq2[VASP, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[VASP], error) {
		return ls.VASPs(ctx, p)
	})
}

// Discoveries lists payout banks by country and currency a page at a
// time, paged as VASPs is.
func (ls Lookups) Discoveries(ctx context.Context, country, currency string, p engine.ListParams) (engine.Page[Discovery], error) {
	return engine.Run(ctx, ls.e, listDiscoveries, discoveryQuery{country, currency, p})
}

// discoveryQuery is a page of discoveries for a country and currency.
type discoveryQuery struct {
	country, currency string
	p                 engine.ListParams
}

// listDiscoveries asks the Directory (Prefetch, no transaction) and pages
// what it answered.
var listDiscoveries = engine.Op[discoveryQuery, engine.Page[Discovery], []Discovery]{Area: "quotes", Name: "Lookups.Discoveries", Access: engine.Read,
	Prefetch: func(ctx context.Context, e *engine.Handle, in *discoveryQuery, all *[]Discovery, _ error) error {
		var err error
		if *all, err = directory(e).Discoveries(ctx, in.country, in.currency); err != nil {
			return err
		}
		return engine.Settled
	},
	Decide: func(*engine.Txn, *discoveryQuery, *[]Discovery) (engine.Page[Discovery], error) {
		return engine.Page[Discovery]{}, nil // settled by Prefetch: never called
	},
	Answer: func(_ *engine.Handle, in *discoveryQuery, all *[]Discovery, out engine.Page[Discovery], err error) (engine.Page[Discovery], error) {
		if err != nil {
			return out, err
		}
		return pageOf(*all, "discoveries", in.p)
	},
}

// DiscoveriesAll walks every page of Discoveries from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (ls Lookups) DiscoveriesAll(ctx context.Context, country, currency string, p engine.ListParams) iter.Seq2[Discovery, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Discovery], error) {
		return ls.Discoveries(ctx, country, currency, p)
	})
}

// UMAProviders lists UMA providers a page at a time, paged as VASPs is.
func (ls Lookups) UMAProviders(ctx context.Context, p engine.ListParams) (engine.Page[UMAProvider], error) {
	return engine.Run(ctx, ls.e, listUMAProviders, p)
}

// listUMAProviders asks the Directory (Prefetch, no transaction) and pages
// what it answered.
var listUMAProviders = directoryList("Lookups.UMAProviders", "uma-providers", func(ctx context.Context, d Directory, _ *engine.ListParams) ([]UMAProvider, error) {
	return d.UMAProviders(ctx)
})

// UMAProvidersAll walks every page of UMAProviders from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (ls Lookups) UMAProvidersAll(ctx context.Context, p engine.ListParams) iter.Seq2[UMAProvider, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[UMAProvider], error) {
		return ls.UMAProviders(ctx, p)
	})
}

// directoryList declares the operation name that pages the list the
// Directory answers whole through ask: asked in Prefetch, outside every
// transaction, which settles the answer (no transaction runs), and paged
// in Answer.
func directoryList[T any](name, list string, ask func(context.Context, Directory, *engine.ListParams) ([]T, error)) engine.Op[engine.ListParams, engine.Page[T], []T] {
	return engine.Op[engine.ListParams, engine.Page[T], []T]{Area: "quotes", Name: name, Access: engine.Read,
		Prefetch: func(ctx context.Context, e *engine.Handle, p *engine.ListParams, all *[]T, _ error) error {
			var err error
			if *all, err = ask(ctx, directory(e), p); err != nil {
				return err
			}
			return engine.Settled
		},
		Decide: func(*engine.Txn, *engine.ListParams, *[]T) (engine.Page[T], error) {
			return engine.Page[T]{}, nil // settled by Prefetch: never called
		},
		Answer: func(_ *engine.Handle, p *engine.ListParams, all *[]T, out engine.Page[T], err error) (engine.Page[T], error) {
			if err != nil {
				return out, err
			}
			return pageOf(*all, list, *p)
		},
	}
}

// pageOf pages a list the Directory port answers whole (a short, external
// list, not a table): the same limit and cursor rules as every other list,
// with the cursor holding the position after the page. totalCount is set,
// since the whole list is at hand.
func pageOf[T any](all []T, name string, p engine.ListParams) (engine.Page[T], error) {
	after, err := p.Check(name, "")
	if err != nil {
		return engine.Page[T]{}, err
	}
	start := 0
	if after != "" {
		n, err := strconv.Atoi(after)
		if err != nil || n < 0 || n > len(all) {
			return engine.Page[T]{}, engine.Invalid(validate.Errors{{Field: "cursor", Message: "cursor is not a value returned by this list"}})
		}
		start = n
	}
	ordered := all
	if p.Desc {
		ordered = make([]T, len(all))
		for i, v := range all {
			ordered[len(all)-1-i] = v
		}
	}
	end := min(start+p.Limit, len(ordered))
	total := len(all)
	out := engine.Page[T]{Data: append(make([]T, 0, end-start), ordered[start:end]...), TotalCount: &total}
	if end < len(ordered) {
		out.HasMore, out.NextCursor = true, p.CursorFor(name, strconv.Itoa(end))
	}
	return out, nil
}

// Lookups resolves receivers (UMA addresses and external accounts) and
// answers the directory lists: VASPs, UMA providers and discoveries. Reach
// it as eng.Lookups (payments.Lookups).
type Lookups struct{ e *engine.Handle }

// New returns the Lookups group of h.
func New(h *engine.Handle) Lookups { return Lookups{h} }
