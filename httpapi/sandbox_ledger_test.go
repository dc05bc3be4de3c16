package httpapi_test

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxLedger: GET /sandbox/ledger/accounts pages through every
// ledger account's balance (summing to zero per currency, no account
// skipped or repeated), GET /sandbox/ledger/entries?transactionId= lists a
// payment's journal, every entry balanced; bad parameters are 400
// INVALID_INPUT naming each.
func TestSandboxLedger(t *testing.T) {
	s := newServer(t)
	account := func(name string) string {
		in := enginetest.FullIndividual(name)
		in.Currencies = []string{"USD"}
		c, err := s.eng.Customers.Create(ctx, in)
		require.NoError(t, err)
		page, err := s.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
		require.NoError(t, err)
		return page.Data[0].ID
	}
	from, to := account("Ann Payer"), account("Bo Payee")
	_, err := s.eng.Sandbox.Fund(ctx, from, 5_000)
	require.NoError(t, err)
	q, err := s.eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 1_200, true))
	require.NoError(t, err)

	var seen []string
	sums := map[string]int64{}
	cursor := ""
	for {
		path := "/sandbox/ledger/accounts?limit=1"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		r := logGet(t, s, path)
		require.Equal(t, 200, r.Status, "%s", r.Raw)
		var page struct {
			Data       []payments.LedgerBalance
			HasMore    bool
			NextCursor string
		}
		require.NoError(t, json.Unmarshal(r.Raw, &page))
		require.LessOrEqual(t, len(page.Data), 1)
		for _, b := range page.Data {
			seen = append(seen, b.Account+"|"+b.Currency)
			sums[b.Currency] += b.Balance
		}
		if !page.HasMore {
			break
		}
		cursor = page.NextCursor
	}
	r := logGet(t, s, "/sandbox/ledger/accounts?limit=100")
	var all struct{ Data []payments.LedgerBalance }
	require.NoError(t, json.Unmarshal(r.Raw, &all))
	var want []string
	for _, b := range all.Data {
		want = append(want, b.Account+"|"+b.Currency)
	}
	assert.Equal(t, want, seen, "pages of one: no gap, no repeat")
	assert.Contains(t, seen, from+"|USD")
	assert.Contains(t, seen, to+"|USD")
	for cur, sum := range sums {
		assert.Zero(t, sum, cur)
	}
	r = logGet(t, s, "/sandbox/ledger/accounts?account="+url.QueryEscape(to))
	require.NoError(t, json.Unmarshal(r.Raw, &all))
	require.NotEmpty(t, all.Data)
	assert.Equal(t, to, all.Data[0].Account)
	assert.EqualValues(t, 1_200, all.Data[0].Balance)

	r = logGet(t, s, "/sandbox/ledger/entries?transactionId="+url.QueryEscape(q.TransactionID))
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	var journal struct{ Data []payments.LedgerEntry }
	require.NoError(t, json.Unmarshal(r.Raw, &journal))
	require.NotEmpty(t, journal.Data)
	for _, en := range journal.Data {
		assert.Equal(t, q.TransactionID, en.Reference)
		per := map[string]int64{}
		for _, p := range en.Postings {
			per[p.Currency] += p.Amount
		}
		for cur, sum := range per {
			assert.Zero(t, sum, "entry %s in %s", en.ID, cur)
		}
	}

	for path, fields := range map[string][]string{
		"/sandbox/ledger/entries":                             {"transactionId"},
		"/sandbox/ledger/entries?transactionId=a&other=1":     {"other"},
		"/sandbox/ledger/entries?reference=a&transactionId=b": {"reference"},
		"/sandbox/ledger/accounts?limit=0&sortOrder=up":       {"limit", "sortOrder"},
		"/sandbox/ledger/accounts?cursor=bm9wZQ":              {"cursor"},
		"/sandbox/ledger/accounts?currency=USD":               {"currency"},
	} {
		requireError(t, logGet(t, s, path), 400, payments.CodeInvalidInput, fields...)
	}
}
