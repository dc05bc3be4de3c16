package customers

import (
	"context"
	"slices"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
)

// Get returns a customer, deleted ones included (isDeleted true); a
// business comes with its beneficial owners.
func (cs Service) Get(ctx context.Context, id string) (*Customer, error) {
	e := cs.e
	var out *Customer
	err := e.View(ctx, func(t *engine.Txn) error {
		r, err := RecordOf(t, id)
		if err != nil {
			return err
		}
		out, err = customerView(t, r)
		return err
	})
	return out, err
}

// customerView is r as the API shows it.
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

// CustomerFilter narrows Customers.List; zero members match everything. Time
// bounds are inclusive. Deleted customers are listed only with
// IncludeDeleted.
type CustomerFilter struct {
	PlatformCustomerID          string
	CustomerType                CustomerType
	Region                      string
	Currency                    string
	UmaAddress                  string
	KYCStatus                   KYCStatus // individuals' kycStatus
	KYBStatus                   KYCStatus // businesses' kybStatus
	CreatedAfter, CreatedBefore time.Time
	UpdatedAfter, UpdatedBefore time.Time
	IncludeDeleted              bool
}

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

// List lists customers, oldest first.
func (cs Service) List(ctx context.Context, f CustomerFilter, p engine.ListParams) (engine.Page[Customer], error) {
	e := cs.e
	var page engine.Page[Customer]
	err := e.View(ctx, func(t *engine.Txn) error {
		recs, err := engine.List(t, f.query(), p)
		if err != nil {
			return err
		}
		page, err = engine.MapPage(recs, func(r *Record) (*Customer, error) { return customerView(t, r) })
		return err
	})
	return page, err
}
