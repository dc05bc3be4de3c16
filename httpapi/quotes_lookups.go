package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// lookupRoutes serve receiver lookups, the directories and exchange rates.
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

func lookupUMA(r *request) (int, any, error) {
	l, err := r.eng.Lookups.UMA(r.ctx(), r.path("receiverUmaAddress"), r.query().str("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, l)
}

func lookupExternalAccount(r *request) (int, any, error) {
	l, err := r.eng.Lookups.ExternalAccount(r.ctx(), r.path("accountId"), r.query().str("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, l)
}

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
