package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// lookupRoutes serve receiver lookups, the directories and exchange rates:
// the reads a sender makes before asking for a quote. They are GETs any
// token may make, yet a receiver lookup is stored (a quote names it by id,
// and it expires), so two calls make two lookups. The directory lists are
// paged like every list, over what the payments.Directory answers.
func lookupRoutes() []route {
	return []route{
		{method: "GET", path: "/receiver/uma/{receiverUmaAddress}", fn: lookupUMA},
		{method: "GET", path: "/receiver/external-account/{accountId}", fn: lookupExternalAccount},
		{method: "GET", path: "/vasps", fn: listVASPs},
		{method: "GET", path: "/discoveries", fn: listDiscoveries},
		{method: "GET", path: "/uma-providers", fn: listUMAProviders},
		{method: "GET", path: "/exchange-rates", fn: exchangeRates},
	}
}

// lookupUMA is GET /receiver/uma/{receiverUmaAddress}, with the sending
// customerId (empty: the platform sends): 200 with the lookup, the
// receiver's currencies and what the sender must disclose.
// INVALID_UMA_ADDRESS for a malformed address, UMA_NOT_FOUND when nobody
// receives there.
func lookupUMA(r *request) (int, any, error) {
	l, err := r.eng.Lookups.UMA(r.ctx(), r.path("receiverUmaAddress"), r.query().str("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, l)
}

// lookupExternalAccount is GET /receiver/external-account/{accountId}, with
// the sending customerId: 200 with a lookup naming the account and the
// counterparty fields its currency requires.
func lookupExternalAccount(r *request) (int, any, error) {
	l, err := r.eng.Lookups.ExternalAccount(r.ctx(), r.path("accountId"), r.query().str("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, l)
}

// listVASPs is GET /vasps: the VASP directory, in directory order.
func listVASPs(r *request) (int, any, error) {
	q := r.query()
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Lookups.VASPs(r.ctx(), p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// listDiscoveries is GET /discoveries: payout banks, filtered by country and
// currency.
func listDiscoveries(r *request) (int, any, error) {
	q := r.query()
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Lookups.Discoveries(r.ctx(), q.str("country"), q.str("currency"), p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// listUMAProviders is GET /uma-providers: the UMA providers of the
// directory.
func listUMAProviders(r *request) (int, any, error) {
	q := r.query()
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Lookups.UMAProviders(r.ctx(), p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// exchangeRates is GET /exchange-rates: indicative rates from sourceCurrency
// to each destinationCurrency (repeatable) for sendingAmount, fees included,
// as {"data": [...]}. Nothing is locked: a quote prices again.
func exchangeRates(r *request) (int, any, error) {
	q := r.query()
	amount, _ := q.int64("sendingAmount")
	if err := q.err(); err != nil {
		return fail(err)
	}
	rates, err := r.eng.Quotes.ExchangeRates(r.ctx(), payments.RateQuery{Source: q.str("sourceCurrency"), Destinations: q.strs("destinationCurrency"), SendingAmount: amount})
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": rates})
}
