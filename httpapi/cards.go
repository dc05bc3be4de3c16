package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/cards"
)

// cardRoutes serve the Cards tag and the sandbox card simulators, one route
// per simulated network event (POST /sandbox/cards/{id}/simulate/<kind>,
// from authorization to return_reversal: payments.CardEventKinds). Without
// a card issuer (payments.Config.CardIssuer) every card route answers
// NOT_IMPLEMENTED, as environments without one do. Card transactions are
// not served here: they are listed with the other transactions (GET
// /transactions, quotes.go) and announced by webhook.
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

// createCard is POST /cards: 201 with the card in the state the issuer gave
// it (ACTIVE at once in the sandbox). CARDHOLDER_KYC_NOT_APPROVED,
// FUNDING_SOURCE_INELIGIBLE and CARD_LIMIT_REACHED are the usual refusals.
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

// listCards is GET /cards, newest first (sortOrder=asc for oldest), filtered
// by cardholderId, accountId, platformCardId and state; paged by limit and
// cursor.
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

// getCard is GET /cards/{id}: the card with its last four digits only; POST
// .../reveal shows the rest to the cardholder.
func getCard(r *request) (int, any, error) {
	c, err := r.eng.Cards.Get(r.ctx(), r.path("id"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

// updateCard is PATCH /cards/{id}: state (by the card state machine:
// INVALID_STATE_TRANSITION, CARD_ALREADY_CLOSED, CARD_NOT_MUTABLE), funding
// sources and spending limit; 200 with the card.
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

// revealCard is POST /cards/{id}/reveal (MANAGE): 200 with a short-lived URL
// that shows the card's details to the cardholder. The reveal is audited
// under the API token that asked, and never replayed by an idempotency key:
// a recorded answer would keep a bearer secret.
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

// simulateCard serves POST /sandbox/cards/{id}/simulate/<kind> (TRANSACT,
// sandbox mode only). It answers 202 with the issuer's token only: the
// resulting card transaction is delivered by webhook and listed in GET
// /transactions. A decline is not an error either: it is that transaction's
// outcome.
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
