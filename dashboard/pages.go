package dashboard

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
)

// pageSize is the length of a page of every list.
const pageSize = 25

// listParams reads the page a list request asks for: its cursor, newest
// first.
func listParams(r *http.Request) payments.ListParams {
	return payments.ListParams{Limit: pageSize, Cursor: r.URL.Query().Get("cursor"), Desc: true}
}

// listed is a page of a list with the link to the next one.
type listed[T any] struct {
	Items []T
	Next  string // the cursor of the next page, "" on the last
	// CustomerID is the customer the list is narrowed to ("" for all):
	// the next page's link keeps it.
	CustomerID string
}

// listOf is a list page of p.
func listOf[T any](p payments.Page[T]) listed[T] {
	return listed[T]{Items: p.Data, Next: p.NextCursor}
}

// overviewData is the main page: the clock, the webhook endpoint and the
// latest of everything.
type overviewData struct {
	Endpoint     string
	Customers    []payments.Customer
	Transactions []payments.Transaction
	Pending      []payments.WebhookDelivery
	DeadWork     int
	DeadEvents   int
}

func (d *Dashboard) overview(w http.ResponseWriter, r *http.Request, c *caller) error {
	ctx, eng := r.Context(), d.opts.Engine
	latest := payments.ListParams{Limit: 5, Desc: true}
	var o overviewData
	cfg, err := eng.Platform.Config(ctx)
	if err != nil {
		return err
	}
	o.Endpoint = cfg.WebhookEndpoint
	cs, err := eng.Customers.List(ctx, payments.CustomerFilter{}, latest)
	if err != nil {
		return err
	}
	ts, err := eng.Transactions.List(ctx, payments.TransactionFilter{}, latest)
	if err != nil {
		return err
	}
	o.Customers, o.Transactions = cs.Data, ts.Data
	if o.Pending, err = eng.Webhooks.PendingDeliveries(ctx, "", 5); err != nil {
		return err
	}
	work, events, err := d.dead(ctx)
	o.DeadWork, o.DeadEvents = len(work), len(events)
	if err != nil {
		return err
	}
	d.render(w, r, c, http.StatusOK, "overview", "Overview", o)
	return nil
}

func (d *Dashboard) customers(w http.ResponseWriter, r *http.Request, c *caller) error {
	p, err := d.opts.Engine.Customers.List(r.Context(), payments.CustomerFilter{}, listParams(r))
	if err != nil {
		return err
	}
	d.render(w, r, c, http.StatusOK, "customers", "Customers", listOf(p))
	return nil
}

// accountsData is a page of customers' accounts and the platform's own.
type accountsData[T any] struct {
	Platform []T
	listed[T]
}

// platformAndCustomers reads the platform's first accounts and a page of
// the customers' accounts with list (Accounts.ListInternal or
// Accounts.ListExternal).
func platformAndCustomers[T, F any](r *http.Request, list func(context.Context, F, payments.Scope, payments.ListParams) (payments.Page[T], error)) (accountsData[T], error) {
	var f F
	plat, err := list(r.Context(), f, payments.PlatformScope, payments.ListParams{Limit: payments.MaxLimit})
	if err != nil {
		return accountsData[T]{}, err
	}
	cust, err := list(r.Context(), f, payments.CustomerScope, listParams(r))
	return accountsData[T]{Platform: plat.Data, listed: listOf(cust)}, err
}

// customerFilter is the customerId a list page is narrowed to ("" for
// none).
func customerFilter(r *http.Request) string { return r.URL.Query().Get("customerId") }

func (d *Dashboard) internalAccounts(w http.ResponseWriter, r *http.Request, c *caller) error {
	customer := customerFilter(r)
	list := func(ctx context.Context, f payments.InternalAccountFilter, s payments.Scope, p payments.ListParams) (payments.Page[payments.InternalAccountView], error) {
		if s == payments.CustomerScope {
			f.CustomerID = customer
		}
		return d.opts.Engine.Accounts.ListInternal(ctx, f, s, p)
	}
	data, err := platformAndCustomers(r, list)
	if err != nil {
		return err
	}
	data.CustomerID = customer
	d.render(w, r, c, http.StatusOK, "accounts", "Internal accounts", data)
	return nil
}

