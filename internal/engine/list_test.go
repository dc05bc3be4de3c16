package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/boltstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allTx follows the cursors of a transaction list to its end and returns the
// ids in order with the number of pages read.
func allTx(t *testing.T, eng *payments.Engine, f payments.TransactionFilter, p payments.ListParams) ([]string, int) {
	t.Helper()
	var ids []string
	pages := 0
	for {
		page, err := eng.Transactions.List(ctx, f, p)
		require.NoError(t, err)
		pages++
		for _, tx := range page.Data {
			ids = append(ids, tx.ID)
		}
		if !page.HasMore {
			return ids, pages
		}
		p.Cursor = page.NextCursor
	}
}

func TestEngine_ListTransactions_Index(t *testing.T) {
	t.Run("StatusChangeMovesBetweenIndexPages", func(t *testing.T) {
		e := enginetest.NewEnv(t)
		require.NoError(t, enginetest.SeedTransactions(ctx, e.Eng, 30, 30, func(i int) payments.Transaction {
			return enginetest.SeedTx(i, 3, func(int) payments.TransactionStatus { return payments.TxPending })
		}))
		require.NoError(t, enginetest.SetTransactionStatus(ctx, e.Eng, "Transaction:00000007", payments.TxCompleted))
		pending, _ := allTx(t, e.Eng, payments.TransactionFilter{Status: payments.TxPending}, payments.ListParams{Limit: 4})
		done, _ := allTx(t, e.Eng, payments.TransactionFilter{Status: payments.TxCompleted}, payments.ListParams{Limit: 4})
		assert.Len(t, pending, 29)
		assert.NotContains(t, pending, "Transaction:00000007")
		assert.Equal(t, []string{"Transaction:00000007"}, done)
		byCustomer, _ := allTx(t, e.Eng, payments.TransactionFilter{CustomerID: "Customer:c1", Status: payments.TxCompleted}, payments.ListParams{})
		assert.Equal(t, []string{"Transaction:00000007"}, byCustomer, "the customer index is unchanged, the record's status is read")
	})

	t.Run("SparseFilterResumesViaCursor", func(t *testing.T) {
		e := enginetest.NewEnv(t)
		failed := map[int]bool{100: true, 1900: true, 2950: true}
		require.NoError(t, enginetest.SeedTransactions(ctx, e.Eng, 3000, 1000, func(i int) payments.Transaction {
			return enginetest.SeedTx(i, 1, func(i int) payments.TransactionStatus {
				if failed[i] {
					return payments.TxFailed
				}
				return payments.TxCompleted
			})
		}))
		// customerId is read from its index; the status is a post-filter
		// matching 3 of 3000, and a page examines at most 100×limit entries.
		f := payments.TransactionFilter{CustomerID: "Customer:c0", Status: payments.TxFailed}
		page, err := e.Eng.Transactions.List(ctx, f, payments.ListParams{Limit: 5})
		require.NoError(t, err)
		assert.Equal(t, []string{"Transaction:00000100"}, idsOf(page.Data), "the first 500 entries hold one match")
		assert.True(t, page.HasMore)
		assert.Nil(t, page.TotalCount)
		ids, pages := allTx(t, e.Eng, f, payments.ListParams{Limit: 5})
		assert.Equal(t, []string{"Transaction:00000100", "Transaction:00001900", "Transaction:00002950"}, ids)
		assert.Equal(t, 6, pages, "3000 entries, 500 a page")
		desc, _ := allTx(t, e.Eng, f, payments.ListParams{Limit: 5, Desc: true})
		assert.Equal(t, []string{"Transaction:00002950", "Transaction:00001900", "Transaction:00000100"}, desc)
		bystatus, pages := allTx(t, e.Eng, payments.TransactionFilter{Status: payments.TxFailed}, payments.ListParams{Limit: 5})
		assert.Equal(t, ids, bystatus)
		assert.Equal(t, 1, pages, "alone, the status is read from its index")
	})

	t.Run("DateRangeIsAnIndexRange", func(t *testing.T) {
		e := enginetest.NewEnv(t)
		require.NoError(t, enginetest.SeedTransactions(ctx, e.Eng, 50, 50, func(i int) payments.Transaction { return enginetest.SeedTx(i, 2, enginetest.Completed) }))
		f := payments.TransactionFilter{CustomerID: "Customer:c1", StartDate: timeZero().Add(10 * time.Millisecond), EndDate: timeZero().Add(15 * time.Millisecond)}
		for _, desc := range []bool{false, true} {
			ids, _ := allTx(t, e.Eng, f, payments.ListParams{Limit: 2, Desc: desc})
			want := []string{"Transaction:00000011", "Transaction:00000013", "Transaction:00000015"}
			if desc {
				want = []string{want[2], want[1], want[0]}
			}
			assert.Equal(t, want, ids, "desc=%v", desc)
		}
	})

	t.Run("CursorOfAnotherListRefused", func(t *testing.T) {
		e := enginetest.NewEnv(t)
		require.NoError(t, enginetest.SeedTransactions(ctx, e.Eng, 10, 10, func(i int) payments.Transaction { return enginetest.SeedTx(i, 2, enginetest.Completed) }))
		for range 3 {
			_, err := e.Eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "t", Permissions: []payments.Permission{payments.PermView}})
			require.NoError(t, err)
		}
		tokens, err := e.Eng.Platform.ListTokens(ctx, payments.TokenFilter{}, payments.ListParams{Limit: 1})
		require.NoError(t, err)
		page, err := e.Eng.Transactions.List(ctx, payments.TransactionFilter{CustomerID: "Customer:c0"}, payments.ListParams{Limit: 1})
		require.NoError(t, err)
		require.True(t, page.HasMore)
		for name, c := range map[string]struct {
			f payments.TransactionFilter
			p payments.ListParams
		}{
			"token list":     {payments.TransactionFilter{}, payments.ListParams{Cursor: tokens.NextCursor}},
			"other customer": {payments.TransactionFilter{CustomerID: "Customer:c1"}, payments.ListParams{Cursor: page.NextCursor}},
			"other index":    {payments.TransactionFilter{Status: payments.TxCompleted}, payments.ListParams{Cursor: page.NextCursor}},
			"other order":    {payments.TransactionFilter{CustomerID: "Customer:c0"}, payments.ListParams{Cursor: page.NextCursor, Desc: true}},
			"not base64":     {payments.TransactionFilter{}, payments.ListParams{Cursor: "!!"}},
		} {
			t.Run(name, func(t *testing.T) {
				_, err := e.Eng.Transactions.List(ctx, c.f, c.p)
				enginetest.RequireCode(t, err, payments.CodeInvalidInput, "cursor")
			})
		}
		_, err = e.Eng.Transactions.List(ctx, payments.TransactionFilter{CustomerID: "Customer:c0", Type: "OUTGOING"}, payments.ListParams{Limit: 1, Cursor: page.NextCursor})
		assert.NoError(t, err, "a post-filter added to the same index keeps the cursor valid")
	})

	t.Run("FilterCombinationsMatchAScan", func(t *testing.T) {
		// Random transactions, some of them moved to another status, listed
		// with random combinations of filters (the first indexed one is read,
		// the others are probed in their indexes, all are checked on the
		// records), page sizes and directions: every list must hold exactly
		// the transactions a scan of all of them keeps, in order.
		e := enginetest.NewEnv(t)
		rng := rand.New(rand.NewPCG(8, 8))
		statuses := []payments.TransactionStatus{payments.TxPending, payments.TxCompleted, payments.TxFailed}
		pick := func(prefix string, n int) string { return fmt.Sprintf("%s%d", prefix, rng.IntN(n)) }
		const n = 400
		all := make([]payments.Transaction, n)
		for i := range all {
			tx := enginetest.SeedTx(i, 1, func(int) payments.TransactionStatus { return statuses[rng.IntN(len(statuses))] })
			tx.CustomerID, tx.PlatformCustomerID = pick("Customer:c", 4), pick("p", 3)
			tx.Type = []payments.TransactionType{payments.TxOutgoing, payments.TxIncoming}[rng.IntN(2)]
			tx.Source.AccountID, tx.Destination.AccountID = pick("InternalAccount:a", 3), pick("ExternalAccount:x", 3)
			tx.QuoteID = pick("Quote:q", 5)
			all[i] = tx
		}
		require.NoError(t, enginetest.SeedTransactions(ctx, e.Eng, n, 100, func(i int) payments.Transaction { return all[i] }))
		for range 60 { // pending ones settle or fail
			if i := rng.IntN(n); all[i].Status == payments.TxPending {
				all[i].Status = statuses[1+rng.IntN(2)]
				require.NoError(t, enginetest.SetTransactionStatus(ctx, e.Eng, all[i].ID, all[i].Status))
			}
		}
		maybe := func(v string) string { // set one time in three, sometimes to a value no record has
			switch rng.IntN(6) {
			case 0:
				return v
			case 1:
				return v + "-none"
			}
			return ""
		}
		for range 300 {
			f := payments.TransactionFilter{CustomerID: maybe(pick("Customer:c", 4)), PlatformCustomerID: maybe(pick("p", 3)),
				Type: payments.TransactionType(maybe("OUTGOING")), AccountIdentifier: maybe(pick("InternalAccount:a", 3)),
				SenderAccountIdentifier: maybe(pick("ExternalAccount:x", 3)), ReceiverAccountIdentifier: maybe(pick("ExternalAccount:x", 3)),
				Reference: maybe(pick("Quote:q", 5))}
			if rng.IntN(2) == 0 {
				f.Status = statuses[rng.IntN(len(statuses))]
			}
			if strings.HasSuffix(string(f.Type), "-none") {
				f.Type = payments.TxIncoming
			}
			p := payments.ListParams{Limit: 1 + rng.IntN(7), Desc: rng.IntN(2) == 0}
			var want []string
			for _, tx := range all {
				if (f.CustomerID == "" || tx.CustomerID == f.CustomerID) && (f.PlatformCustomerID == "" || tx.PlatformCustomerID == f.PlatformCustomerID) &&
					(f.Status == "" || tx.Status == f.Status) && (f.Type == "" || tx.Type == f.Type) &&
					(f.AccountIdentifier == "" || tx.Source.AccountID == f.AccountIdentifier || tx.Destination.AccountID == f.AccountIdentifier) &&
					(f.SenderAccountIdentifier == "" || tx.Source.AccountID == f.SenderAccountIdentifier) &&
					(f.ReceiverAccountIdentifier == "" || tx.Destination.AccountID == f.ReceiverAccountIdentifier) &&
					(f.Reference == "" || tx.QuoteID == f.Reference) {
					want = append(want, tx.ID)
				}
			}
			if p.Desc {
				slices.Reverse(want)
			}
			got, _ := allTx(t, e.Eng, f, p)
			require.Equal(t, want, got, "filter %+v, %+v", f, p)
		}
	})

	t.Run("NoGapsOrDuplicatesWhileInserting", func(t *testing.T) {
		e := enginetest.NewEnv(t)
		const initial = 300
		require.NoError(t, enginetest.SeedTransactions(ctx, e.Eng, initial, 100, func(i int) payments.Transaction { return enginetest.SeedTx(i, 1, enginetest.Completed) }))
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 3 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					n := 1000000 + w*100000 + i
					// spread over the whole range, before and after the reader's position
					_ = enginetest.SeedTransactions(ctx, e.Eng, 1, 1, func(int) payments.Transaction {
						tx := enginetest.SeedTx(n, 1, enginetest.Completed)
						tx.CreatedAt = timeZero().Add(time.Duration((i*37)%(initial+50)) * time.Millisecond)
						return tx
					})
				}
			})
		}
		for _, desc := range []bool{false, true} {
			ids, _ := allTx(t, e.Eng, payments.TransactionFilter{CustomerID: "Customer:c0"}, payments.ListParams{Limit: 7, Desc: desc})
			seen := map[string]int{}
			for _, id := range ids {
				seen[id]++
				assert.Equal(t, 1, seen[id], "duplicate %s", id)
			}
			for i := range initial {
				assert.Equal(t, 1, seen[fmt.Sprintf("Transaction:%08d", i)], "record %d present from the start (desc=%v)", i, desc)
			}
		}
		close(stop)
		wg.Wait()
	})
}

