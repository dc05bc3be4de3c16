package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
)

// receiverRoutes serve receiver lookups, the directories and exchange rates.
func receiverRoutes() []route {
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
	l, err := r.eng.LookupUMA(r.ctx(), r.path("receiverUmaAddress"), r.query().str("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, l)
}

func lookupExternalAccount(r *request) (int, any, error) {
	l, err := r.eng.LookupExternalAccount(r.ctx(), r.path("accountId"), r.query().str("customerId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, l)
}

// list is the page envelope of an unpaginated directory list.
func list[T any](data []T) payments.Page[T] {
	if data == nil {
		data = []T{}
	}
	n := len(data)
	return payments.Page[T]{Data: data, TotalCount: &n}
}

func listVASPs(r *request) (int, any, error) {
	v, err := r.eng.VASPs(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, list(v))
}

func listDiscoveries(r *request) (int, any, error) {
	q := r.query()
	d, err := r.eng.Discoveries(r.ctx(), q.str("country"), q.str("currency"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": nonNil(d)})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func listUMAProviders(r *request) (int, any, error) {
	p, err := r.eng.UMAProviders(r.ctx())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, list(p))
}

func exchangeRates(r *request) (int, any, error) {
	q := r.query()
	amount, _ := q.int64("sendingAmount")
	if err := q.err(); err != nil {
		return fail(err)
	}
	rates, err := r.eng.ExchangeRates(r.ctx(), q.str("sourceCurrency"), q.strs("destinationCurrency"), amount)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, map[string]any{"data": rates})
}
