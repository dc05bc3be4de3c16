package payments

// Quotes.List serves operators' tools (package dashboard): the REST API
// lists no quotes.

import (
	"context"
	"time"
)

// QuoteFilter narrows Quotes.List: CustomerID is the sending customer
// (quotes the platform sends from its own accounts have none).
type QuoteFilter struct {
	CustomerID string
}

// List lists quotes, newest first unless p says otherwise, as Get returns
// them (a PENDING quote past its expiry reads EXPIRED).
func (qs Quotes) List(ctx context.Context, f QuoteFilter, p ListParams) (Page[Quote], error) {
	e := qs.e
	var out Page[Quote]
	err := e.view(ctx, func(t *txn) error {
		q := listQuery[quoteRecord]{Table: tableQuotes, Index: ixAll,
			Match: func(r *quoteRecord) bool { return f.CustomerID == "" || r.CustomerID == f.CustomerID }}
		page, err := list(t, q.narrowest([2]string{ixCustomer, f.CustomerID}), p)
		if err != nil {
			return err
		}
		out, err = mapPage(page, func(r *quoteRecord) (*Quote, error) { return r.asRead(t.now), nil })
		return err
	})
	return out, err
}

// asRead is the quote as reads show it at now: a lapsed quote reads as the
// next ProcessDue will record it (EXPIRED, or FAILED when its SCA challenge
// lapsed).
func (q *quoteRecord) asRead(now time.Time) *Quote {
	out := q.Quote
	if q.lapsed(now) {
		out.Status = QuoteExpired
		if q.Status == QuotePendingAuthorization {
			out.Status = QuoteFailed
		}
		out.ScaChallenge = nil
	}
	return &out
}
