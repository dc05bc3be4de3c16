package quotes_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
)

// TestEngine_ListQuotes: quotes list newest first, page by cursor, filter
// by sender, and read as Quote reads them (a lapsed one EXPIRED).
func TestEngine_ListQuotes(t *testing.T) {
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			a, b := e.USDAccount(t, "Ann Able"), e.USDAccount(t, "Bob Baker")
			_, err := e.Eng.Sandbox.Fund(ctx, a, 10_000)
			require.NoError(t, err)
			var ids []string
			for i := range 3 {
				q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(a, b, int64(100+i), false))
				require.NoError(t, err)
				ids = append(ids, q.ID)
				e.Clock.Advance(time.Second)
			}
			first, err := e.Eng.Quotes.List(ctx, payments.QuoteFilter{}, payments.ListParams{Limit: 2, Desc: true})
			require.NoError(t, err)
			require.True(t, first.HasMore)
			rest, err := e.Eng.Quotes.List(ctx, payments.QuoteFilter{}, payments.ListParams{Limit: 2, Desc: true, Cursor: first.NextCursor})
			require.NoError(t, err)
			require.False(t, rest.HasMore)
			got := []string{first.Data[0].ID, first.Data[1].ID, rest.Data[0].ID}
			assert.Equal(t, []string{ids[2], ids[1], ids[0]}, got)
			assert.Equal(t, payments.QuotePending, first.Data[0].Status)

			ia, err := e.Eng.Accounts.Internal(ctx, a)
			require.NoError(t, err)
			mine, err := e.Eng.Quotes.List(ctx, payments.QuoteFilter{CustomerID: ia.CustomerID}, payments.ListParams{})
			require.NoError(t, err)
			assert.Len(t, mine.Data, 3)
			ib, err := e.Eng.Accounts.Internal(ctx, b)
			require.NoError(t, err)
			none, err := e.Eng.Quotes.List(ctx, payments.QuoteFilter{CustomerID: ib.CustomerID}, payments.ListParams{})
			require.NoError(t, err)
			assert.Empty(t, none.Data)

			e.Clock.Advance(time.Hour)
			later, err := e.Eng.Quotes.List(ctx, payments.QuoteFilter{}, payments.ListParams{})
			require.NoError(t, err)
			for _, q := range later.Data {
				assert.Equal(t, payments.QuoteExpired, q.Status, "read as the next ProcessDue records it")
			}

			_, err = e.Eng.Quotes.List(ctx, payments.QuoteFilter{}, payments.ListParams{Cursor: "bm9wZQ"})
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "cursor")
			_, err = e.Eng.Quotes.List(ctx, payments.QuoteFilter{}, payments.ListParams{Limit: 101})
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "limit")
		})
	}
}