func (d *Dashboard) externalAccounts(w http.ResponseWriter, r *http.Request, c *caller) error {
	data, err := platformAndCustomers(r, d.opts.Engine.Accounts.ListExternal)
	if err != nil {
		return err
	}
	d.render(w, r, c, http.StatusOK, "external-accounts", "External accounts", data)
	return nil
}

func (d *Dashboard) quotes(w http.ResponseWriter, r *http.Request, c *caller) error {
	p, err := d.opts.Engine.Quotes.List(r.Context(), payments.QuoteFilter{}, listParams(r))
	if err != nil {
		return err
	}
	d.render(w, r, c, http.StatusOK, "quotes", "Quotes", listOf(p))
	return nil
}

// detail is a quote or a transaction with the events of its payment.
type detail[T any] struct {
	Item   *T
	Events []payments.WebhookDelivery
}

func (d *Dashboard) quote(w http.ResponseWriter, r *http.Request, c *caller) error {
	q, err := d.opts.Engine.Quotes.Get(r.Context(), r.URL.Query().Get("id"))
	if err != nil {
		return err
	}
	events, err := d.eventsOf(r.Context(), q.TransactionID)
	if err != nil {
		return err
	}
	d.render(w, r, c, http.StatusOK, "quote", "Quote", detail[payments.Quote]{q, events})
	return nil
}

func (d *Dashboard) transactions(w http.ResponseWriter, r *http.Request, c *caller) error {
	customer := customerFilter(r)
	p, err := d.opts.Engine.Transactions.List(r.Context(), payments.TransactionFilter{CustomerID: customer}, listParams(r))
	if err != nil {
		return err
	}
	l := listOf(p)
	l.CustomerID = customer
	d.render(w, r, c, http.StatusOK, "transactions", "Transactions", l)
	return nil
}

func (d *Dashboard) transaction(w http.ResponseWriter, r *http.Request, c *caller) error {
	tx, err := d.opts.Engine.Transactions.Get(r.Context(), r.URL.Query().Get("id"))
	if err != nil {
		return err
	}
	events, err := d.eventsOf(r.Context(), tx.ID)
	if err != nil {
		return err
	}
	d.render(w, r, c, http.StatusOK, "transaction", "Transaction", detail[payments.Transaction]{tx, events})
	return nil
}

// eventsOf returns the events about record id (delivered, given up and
// waiting) in the order they were emitted, up to a hundred of each.
func (d *Dashboard) eventsOf(ctx context.Context, id string) ([]payments.WebhookDelivery, error) {
	if id == "" {
		return nil, nil
	}
	done, err := d.opts.Engine.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Resource: id}, payments.ListParams{Limit: payments.MaxLimit})
	if err != nil {
		return nil, err
	}
	pending, err := d.opts.Engine.Webhooks.PendingDeliveries(ctx, id, payments.MaxLimit)
	if err != nil {
		return nil, err
	}
	all := append(done.Data, pending...)
	slices.SortStableFunc(all, func(a, b payments.WebhookDelivery) int {
		if c := a.Event.Timestamp.Compare(b.Event.Timestamp); c != 0 {
			return c
		}
		return strings.Compare(a.Event.ID, b.Event.ID)
	})
	return all, nil
}

// webhooksData is the delivery queue and a page of the history.
type webhooksData struct {
	Pending []payments.WebhookDelivery
	listed[payments.WebhookDelivery]
	// Triggers are the event types the Trigger form offers (none when
	// the server cannot trigger or the caller may not), Triggered the
	// type the last trigger made happen, with its events' ids.
	Triggers  []payments.EventType
	Triggered string
	Events    []string
}

func (d *Dashboard) webhooks(w http.ResponseWriter, r *http.Request, c *caller) error {
	pending, err := d.opts.Engine.Webhooks.PendingDeliveries(r.Context(), "", payments.MaxLimit)
	if err != nil {
		return err
	}
	done, err := d.opts.Engine.Webhooks.ListDeliveries(r.Context(), payments.DeliveryFilter{}, listParams(r))
	if err != nil {
		return err
	}
	data := webhooksData{Pending: pending, listed: listOf(done), Triggered: r.URL.Query().Get("triggered"), Events: r.URL.Query()["event"]}
	if d.opts.Trigger != nil && c.canManage() {
		data.Triggers = d.opts.TriggerTypes
	}
	d.render(w, r, c, http.StatusOK, "webhooks", "Webhook deliveries", data)
	return nil
}

