package httpapi_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sandboxServer(t *testing.T) *server {
	return newServer(t, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}
	})
}

func TestReceiverLookups(t *testing.T) {
	s := sandboxServer(t)
	r := s.do("GET", "/receiver/uma/"+sandbox.UMASuccessEUR, nil)
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Regexp(t, `^Lookup:`, r.Body["lookupId"])
	assert.Equal(t, sandbox.UMASuccessEUR, r.Body["receiverUmaAddress"])
	cur := r.Body["supportedCurrencies"].([]any)[0].(map[string]any)
	assert.Equal(t, "EUR", cur["currency"].(map[string]any)["code"])
	assert.InDelta(t, 1.0869565, cur["estimatedExchangeRate"], 1e-6)
	assert.Equal(t, []any{map[string]any{"name": "FULL_NAME", "mandatory": true}, map[string]any{"name": "COUNTRY_OF_RESIDENCE", "mandatory": false}}, r.Body["requiredPayerDataFields"])
	assert.Equal(t, 200, s.do("GET", "/receiver/uma/$success.usd@sandbox.grid.uma.money", nil).Status, "both sandbox domains")

	requireError(t, s.do("GET", "/receiver/uma/$non.existent.usd@sandbox.uma.money", nil), 404, payments.CodeUmaNotFound)
	requireError(t, s.do("GET", "/receiver/uma/not-an-address", nil), 400, payments.CodeInvalidUmaAddress)

	c := s.do("POST", "/customers", individual(set("umaAddress", "$jane@sandbox.uma.money"), set("currencies", []string{"USD"})))
	require.Equal(t, 201, c.Status)
	own := s.do("GET", "/receiver/uma/$jane@sandbox.uma.money", nil)
	require.Equal(t, 200, own.Status, "%s", own.Raw)
	assert.Len(t, own.Body["supportedCurrencies"], 1, "a platform customer receives in its own currencies")

	a := s.do("POST", "/customers/external-accounts", usdAccount(c.Body["id"].(string), "123456789"))
	l := s.do("GET", "/receiver/external-account/"+a.Body["id"].(string), nil)
	require.Equal(t, 200, l.Status, "%s", l.Raw)
	assert.Equal(t, a.Body["id"], l.Body["accountId"])
	requireError(t, s.do("GET", "/receiver/external-account/ExternalAccount:nope", nil), 404, payments.CodeAccountNotFound)
}

func TestDirectoriesAndRates(t *testing.T) {
	s := sandboxServer(t)
	v := s.do("GET", "/vasps", nil)
	require.Equal(t, 200, v.Status, "%s", v.Raw)
	assert.NotEmpty(t, v.Body["data"])
	d := s.do("GET", "/discoveries?country=PH&currency=PHP", nil)
	require.Equal(t, 200, d.Status, "%s", d.Raw)
	assert.Len(t, d.Body["data"], 2)
	assert.Equal(t, 200, s.do("GET", "/uma-providers", nil).Status)

	r := s.do("GET", "/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=MXN&sendingAmount=100000", nil)
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	rows := r.Body["data"].([]any)
	require.Len(t, rows, 2)
	eur := rows[0].(map[string]any)
	assert.EqualValues(t, 92000, eur["receivingAmount"], "1 USD = 0.92 EUR, no platform fee")

	fee := s.do("PATCH", "/config", map[string]any{"feeConfigs": []any{map[string]any{"feeType": "CROSS_CURRENCY_TRANSACTION",
		"sourceCurrency": "USD", "variableFeeBps": 50, "fixedFee": map[string]any{"amount": 100, "currency": "USD"}}}})
	require.Equal(t, 200, fee.Status, "%s", fee.Raw)
	r = s.do("GET", "/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&sendingAmount=100000", nil)
	eur = r.Body["data"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"fixed": 100.0, "total": 100.0 + 500.0}, eur["fees"], "50 bps of 99900 rounds to 500")
	assert.EqualValues(t, (100000-600)*92/100, eur["receivingAmount"])
	requireError(t, s.do("GET", "/exchange-rates?sourceCurrency=XYZ&destinationCurrency=JPY", nil), 400, payments.CodeInvalidInput, "sourceCurrency", "destinationCurrency.0")
}
