package customers

import (
	"context"
	"iter"
	"slices"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
)

// Get returns a customer, deleted ones included (isDeleted true);
// CUSTOMER_NOT_FOUND for an unknown id. A business comes with its
// beneficial owners, identifiers masked.
func (cs Service) Get(ctx context.Context, id string) (*Customer, error) {
	return engine.Run(ctx, cs.e, getCustomer, id)
}

// getCustomer is Service.Get's operation.
var getCustomer = engine.Op[string, *Customer, struct{}]{Area: "customers", Name: "Get", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Customer, error) {
		r, err := RecordOf(t, *id)
		if err != nil {
			return nil, err
		}
		return customerView(t, r)
	}}

// customerView is r as the API shows it: without the write-only
// identifier, and for a business with its owners (at most engine.MaxLimit
// of them, identifiers masked).
func customerView(t *engine.Txn, r *Record) (*Customer, error) {
	c := r.Customer
	if c.CustomerType == CustomerBusiness {
		owners, err := ownersOf(t, c.ID)
		if err != nil {
			return nil, err
		}
		c.BeneficialOwners = owners
	}
	return &c, nil
}

// CustomerFilter narrows Service.List; zero members match everything. Time
// bounds are inclusive. Deleted customers are listed only with
// IncludeDeleted.
type CustomerFilter struct {
	PlatformCustomerID string
	CustomerType       CustomerType
	Region             string
	// Currency matches customers whose currencies include it, and those
	// without a list of their own (who take the platform's).
	Currency   string
	UmaAddress string
	// KYCStatus matches individuals only, KYBStatus businesses only.
	KYCStatus                   KYCStatus
	KYBStatus                   KYCStatus
	CreatedAfter, CreatedBefore time.Time
	UpdatedAfter, UpdatedBefore time.Time
	IncludeDeleted              bool
}

// match reports whether c passes every member of f; the index a list
// reads (query) narrows the records, match decides.
func (f *CustomerFilter) match(c *Record) bool {
	return (f.IncludeDeleted || !c.IsDeleted) &&
		(f.PlatformCustomerID == "" || c.PlatformCustomerID == f.PlatformCustomerID) &&
		(f.CustomerType == "" || c.CustomerType == f.CustomerType) &&
		(f.Region == "" || c.Region == f.Region) &&
		(f.Currency == "" || len(c.Currencies) == 0 || slices.Contains(c.Currencies, f.Currency)) &&
		(f.UmaAddress == "" || c.UmaAddress == f.UmaAddress) &&
		(f.KYCStatus == "" || (c.CustomerType == CustomerIndividual && c.KYCStatus == f.KYCStatus)) &&
		(f.KYBStatus == "" || (c.CustomerType == CustomerBusiness && c.KYBStatus == f.KYBStatus)) &&
		platform.InRange(c.CreatedAt, f.CreatedAfter, f.CreatedBefore) &&
		platform.InRange(c.UpdatedAt, f.UpdatedAfter, f.UpdatedBefore)
}

// query reads the index of the most selective indexed filter (deleted
// customers, region, currency and update times are checked on the records).
func (f *CustomerFilter) query() engine.ListQuery[Record] {
	q := engine.ListQuery[Record]{Table: tableCustomers, Index: engine.IxAll, From: f.CreatedAfter, To: f.CreatedBefore, Match: f.match}
	var kyc, kyb string
	if f.KYCStatus != "" {
		kyc = customerStatusValue(CustomerIndividual, f.KYCStatus)
	}
	if f.KYBStatus != "" {
		kyb = customerStatusValue(CustomerBusiness, f.KYBStatus)
	}
	return q.Narrowest(
		[2]string{ixUma, f.UmaAddress},
		[2]string{ixPlatform, f.PlatformCustomerID},
		[2]string{engine.IxStatus, kyc},
		[2]string{engine.IxStatus, kyb},
		[2]string{engine.IxType, string(f.CustomerType)})
}

// List lists customers, oldest first, a page at a time (keyset cursor in
// p), from the index that narrows the filter most (query); region,
// currency, update times and deletion are checked on the records read. A
// malformed cursor or limit is INVALID_INPUT.
func (cs Service) List(ctx context.Context, f CustomerFilter, p engine.ListParams) (engine.Page[Customer], error) {
	return engine.Run(ctx, cs.e, listCustomers, customerQuery{f, p})
}

// customerQuery is a List request: the filter and the page.
type customerQuery struct {
	f CustomerFilter
	p engine.ListParams
}

// listCustomers is Service.List's operation.
var listCustomers = engine.Op[customerQuery, engine.Page[Customer], struct{}]{Area: "customers", Name: "List", Access: engine.Read,
	Decide: func(t *engine.Txn, in *customerQuery, _ *struct{}) (engine.Page[Customer], error) {
		recs, err := engine.List(t, in.f.query(), in.p)
		if err != nil {
			return engine.Page[Customer]{}, err
		}
		return engine.MapPage(recs, func(r *Record) (*Customer, error) { return customerView(t, r) })
	}}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (cs Service) ListAll(ctx context.Context, f CustomerFilter, p engine.ListParams) iter.Seq2[Customer, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Customer], error) {
		return cs.List(ctx, f, p)
	})
}
