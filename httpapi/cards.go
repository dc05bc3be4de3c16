package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/cards"
)

// cardRoutes serve the Cards tag and the sandbox card simulators.
func cardRoutes() []route {
	rs := []route{
		{method: "POST", path: "/cards", perm: manage, fn: createCard},
		{method: "GET", path: "/cards", fn: listCards},
		{method: "GET", path: "/cards/{id}", fn: getCard},
		{method: "PATCH", path: "/cards/{id}", perm: manage, fn: updateCard},
		{method: "POST", path: "/cards/{id}/reveal", perm: manage, fn: revealCard},
	}
	for _, k := range payments.CardEventKinds {
		rs = append(rs, route{method: "POST", path: "/sandbox/cards/{id}/simulate/" + string(k), perm: transact, fn: simulateCard(k)})
	}
	return rs
}

func createCard(r *request) (int, any, error) {
	var in payments.CreateCardRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	c, err := r.eng.Cards.Create(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, c)
}

func listCards(r *request) (int, any, error) {
	q := r.query()
	f := payments.CardFilter{CardholderID: q.str("cardholderId"), AccountID: q.str("accountId"),
		PlatformCardID: q.str("platformCardId"), State: cards.State(q.str("state"))}
	p := q.page(true)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Cards.List(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

func getCard(r *request) (int, any, error) {
	c, err := r.eng.Cards.Get(r.ctx(), r.path("id"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

func updateCard(r *request) (int, any, error) {
	var in payments.UpdateCardRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	c, err := r.eng.Cards.Update(r.ctx(), r.path("id"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

// revealCard attributes the reveal to the API token that asked.
func revealCard(r *request) (int, any, error) {
	actor := ""
	if r.token != nil {
		actor = r.token.ID
	}
	rv, err := r.eng.Cards.Reveal(r.ctx(), r.path("id"), actor)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, rv)
}

// simulateCard answers 202 with the issuer's token only: the resulting
// card transaction is delivered by webhook and listed in GET /transactions.
func simulateCard(kind payments.CardEventKind) handlerFunc {
	return func(r *request) (int, any, error) {
		var in payments.CardSimulation
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
		res, err := r.eng.Cards.Simulate(r.ctx(), r.path("id"), kind, in)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusAccepted, struct {
			IssuerTransactionToken string `json:"issuerTransactionToken"`
		}{res.IssuerTransactionToken})
	}
}
