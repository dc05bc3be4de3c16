package quotes

import (
	"context"
	"iter"
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Service.List serves operators' tools (package dashboard): the REST API
// lists no quotes.

// Filter narrows Quotes.List: CustomerID is the sending customer
// (quotes the platform sends from its own accounts have none).
type Filter struct {
	CustomerID string
}

// List lists quotes in creation order (newest first with p.Desc), as Get
// returns them (a PENDING quote past its expiry reads EXPIRED). With a
// customer it reads that customer's index, else every quote's; a bad
// cursor or limit is INVALID_INPUT.
func (qs Service) List(ctx context.Context, f Filter, p engine.ListParams) (engine.Page[Quote], error) {
	return engine.Run(ctx, qs.e, listQuotes, quoteQuery{f, p})
}

// quoteQuery is a List request: the filter and the page asked for.
type quoteQuery struct {
	f Filter
	p engine.ListParams
}

// listQuotes is Service.List's operation.
var listQuotes = engine.Op[quoteQuery, engine.Page[Quote], struct{}]{Area: "quotes", Name: "List", Access: engine.Read,
	Decide: func(t *engine.Txn, in *quoteQuery, _ *struct{}) (engine.Page[Quote], error) {
		customerID := in.f.CustomerID
		q := engine.ListQuery[Record]{Table: tableQuotes, Index: engine.IxAll,
			Match: func(r *Record) bool { return customerID == "" || r.CustomerID == customerID }}
		page, err := engine.List(t, q.Narrowest([2]string{ixCustomer, customerID}), in.p)
		if err != nil {
			return engine.Page[Quote]{}, err
		}
		return engine.MapPage(page, func(r *Record) (*Quote, error) { return asRead(r, t.Now), nil })
	}}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (qs Service) ListAll(ctx context.Context, f Filter, p engine.ListParams) iter.Seq2[Quote, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Quote], error) {
		return qs.List(ctx, f, p)
	})
}

// asRead is the quote as reads show it at now: a lapsed quote reads as the
// next ProcessDue will record it (EXPIRED, or FAILED when its SCA challenge
// lapsed).
func asRead(q *Record, now time.Time) *Quote {
	out := q.Quote
	if q.Lapsed(now) {
		out.Status = Expired
		if q.Status == PendingAuthorization {
			out.Status = Failed
		}
		out.ScaChallenge = nil
	}
	return &out
}