func idsOf(txs []payments.Transaction) []string {
	var out []string
	for _, tx := range txs {
		out = append(out, tx.ID)
	}
	return out
}

// TestNew_BuildsIndexesOfAnOlderStore: a boltstore file whose records were
// written without index entries (as before indexes existed) is indexed by
// New, in batches, and lists from then on.
func TestNew_BuildsIndexesOfAnOlderStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := boltstore.Open(path, nil)
	require.NoError(t, err)
	const n = 2500 // three build batches
	require.NoError(t, s.Update(ctx, func(tx payments.Tx) error {
		for i := range n {
			rec := enginetest.SeedTx(i, 5, enginetest.Completed)
			b, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			if err := tx.Put("transactions", rec.ID, b); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, s.Close())

	s, err = boltstore.Open(path, nil)
	require.NoError(t, err)
	defer s.Close()
	eng, err := payments.New(payments.Config{Store: s})
	require.NoError(t, err)
	ids, _ := allTx(t, eng, payments.TransactionFilter{CustomerID: "Customer:c3"}, payments.ListParams{Limit: 100})
	assert.Len(t, ids, n/5)
	all, _ := allTx(t, eng, payments.TransactionFilter{}, payments.ListParams{Limit: 100, Desc: true})
	require.Len(t, all, n)
	assert.Equal(t, "Transaction:00002499", all[0])
	require.NoError(t, eng.Close())

	// A later start finds the version marker; the lists stay whole.
	eng, err = payments.New(payments.Config{Store: s})
	require.NoError(t, err)
	defer eng.Close()
	ids, _ = allTx(t, eng, payments.TransactionFilter{Status: payments.TxCompleted}, payments.ListParams{Limit: 100})
	assert.Len(t, ids, n)
}

// wirePage is Page without its MarshalJSON: what encoding/json makes of it.
type wirePage[T any] struct {
	Data       []T    `json:"data"`
	HasMore    bool   `json:"hasMore"`
	NextCursor string `json:"nextCursor,omitempty"`
	TotalCount *int   `json:"totalCount,omitempty"`
}

// TestPage_MarshalJSON: a page encodes to the bytes encoding/json makes of
// the same envelope, for items that encode themselves (transactions, with
// text that needs escaping) and items that do not, and an empty page's data
// is [] even when nil.
func TestPage_MarshalJSON(t *testing.T) {
	n := 3
	txs := []payments.Transaction{enginetest.SeedTx(1, 2, enginetest.Completed), enginetest.SeedTx(2, 2, enginetest.Completed)}
	txs[0].Description = `<b>"rent" & \ more</b>` + "\u2028\x01é"
	fees := int64(25)
	txs[1].Fees, txs[1].Refund = &fees, &payments.Refund{Reference: "R&D", Reason: "<x>"}
	type plain struct {
		Name string `json:"name"`
		N    int    `json:"n,omitempty"`
	}
	for name, c := range map[string]struct{ ours, want any }{
		"transactions": {
			payments.Page[payments.Transaction]{Data: txs, HasMore: true, NextCursor: "abc<&>"},
			wirePage[payments.Transaction]{Data: txs, HasMore: true, NextCursor: "abc<&>"}},
		"plain items": {
			payments.Page[plain]{Data: []plain{{Name: "a<b"}, {N: 2}}, TotalCount: &n},
			wirePage[plain]{Data: []plain{{Name: "a<b"}, {N: 2}}, TotalCount: &n}},
		"empty": {
			payments.Page[plain]{Data: []plain{}},
			wirePage[plain]{Data: []plain{}}},
	} {
		got, err := json.Marshal(c.ours)
		require.NoError(t, err, name)
		want, err := json.Marshal(c.want)
		require.NoError(t, err, name)
		assert.Equal(t, string(want), string(got), name)
	}
	got, err := json.Marshal(payments.Page[plain]{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"data":[],"hasMore":false}`, string(got))
}