// deadData is what was set aside: due work and events.
type deadData struct {
	Work   []payments.DeadLetter
	Events []payments.WebhookDelivery
}

// dead reads the dead letters of due work and of the outbox.
func (d *Dashboard) dead(ctx context.Context) ([]payments.DeadLetter, []payments.WebhookDelivery, error) {
	work, err := d.opts.Engine.DeadLetters(ctx)
	if err != nil {
		return nil, nil, err
	}
	events, err := d.opts.Engine.Webhooks.DeadEvents(ctx, 1000)
	return work, events, err
}

func (d *Dashboard) deadLetters(w http.ResponseWriter, r *http.Request, c *caller) error {
	work, events, err := d.dead(r.Context())
	if err != nil {
		return err
	}
	d.render(w, r, c, http.StatusOK, "dead-letters", "Dead letters", deadData{work, events})
	return nil
}

func (d *Dashboard) clock(w http.ResponseWriter, r *http.Request, c *caller) error {
	d.render(w, r, c, http.StatusOK, "clock", "Clock", nil)
	return nil
}

// requestLogSize is how many requests the request log page shows.
const requestLogSize = 200

// requests is the request log: the latest API requests, newest first.
func (d *Dashboard) requests(w http.ResponseWriter, r *http.Request, c *caller) error {
	if d.opts.Requests == nil {
		d.fail(w, r, c, http.StatusNotFound, "This server keeps no request log.")
		return nil
	}
	d.render(w, r, c, http.StatusOK, "requests", "API requests", requestsData{Items: d.opts.Requests(requestLogSize), Live: d.opts.RequestStream != nil})
	return nil
}

// requestsData is the request log page: the latest requests, and whether
// the page follows the new ones (Options.RequestStream).
type requestsData struct {
	Items []httpapi.LoggedRequest
	Live  bool
}

// requestStream is requests/stream: the request log's server-sent events
// (Options.RequestStream), which the request log page reads.
func (d *Dashboard) requestStream(w http.ResponseWriter, r *http.Request, c *caller) error {
	if d.opts.RequestStream == nil {
		d.fail(w, r, c, http.StatusNotFound, "This server does not stream its request log.")
		return nil
	}
	d.opts.RequestStream.ServeHTTP(w, r)
	return nil
}

// ledgerData is a page of the ledger's accounts, or the journal of one
// record (Reference set).
type ledgerData struct {
	Reference string
	Account   string // the account prefix the accounts are narrowed to
	Accounts  listed[payments.LedgerBalance]
	Entries   listed[payments.LedgerEntry]
}

// ledger shows the ledger: every account's balance per currency a page at
// a time (Engine.Ledger.Accounts; ?account= keeps the accounts that start
// with it: an internal account and its hold), or with ?reference= the journal of one
// transaction or other record (Engine.Ledger.Journal).
func (d *Dashboard) ledger(w http.ResponseWriter, r *http.Request, c *caller) error {
	p := payments.ListParams{Limit: pageSize, Cursor: r.URL.Query().Get("cursor")}
	var data ledgerData
	if data.Reference = r.URL.Query().Get("reference"); data.Reference != "" {
		page, err := d.opts.Engine.Ledger.Journal(r.Context(), data.Reference, p)
		if err != nil {
			return err
		}
		data.Entries = listOf(page)
		d.render(w, r, c, http.StatusOK, "ledger", "Ledger journal", data)
		return nil
	}
	data.Account = r.URL.Query().Get("account")
	page, err := d.opts.Engine.Ledger.Accounts(r.Context(), data.Account, p)
	if err != nil {
		return err
	}
	data.Accounts = listOf(page)
	d.render(w, r, c, http.StatusOK, "ledger", "Ledger", data)
	return nil
}
