package httpapi_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cardScenario is a funded cardholder with an active card.
type cardScenario struct {
	s            *server
	holder, acct string
	card         string
}

func newCardScenario(t *testing.T, funds int64, mutate ...func(map[string]any)) *cardScenario {
	s := cardServer(t)
	holder, acct := s.funded(funds)
	return &cardScenario{s: s, holder: holder, acct: acct, card: s.card(holder, acct, mutate...)["id"].(string)}
}

// run simulates kind and returns the card transaction it created or
// changed (looked up by token for new ones, by id for the others).
func (c *cardScenario) run(kind string, body map[string]any) map[string]any {
	c.s.t.Helper()
	tok := c.s.simulate(c.card, kind, body)
	if id, ok := body["cardTransactionId"].(string); ok {
		return c.s.txByID(id)
	}
	return c.s.cardTx(c.holder, tok)
}

// balances returns the funding account's available and total balance.
func (c *cardScenario) balances() (float64, float64) { return c.s.usdBalance(c.acct) }

// TestCardSimulators_Purchase drives one purchase through authorization,
// an over-authorized clearing (a second pull), a partial and a full return
// and the return's reversal, checking the ledger after each step.
func TestCardSimulators_Purchase(t *testing.T) {
	c := newCardScenario(t, 10000)
	s := c.s
	x := c.run("authorization", auth(1250, "BLUE BOTTLE COFFEE SF"))
	require.NotNil(t, x)
	id := x["id"].(string)
	assert.Equal(t, "CARD", x["type"])
	assert.Equal(t, "AUTHORIZED", x["status"])
	assert.Equal(t, "DEBIT", x["direction"])
	assert.Equal(t, c.card, x["cardId"])
	assert.Equal(t, c.acct, x["accountId"])
	assert.EqualValues(t, 1250, amountOf(x, "authorizedAmount"))
	avail, total := c.balances()
	assert.EqualValues(t, 8750, avail)
	assert.EqualValues(t, 10000, total, "an authorization holds, it does not spend")
	s.ledgerOK()

	x = c.run("clearing", ref(id, 1500))
	assert.Equal(t, "SETTLED", x["status"])
	assert.EqualValues(t, 1500, amountOf(x, "settledAmount"))
	assert.EqualValues(t, 2, x["pullSummary"].(map[string]any)["count"], "the over-authorization is a second pull")
	assert.EqualValues(t, 1500, x["pullSummary"].(map[string]any)["totalAmount"])
	avail, total = c.balances()
	assert.EqualValues(t, 8500, avail)
	assert.EqualValues(t, 8500, total)
	s.ledgerOK()
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/clearing", ref(id, 10)), 400, payments.CodeInvalidInput)

	x = c.run("return", ref(id, 500))
	assert.Equal(t, "SETTLED", x["status"], "a partial return keeps SETTLED")
	assert.EqualValues(t, 500, amountOf(x, "refundedAmount"))
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/return", ref(id, 1001)), 400, payments.CodeInvalidInput)
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/return_reversal", ref(id)), 400, payments.CodeInvalidInput)
	x = c.run("return", ref(id, 1000))
	assert.Equal(t, "REFUNDED", x["status"])
	assert.EqualValues(t, 2, x["refundSummary"].(map[string]any)["count"])
	avail, _ = c.balances()
	assert.EqualValues(t, 10000, avail)
	s.ledgerOK()

	x = c.run("return_reversal", ref(id))
	assert.Equal(t, "SETTLED", x["status"])
	assert.EqualValues(t, 0, amountOf(x, "refundedAmount"))
	avail, _ = c.balances()
	assert.EqualValues(t, 8500, avail)
	s.ledgerOK()

	assert.Equal(t, []string{"CARD_TRANSACTION.AUTHORIZED", "CARD_TRANSACTION.SETTLED", "CARD_TRANSACTION.SETTLED",
		"CARD_TRANSACTION.REFUNDED", "CARD_TRANSACTION.SETTLED"}, s.cardEvents(id))
}

