package httpapi

import (
	"maps"
	"net/http"
	"slices"
	"strings"
)

// sandboxLedgerRoutes are ours, not in the reference: the ledger every
// movement of money is booked in, read a page at a time (sandbox mode
// only; any token may read it).
func sandboxLedgerRoutes() []route {
	return []route{
		{method: "GET", path: "/sandbox/ledger/accounts", fn: listLedgerAccounts},
		{method: "GET", path: "/sandbox/ledger/entries", fn: listLedgerEntries},
	}
}

// onlyParams refuses every query parameter of r but names, each an
// INVALID_INPUT field error naming it.
func onlyParams(q *query, names ...string) {
	for _, name := range slices.Sorted(maps.Keys(q.r.URL.Query())) {
		if !slices.Contains(names, name) {
			q.fe.Add(name, nil, "%s is not a parameter of this list; it takes %s", name, strings.Join(names, ", "))
		}
	}
}

// listLedgerAccounts is GET /sandbox/ledger/accounts: every ledger account
// with its balance per currency (payments.LedgerBalance), in account
// order, a page at a time (limit, cursor, sortOrder); account keeps those
// whose account starts with it (external:, an internal account's id).
func listLedgerAccounts(r *request) (int, any, error) {
	if err := sandboxOnly(r); err != nil {
		return fail(err)
	}
	q := r.query()
	onlyParams(q, "account", "limit", "cursor", "sortOrder")
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Ledger.Accounts(r.ctx(), q.str("account"), p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// listLedgerEntries is GET /sandbox/ledger/entries: the journal of one
// business record (reference, or transactionId for a transaction), oldest
// first, a page at a time: each entry's postings balance per currency.
func listLedgerEntries(r *request) (int, any, error) {
	if err := sandboxOnly(r); err != nil {
		return fail(err)
	}
	q := r.query()
	onlyParams(q, "reference", "transactionId", "limit", "cursor", "sortOrder")
	p := q.page(false)
	ref, tx := q.str("reference"), q.str("transactionId")
	switch {
	case ref == "" && tx == "":
		q.fe.Add("transactionId", nil, "transactionId (or reference, for another record) is required")
	case ref != "" && tx != "" && ref != tx:
		q.fe.Add("reference", nil, "reference and transactionId name different records; give one")
	case ref == "":
		ref = tx
	}
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Ledger.Journal(r.ctx(), ref, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}
