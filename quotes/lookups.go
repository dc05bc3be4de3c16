package quotes

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

// lookupRecord stores a Lookup with the members the API does not show.
type lookupRecord struct {
	Lookup
	ReceiverCustomerID string    `json:"receiverCustomerId,omitempty"`
	CustomerID         string    `json:"customerId,omitempty"`
	CreatedAt          time.Time `json:"createdAt"`
	ExpiresAt          time.Time `json:"expiresAt"`
}

// lookup loads a lookup: LOOKUP_REQUEST_NOT_FOUND when absent or expired.
func lookup(t *engine.Txn, id string) (*Lookup, error) {
	var r lookupRecord
	if err := engine.GetJSON(t, tableLookups, id, &r); err != nil {
		return nil, engine.NotFound(err, CodeLookupRequestNotFound, "lookup", id)
	}
	if t.Now.After(r.ExpiresAt) {
		return nil, engine.Errorf(CodeLookupRequestNotFound, "lookup %s expired; look the receiver up again", id)
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
func (ls Lookups) UMA(ctx context.Context, address, customerID string) (_ *Lookup, err error) {
	ctx, op := begin(ctx, ls.e, "Lookups.UMA")
	defer op.End(&err)
	e := ls.e
	if !reUmaAddress.MatchString(address) {
		return nil, engine.Errorf(CodeInvalidUmaAddress, "%q is not a UMA address such as $alice@example.com", address)
	}
	if address[0] != '$' {
		address = "$" + address
	}
	l := &Lookup{ReceiverUmaAddress: address, RequiredPayerDataFields: []PayerDataField{}}
	var currencies []string
	var p *platform.Config
	err = e.View(ctx, func(t *engine.Txn) error {
		var err error
		if p, err = platform.Load(t); err != nil {
			return err
		}
		if err := senderCustomer(t, customerID); err != nil {
			return err
		}
		c, err := customers.ByUma(t, address)
		if err != nil && engine.CodeOf(err) != engine.CodeUmaNotFound {
			return err
		}
		if c != nil && !c.IsDeleted {
			l.ReceiverCustomerID = c.ID
			currencies = c.Currencies
			if len(currencies) == 0 {
				currencies = platformCodes(p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if l.ReceiverCustomerID == "" {
		r, err := directory(e).LookupUMA(ctx, address)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, engine.Errorf(engine.CodeUmaNotFound, "nobody receives at %s", address)
		}
		currencies, l.RequiredPayerDataFields = r.Currencies, append(l.RequiredPayerDataFields, r.RequiredPayerDataFields...)
	}
	return saveLookup(e, ctx, l, customerID, currencies, p)
}

// ExternalAccount prepares a payment to an external account: the
// lookup names the account and what the sender must tell about itself (the
// platform's required counterparty fields for the account's currency).
// An unknown account is ACCOUNT_NOT_FOUND, an unknown or deleted sender
// CUSTOMER_NOT_FOUND. Like UMA, each call stores a new lookup.
func (ls Lookups) ExternalAccount(ctx context.Context, accountID, customerID string) (_ *Lookup, err error) {
	ctx, op := begin(ctx, ls.e, "Lookups.ExternalAccount")
	defer op.End(&err)
	e := ls.e
	l := &Lookup{AccountID: accountID, RequiredPayerDataFields: []PayerDataField{}}
	var cur string
	var p *platform.Config
	err = e.View(ctx, func(t *engine.Txn) error {
		a, err := accounts.External(t, accountID)
		if err != nil {
			return err
		}
		cur = a.Currency
		if err := senderCustomer(t, customerID); err != nil {
			return err
		}
		p, err = platform.Load(t)
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, c := range p.SupportedCurrencies {
		if c.CurrencyCode == cur {
			for _, f := range c.RequiredCounterpartyFields {
				l.RequiredPayerDataFields = append(l.RequiredPayerDataFields, PayerDataField(f))
			}
		}
	}
	return saveLookup(e, ctx, l, customerID, []string{cur}, p)
}

// saveLookup fills the currencies (estimated rates from USD, whoever the
// sender is) and stores the lookup. The rates are for display only: a
// pair the RateSource cannot price shows 0 rather than failing the lookup,
// and the quote made from it fetches its own rate. Currencies unknown to
// package money are left out; min and max are the platform's limits for
// the currency when it supports it.
func saveLookup(e *engine.Handle, ctx context.Context, l *Lookup, customerID string, currencies []string, p *platform.Config) (*Lookup, error) {
	id, err := e.NewID("Lookup")
	if err != nil {
		return nil, err
	}
	l.ID, l.CustomerID, l.CreatedAt, l.ExpiresAt = id, customerID, e.Now(), e.Now().Add(LookupTTL)
	l.SupportedCurrencies = []LookupCurrency{}
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
		if r, _, err := Rate(e, ctx, "USD", code); err == nil {
			lc.EstimatedExchangeRate = r.Float64()
		}
		l.SupportedCurrencies = append(l.SupportedCurrencies, lc)
	}
	rec := lookupRecord{Lookup: *l, ReceiverCustomerID: l.ReceiverCustomerID, CustomerID: customerID, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt}
	err = e.Update(ctx, func(t *engine.Txn) error { return engine.InsertJSON(t, tableLookups, id, rec) })
	return l, err
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

// platformCodes lists the platform's supported currency codes, in the
// configuration's order.
func platformCodes(p *platform.Config) []string {
	out := make([]string, len(p.SupportedCurrencies))
	for i, c := range p.SupportedCurrencies {
		out[i] = c.CurrencyCode
	}
	return out
}

// VASPs lists the VASP directory a page at a time, in directory order
// (reversed when p.Desc). The Directory is asked for the whole list on
// every page; its errors reach the caller as is, and a cursor this list did
// not issue is INVALID_INPUT.
func (ls Lookups) VASPs(ctx context.Context, p engine.ListParams) (_ engine.Page[VASP], err error) {
	ctx, op := begin(ctx, ls.e, "Lookups.VASPs")
	defer op.End(&err)
	e := ls.e
	all, err := directory(e).VASPs(ctx)
	if err != nil {
		return engine.Page[VASP]{}, err
	}
	return pageOf(all, "vasps", p)
}

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
func (ls Lookups) Discoveries(ctx context.Context, country, currency string, p engine.ListParams) (_ engine.Page[Discovery], err error) {
	ctx, op := begin(ctx, ls.e, "Lookups.Discoveries")
	defer op.End(&err)
	e := ls.e
	all, err := directory(e).Discoveries(ctx, country, currency)
	if err != nil {
		return engine.Page[Discovery]{}, err
	}
	return pageOf(all, "discoveries", p)
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
func (ls Lookups) UMAProviders(ctx context.Context, p engine.ListParams) (_ engine.Page[UMAProvider], err error) {
	ctx, op := begin(ctx, ls.e, "Lookups.UMAProviders")
	defer op.End(&err)
	e := ls.e
	all, err := directory(e).UMAProviders(ctx)
	if err != nil {
		return engine.Page[UMAProvider]{}, err
	}
	return pageOf(all, "uma-providers", p)
}

// UMAProvidersAll walks every page of UMAProviders from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (ls Lookups) UMAProvidersAll(ctx context.Context, p engine.ListParams) iter.Seq2[UMAProvider, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[UMAProvider], error) {
		return ls.UMAProviders(ctx, p)
	})
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

// NewLookups returns the Lookups group of h.
func NewLookups(h *engine.Handle) Lookups { return Lookups{h} }