// TestCardSimulators_Each runs every other simulator once over HTTP.
func TestCardSimulators_Each(t *testing.T) {
	c := newCardScenario(t, 10000)
	s := c.s

	t.Run("authorization_advice and expiry", func(t *testing.T) {
		x := c.run("authorization", auth(1000, "HOTEL"))
		id := x["id"].(string)
		x = c.run("authorization_advice", ref(id, 2500))
		assert.Equal(t, "AUTHORIZED", x["status"])
		assert.EqualValues(t, 2500, amountOf(x, "authorizedAmount"))
		avail, total := c.balances()
		assert.EqualValues(t, 7500, avail)
		assert.EqualValues(t, 10000, total)
		x = c.run("clearing", ref(id, 1000))
		assert.Equal(t, "PARTIALLY_SETTLED", x["status"])
		x = c.run("clearing", ref(id, 0))
		assert.Equal(t, "SETTLED", x["status"], "a 0 clearing expires the rest of the authorization")
		avail, total = c.balances()
		assert.EqualValues(t, 9000, avail)
		assert.EqualValues(t, 9000, total)
		s.ledgerOK()
	})
	t.Run("balance_inquiry", func(t *testing.T) {
		x := c.run("balance_inquiry", map[string]any{"merchant": map[string]any{"descriptor": "SHELL OIL 12345678"}})
		require.NotNil(t, x)
		assert.Equal(t, "AUTHORIZED", x["status"])
		assert.EqualValues(t, 0, amountOf(x, "authorizedAmount"))
	})
	t.Run("credit_authorization then clearing", func(t *testing.T) {
		x := c.run("credit_authorization", auth(700, "STORE CREDIT"))
		assert.Equal(t, "CREDIT", x["direction"])
		assert.Equal(t, "AUTHORIZED", x["status"])
		avail, _ := c.balances()
		assert.EqualValues(t, 9000, avail, "a credit authorization moves nothing yet")
		x = c.run("clearing", ref(x["id"].(string), 700))
		assert.Equal(t, "SETTLED", x["status"])
		avail, _ = c.balances()
		assert.EqualValues(t, 9700, avail)
		s.ledgerOK()
	})
	t.Run("financial_authorization", func(t *testing.T) {
		x := c.run("financial_authorization", auth(300, "ATM"))
		assert.Equal(t, "SETTLED", x["status"])
		assert.EqualValues(t, 300, amountOf(x, "settledAmount"))
		avail, total := c.balances()
		assert.EqualValues(t, 9400, avail)
		assert.EqualValues(t, 9400, total)
		s.ledgerOK()
	})
	t.Run("financial_credit_authorization", func(t *testing.T) {
		x := c.run("financial_credit_authorization", auth(200, "REBATE"))
		assert.Equal(t, "SETTLED", x["status"])
		assert.Equal(t, "CREDIT", x["direction"])
		avail, _ := c.balances()
		assert.EqualValues(t, 9600, avail)
		s.ledgerOK()
	})
	t.Run("credit_authorization_advice", func(t *testing.T) {
		x := c.run("credit_authorization_advice", auth(100, "ADVICE"))
		assert.Equal(t, "AUTHORIZED", x["status"])
		assert.Equal(t, "CREDIT", x["direction"])
		s.ledgerOK()
	})
}

