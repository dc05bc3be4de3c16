package payments_test

import (
	"context"
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLedger_Read: after a payout, Engine.Ledger lists every ledger
// account (the customers' internal accounts, their holds, the platform's
// and the world outside) with balances that sum to zero per currency, in
// pages whose cursors neither skip nor repeat an account; the journal of
// the payout's transaction lists entries that each balance, in pages too;
// bad paging and a missing reference are INVALID_INPUT; on every store.
func TestLedger_Read(t *testing.T) {
	ctx := context.Background()
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			e := enginetest.MoneyEnv(t, store)
			from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
			_, err := e.Eng.Sandbox.Fund(ctx, from, 10_000)
			require.NoError(t, err)
			acct, err := e.Eng.Accounts.Internal(ctx, from)
			require.NoError(t, err)
			bank := e.ExternalUSD(t, acct.CustomerID, "0001")
			q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, bank, 2_500, true))
			require.NoError(t, err)
			payout := q.TransactionID
			for range 3 {
				_, err = e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 100, true))
				require.NoError(t, err)
			}
			require.NoError(t, e.Eng.Sandbox.RunDue(ctx))

			all, err := e.Eng.Ledger.Accounts(ctx, "", payments.ListParams{Limit: 100})
			require.NoError(t, err)
			require.False(t, all.HasMore)
			sums := map[string]int64{}
			var accounts []string
			external := false
			for _, b := range all.Data {
				sums[b.Currency] += b.Balance
				accounts = append(accounts, b.Account+"|"+b.Currency)
				external = external || (b.External && strings.HasPrefix(b.Account, "external:"))
				if !b.External {
					assert.GreaterOrEqual(t, b.Balance, int64(0), b.Account)
				}
			}
			assert.True(t, external, "the world outside is listed: %v", accounts)
			assert.Contains(t, accounts, from+"|USD")
			require.Greater(t, len(accounts), 3)
			for cur, sum := range sums {
				assert.Zero(t, sum, "%s sums to zero", cur)
			}
			for _, b := range all.Data {
				if b.Account == from {
					assert.Equal(t, e.Available(t, from), b.Balance, "the ledger says what the account says")
				}
			}

			// Pages of 2, forward and back: every account once, in order.
			for _, desc := range []bool{false, true} {
				var paged []string
				p := payments.ListParams{Limit: 2, Desc: desc}
				for {
					page, err := e.Eng.Ledger.Accounts(ctx, "", p)
					require.NoError(t, err)
					require.LessOrEqual(t, len(page.Data), 2)
					for _, b := range page.Data {
						paged = append(paged, b.Account+"|"+b.Currency)
					}
					if !page.HasMore {
						break
					}
					p.Cursor = page.NextCursor
				}
				want := append([]string(nil), accounts...)
				if desc {
					for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
						want[i], want[j] = want[j], want[i]
					}
				}
				assert.Equal(t, want, paged, "desc=%v", desc)
			}
			ext, err := e.Eng.Ledger.Accounts(ctx, "external:", payments.ListParams{})
			require.NoError(t, err)
			require.NotEmpty(t, ext.Data)
			for _, b := range ext.Data {
				assert.True(t, strings.HasPrefix(b.Account, "external:"), b.Account)
			}
			_, err = e.Eng.Ledger.Accounts(ctx, "external:", payments.ListParams{Cursor: "bm9wZQ"})
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "cursor")
			first, err := e.Eng.Ledger.Accounts(ctx, "", payments.ListParams{Limit: 1})
			require.NoError(t, err)
			_, err = e.Eng.Ledger.Accounts(ctx, "external:", payments.ListParams{Cursor: first.NextCursor})
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "cursor")

			// The payout's journal: entries of its transaction alone, each
			// balanced, the same in pages of one.
			journal, err := e.Eng.Ledger.Journal(ctx, payout, payments.ListParams{})
			require.NoError(t, err)
			require.NotEmpty(t, journal.Data)
			touched := false
			for _, en := range journal.Data {
				assert.Equal(t, payout, en.Reference)
				per := map[string]int64{}
				for _, p := range en.Postings {
					per[p.Currency] += p.Amount
					touched = touched || p.Account == from
				}
				for cur, sum := range per {
					assert.Zero(t, sum, "entry %s balances in %s", en.ID, cur)
				}
			}
			assert.True(t, touched, "the payout moves the paying account")
			var ids []string
			p := payments.ListParams{Limit: 1}
			for {
				page, err := e.Eng.Ledger.Journal(ctx, payout, p)
				require.NoError(t, err)
				for _, en := range page.Data {
					ids = append(ids, en.ID)
				}
				if !page.HasMore {
					break
				}
				p.Cursor = page.NextCursor
			}
			var want []string
			for _, en := range journal.Data {
				want = append(want, en.ID)
			}
			assert.Equal(t, want, ids)
			none, err := e.Eng.Ledger.Journal(ctx, "Transaction:none", payments.ListParams{})
			require.NoError(t, err)
			assert.Empty(t, none.Data)
			_, err = e.Eng.Ledger.Journal(ctx, "", payments.ListParams{})
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "reference")
			require.NoError(t, payments.CheckLedger(ctx, e.Store))
		})
	}
}