func TestCardSimulators_DeclinesAndExceptions(t *testing.T) {
	c := newCardScenario(t, 1000, set("maxSpendPerTransaction", 800))
	s := c.s
	assert.Nil(t, c.run("authorization", auth(500, "AMAZON RETAIL US-002")), "network decline: INSUFFICIENT_FUNDS")
	assert.Nil(t, c.run("authorization", auth(500, "SHOP-003")), "network decline: CARD_PAUSED")
	assert.Nil(t, c.run("authorization", auth(801, "SHOP")), "over the spending limit")
	assert.NotNil(t, c.run("authorization", auth(800, "SHOP")), "exactly the limit is allowed")
	avail, _ := c.balances()
	assert.EqualValues(t, 200, avail)
	assert.Nil(t, c.run("authorization", auth(201, "SHOP")), "more than the funds")
	require.Equal(t, 200, s.do("PATCH", "/cards/"+c.card, map[string]any{"state": "FROZEN"}).Status)
	assert.Nil(t, c.run("authorization", auth(10, "SHOP")), "a frozen card declines")
	require.Equal(t, 200, s.do("PATCH", "/cards/"+c.card, map[string]any{"state": "ACTIVE"}).Status)

	x := c.run("authorization", auth(50, "FUEL-006"))
	assert.Equal(t, "EXCEPTION", x["status"], "pull succeeded, confirmation failed")
	x = c.run("clearing", ref(x["id"].(string), 50))
	assert.Equal(t, "EXCEPTION", x["status"])
	s.ledgerOK()

	x = c.run("authorization", auth(100, "DELAYED-005"))
	id := x["id"].(string)
	assert.EqualValues(t, 1, x["pullSummary"].(map[string]any)["pendingCount"])
	assert.Empty(t, s.cardEvents(id), "announced when the pull confirms")
	s.clock.Advance(30 * time.Second)
	_, err := s.eng.ProcessDue(ctx)
	require.NoError(t, err)
	x = s.txByID(id)
	assert.EqualValues(t, 0, x["pullSummary"].(map[string]any)["pendingCount"])
	assert.Equal(t, []string{"CARD_TRANSACTION.AUTHORIZED"}, s.cardEvents(id))

	// An advice the funds cannot cover: the network approved it, so the
	// transaction is an EXCEPTION; the clearing pays the network from the
	// cardholder's receivable.
	x = c.run("authorization_advice", ref(id, 5000))
	assert.Equal(t, "EXCEPTION", x["status"])
	x = c.run("clearing", ref(id, 5000))
	assert.Equal(t, "EXCEPTION", x["status"])
	avail, total := c.balances()
	assert.EqualValues(t, 50, avail)
	assert.EqualValues(t, 850, total, "the 800 authorization is still held")
	s.ledgerOK()
	var owed int64
	require.NoError(t, s.store.View(ctx, func(tx payments.Tx) error {
		var err error
		owed, err = payments.Balance(tx, "external:card-receivable:"+c.acct, "USD")
		return err
	}))
	assert.EqualValues(t, -4900, owed, "the shortfall is owed by the cardholder, not hidden")
	assert.Contains(t, s.cardEvents(id), "CARD_TRANSACTION.EXCEPTION")
}

func TestCardSimulators_Errors(t *testing.T) {
	c := newCardScenario(t, 1000)
	s := c.s
	requireError(t, s.do("POST", "/sandbox/cards/Card:nope/simulate/authorization", auth(1, "X")), 404, payments.CodeNotFound)
	x := c.run("authorization", auth(100, "X"))
	h2, a2 := s.funded(100)
	card2 := s.card(h2, a2)["id"].(string)
	requireError(t, s.do("POST", "/sandbox/cards/"+card2+"/simulate/clearing", ref(x["id"].(string), 1)), 404, payments.CodeTransactionNotFound)
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/clearing", ref("Transaction:nope", 1)), 404, payments.CodeTransactionNotFound)
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/authorization", map[string]any{"amount": 0}), 400,
		payments.CodeInvalidInput, "amount", "currency", "merchant")
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/clearing", map[string]any{}), 400,
		payments.CodeInvalidInput, "cardTransactionId", "amount")
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/return_reversal", map[string]any{}), 400,
		payments.CodeInvalidInput, "cardTransactionId")
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/balance_inquiry", map[string]any{"merchant": map[string]any{}}), 400,
		payments.CodeInvalidInput, "merchant.descriptor")
	bad := auth(100, "X")
	bad["currency"] = map[string]any{"code": "EUR"}
	requireError(t, s.do("POST", "/sandbox/cards/"+c.card+"/simulate/authorization", bad), 400, payments.CodeInvalidInput, "currency.code")
	s.ledgerOK()
}
