package pgstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/pgtest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/pgstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// world is an engine with a few customers, accounts, payments and an
// external account, for the tests of the store's tables.
type world struct {
	eng        *payments.Engine
	store      payments.Store
	payer      string // USD account of an individual, funded
	payee      string // USD account of another
	payeeEUR   string // its EUR account
	business   string // a business customer
	completed  string // a transaction that completed
	pending    string // a quote waiting to execute
	fx         string // a USD to EUR transaction
	funded     int64
	totalMoved int64
}

var ctx = context.Background()

func newEngine(t testing.TB, store payments.Store, mutate ...func(*payments.Config)) *payments.Engine {
	t.Helper()
	cfg := payments.Config{Store: store, Sandbox: true, KYC: sandbox.KYC{}, Rail: sandbox.Rail{},
		Rates: sandbox.Rates{}, Directory: sandbox.Directory{}}
	for _, m := range mutate {
		m(&cfg)
	}
	eng, err := payments.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close() })
	return eng
}

func individual(name string, currencies ...string) payments.CustomerInput {
	return payments.CustomerInput{CustomerType: payments.CustomerIndividual, Identifier: "123-45-6789", Currencies: currencies,
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms, TermsVersion: payments.CurrentEndUserTerms.Version,
			AcceptedAt: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}},
		Profile: customers.Profile{FullName: name, BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
			Address: &customers.Address{Line1: "1 Main St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}}}
}

// account creates a customer from in and returns its account in currency.
func account(t testing.TB, eng *payments.Engine, in payments.CustomerInput, currency string) (customerID, accountID string) {
	t.Helper()
	c, err := eng.Customers.Create(ctx, in)
	require.NoError(t, err)
	page, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	for _, a := range page.Data {
		if a.Currency == currency {
			return c.ID, a.ID
		}
	}
	t.Fatalf("customer %s has no %s account", c.ID, currency)
	return "", ""
}

func transfer(from, to string, amount int64, execute bool) payments.QuoteRequest {
	return payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: from},
		Destination:        payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: to},
		LockedCurrencySide: "SENDING", LockedCurrencyAmount: amount, ImmediatelyExecute: execute}
}

// newWorld fills the engine on store.
func newWorld(t testing.TB, store payments.Store, mutate ...func(*payments.Config)) *world {
	t.Helper()
	eng := newEngine(t, store, mutate...)
	w := &world{eng: eng, store: store, funded: 100_000}
	payer, payerAccount := account(t, eng, individual("Ann Payer", "USD"), "USD")
	w.payer = payerAccount
	_, w.payee = account(t, eng, individual("Bo Payee", "USD", "EUR"), "USD")
	payeeCustomer, err := eng.Accounts.Internal(ctx, w.payee)
	require.NoError(t, err)
	page, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: payeeCustomer.CustomerID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	for _, a := range page.Data {
		if a.Currency == "EUR" {
			w.payeeEUR = a.ID
		}
	}
	b, err := eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerBusiness,
		Profile: customers.Profile{Address: &customers.Address{Line1: "400 Commerce Way", PostalCode: "78701", Country: "US"},
			BusinessInfo: &customers.BusinessInfo{LegalName: "Acme Corp", Country: "US", TaxID: "12-3456789", IncorporatedOn: "2015-03-01", RegistrationNumber: "R-1"}}})
	require.NoError(t, err)
	w.business = b.ID
	_, err = eng.Sandbox.Fund(ctx, w.payer, w.funded)
	require.NoError(t, err)
	_, err = eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: payer, Currency: "USD",
		AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"7778881234","routingNumber":"021000021",
			"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Ann Payer"}}`)}, payments.CustomerScope)
	require.NoError(t, err)
	q, err := eng.Quotes.Create(ctx, transfer(w.payer, w.payee, 300, true))
	require.NoError(t, err)
	w.completed, w.totalMoved = q.TransactionID, 300
	q, err = eng.Quotes.Create(ctx, transfer(w.payer, w.payeeEUR, 1000, true))
	require.NoError(t, err)
	w.fx = q.TransactionID
	w.totalMoved += 1000
	q, err = eng.Quotes.Create(ctx, transfer(w.payer, w.payee, 5, false))
	require.NoError(t, err)
	w.pending = q.ID
	return w
}

// sqlConn connects to the schema of a store opened by pgtest.
func sqlConn(t testing.TB, schema string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(pgtest.DSN(t))
	require.NoError(t, err)
	cfg.RuntimeParams["search_path"] = schema
	c, err := pgx.ConnectConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

func openSchema(t testing.TB) (*pgstore.Store, string) {
	t.Helper()
	schema := pgtest.Schema(t)
	s, err := pgstore.Open(ctx, pgtest.DSN(t), &pgstore.Options{Schema: schema})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, schema
}

// TestTables_UsersQueries: the engine's records are rows of real tables a
// finance team queries: the README's three queries answer what the engine
// says, the journal sums to zero in every currency, and every typed column
// of every record table is filled from real records.
func TestTables_UsersQueries(t *testing.T) {
	store, schema := openSchema(t)
	w := newWorld(t, store)
	c := sqlConn(t, schema)

	// An account's balance.
	var balance, held, total int64
	var currency string
	require.NoError(t, c.QueryRow(ctx, `SELECT currency, balance, held, total_balance FROM internal_accounts WHERE id = $1`, w.payer).
		Scan(&currency, &balance, &held, &total))
	a, err := w.eng.Accounts.Internal(ctx, w.payer)
	require.NoError(t, err)
	assert.Equal(t, "USD", currency)
	assert.Equal(t, a.Balance.Amount, balance)
	assert.Equal(t, a.TotalBalance.Amount, total)
	assert.Equal(t, w.funded-w.totalMoved, balance)

	// A transaction's journal: its postings, balanced per currency.
	rows, err := c.Query(ctx, `SELECT account, currency, amount FROM ledger_entries WHERE reference = $1 ORDER BY entry_id, seq`, w.completed)
	require.NoError(t, err)
	sums := map[string]int64{}
	n := 0
	for rows.Next() {
		var acct, cur string
		var amount int64
		require.NoError(t, rows.Scan(&acct, &cur, &amount))
		sums[cur] += amount
		n++
		if acct == w.payee {
			assert.EqualValues(t, 300, amount, "the payee's credit is positive")
		}
	}
	require.NoError(t, rows.Err())
	assert.GreaterOrEqual(t, n, 4, "the hold and the completion")
	assert.Equal(t, map[string]int64{"USD": 0}, sums)

	// A day's volume sent by currency (the fundings are INCOMING deposits).
	vol := map[string]int64{}
	rows, err = c.Query(ctx, `SELECT sent_currency, sum(sent_amount) FROM transactions
		WHERE status = 'COMPLETED' AND type = 'OUTGOING' AND created_at >= date_trunc('day', now()) - interval '1 day' GROUP BY sent_currency`)
	require.NoError(t, err)
	for rows.Next() {
		var cur string
		var sum int64
		require.NoError(t, rows.Scan(&cur, &sum))
		vol[cur] = sum
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, map[string]int64{"USD": w.totalMoved}, vol)

	// The journal sums to zero in every currency.
	rows, err = c.Query(ctx, `SELECT currency, sum(amount) FROM ledger_entries GROUP BY currency`)
	require.NoError(t, err)
	currencies := 0
	for rows.Next() {
		var cur string
		var sum int64
		require.NoError(t, rows.Scan(&cur, &sum))
		assert.Zero(t, sum, "currency %s", cur)
		currencies++
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, 2, currencies, "USD and EUR moved")
	var balanceSum int64
	require.NoError(t, c.QueryRow(ctx, `SELECT coalesce(sum(balance), 0) FROM ledger_balances WHERE currency = 'EUR'`).Scan(&balanceSum))
	assert.Zero(t, balanceSum)

	// Every declared column is filled by some real record: its path
	// names a member the areas write. An incoming UMA payment fills the
	// sender's address, and a payout to an UMA address that the rail
	// refuses fills the receiver's and the refund's reference.
	payee, err := w.eng.Accounts.Internal(ctx, w.payee)
	require.NoError(t, err)
	_, err = w.eng.Sandbox.Receive(ctx, payments.ReceiveRequest{SenderUmaAddress: sandbox.UMASuccessUSD, CustomerID: payee.CustomerID,
		ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 100})
	require.NoError(t, err)
	payer, err := w.eng.Accounts.Internal(ctx, w.payer)
	require.NoError(t, err)
	lookup, err := w.eng.Lookups.UMA(ctx, sandbox.UMAFailComplianceUS, payer.CustomerID)
	require.NoError(t, err)
	q, err := w.eng.Quotes.Create(ctx, payments.QuoteRequest{LookupID: lookup.ID, SenderCustomerInfo: map[string]any{"FULL_NAME": "Ann Payer"}, Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: w.payer},
		Destination:        payments.QuoteDestination{DestinationType: "UMA_ADDRESS", UmaAddress: sandbox.UMAFailComplianceUS, Currency: "USD"},
		LockedCurrencySide: "SENDING", LockedCurrencyAmount: 50, ImmediatelyExecute: true})
	require.NoError(t, err)
	_, err = w.eng.ProcessDue(ctx)
	require.NoError(t, err)
	refunded, err := w.eng.Transactions.Get(ctx, q.TransactionID)
	require.NoError(t, err)
	require.NotNil(t, refunded.Refund, "the refused payout is refunded")
	// A payout to a bank account fills its rail.
	bank, err := w.eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: payer.CustomerID, Currency: "USD",
		AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"7778885678","routingNumber":"021000021",
			"beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Ann Payer"}}`)}, payments.CustomerScope)
	require.NoError(t, err)
	q, err = w.eng.Quotes.Create(ctx, transfer(w.payer, bank.ID, 20, true))
	require.NoError(t, err)
	paid, err := w.eng.Transactions.Get(ctx, q.TransactionID)
	require.NoError(t, err)
	require.NotEmpty(t, paid.PaymentRail, "a payout names its rail")
	require.Contains(t, store.Shapes(), "transactions", "the engine declared its tables to the store")
	for table, sh := range store.Shapes() {
		for _, col := range sh.Columns {
			var filled bool
			require.NoError(t, c.QueryRow(ctx, fmt.Sprintf(`SELECT count(%s) > 0 FROM %s`, pgx.Identifier{col.Name}.Sanitize(),
				pgx.Identifier{sh.Table}.Sanitize())).Scan(&filled))
			assert.True(t, filled, "%s.%s (from %s of the engine's %s) is NULL in every row", sh.Table, col.Name, col.Path, table)
		}
	}
	require.NoError(t, payments.CheckLedger(ctx, store))
}

// TestTables_MatchDeclarations: the tables the store built from the
// areas' declarations (and the migrations, for the ledger) have the
// declared columns, with their types, a B-tree index per order the lists
// read (each column an engine index reads, then creation and id) besides
// the declared ones, and the view of the accounts with their balances.
func TestTables_MatchDeclarations(t *testing.T) {
	store, schema := openSchema(t)
	newEngine(t, store)
	c := sqlConn(t, schema)
	shapes := store.Shapes()
	for _, table := range []string{"customers", "internal_accounts", "external_accounts", "quotes", "transactions", "ledger_entries"} {
		require.Contains(t, shapes, table)
	}
	for table, sh := range shapes {
		want := []string{"id text"}
		for _, col := range sh.Columns {
			typ := col.Type
			if typ == "timestamptz" {
				typ = "timestamp with time zone"
			}
			want = append(want, col.Name+" "+typ)
		}
		want = append(want, "doc json")
		assert.Equal(t, want, columnsOf(t, c, schema, sh.Table), "table %s (the engine's %s)", sh.Table, table)
	}
	assert.Equal(t, []string{"id text", "customer_id text", "type text", "status text", "currency text",
		"balance bigint", "held bigint", "total_balance bigint", "created_at timestamp with time zone",
		"updated_at timestamp with time zone", "doc json"}, columnsOf(t, c, schema, "internal_accounts"),
		"the accounts with their balances, after the currency")
	// The transactions in the order of every list of them: by each column
	// an index reads, of the rows with a value in it, then by creation
	// (and the README's created_at).
	var indexes []string
	require.NoError(t, c.QueryRow(ctx, `SELECT array_agg(replace(indexdef, $1, '') ORDER BY indexname) FROM pg_indexes
		WHERE schemaname = $2 AND tablename = 'transactions'`, schema+".", schema).Scan(&indexes))
	assert.Equal(t, []string{
		"CREATE INDEX transactions_created_at ON transactions USING btree (created_at)",
		"CREATE INDEX transactions_customer_id_created_at ON transactions USING btree (customer_id, created_at) WHERE (customer_id <> ''::text)",
		"CREATE INDEX transactions_destination_account_id_created_at ON transactions USING btree (destination_account_id, created_at) WHERE (destination_account_id <> ''::text)",
		"CREATE INDEX transactions_destination_uma_address_created_at ON transactions USING btree (destination_uma_address, created_at) WHERE (destination_uma_address <> ''::text)",
		"CREATE UNIQUE INDEX transactions_pkey ON transactions USING btree (id)",
		"CREATE INDEX transactions_platform_customer_id_created_at ON transactions USING btree (platform_customer_id, created_at) WHERE (platform_customer_id <> ''::text)",
		"CREATE INDEX transactions_quote_id_created_at ON transactions USING btree (quote_id, created_at) WHERE (quote_id <> ''::text)",
		"CREATE INDEX transactions_refund_reference_created_at ON transactions USING btree (refund_reference, created_at) WHERE (refund_reference <> ''::text)",
		"CREATE INDEX transactions_source_account_id_created_at ON transactions USING btree (source_account_id, created_at) WHERE (source_account_id <> ''::text)",
		"CREATE INDEX transactions_source_uma_address_created_at ON transactions USING btree (source_uma_address, created_at) WHERE (source_uma_address <> ''::text)",
		"CREATE INDEX transactions_status_created_at ON transactions USING btree (status, created_at) WHERE (status <> ''::text)",
		"CREATE INDEX transactions_type_created_at ON transactions USING btree (type, created_at) WHERE (type <> ''::text)",
	}, indexes)
	var customerIndexes []string
	require.NoError(t, c.QueryRow(ctx, `SELECT array_agg(indexname::text ORDER BY indexname) FROM pg_indexes
		WHERE schemaname = $1 AND tablename = 'customers'`, schema).Scan(&customerIndexes))
	assert.Equal(t, []string{"customers_created_at", "customers_customer_type_created_at",
		"customers_pkey", "customers_platform_customer_id_created_at",
		"customers_uma_address_created_at"}, customerIndexes,
		"a status is computed from the type and both statuses (Rows.Kept): no column orders it")
}

// columnsOf returns the columns of a table or view of schema, as "name
// type", in order.
func columnsOf(t testing.TB, c *pgx.Conn, schema, table string) []string {
	t.Helper()
	rows, err := c.Query(ctx, `SELECT column_name, data_type FROM information_schema.columns
		WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`, schema, table)
	require.NoError(t, err)
	var got []string
	for rows.Next() {
		var name, typ string
		require.NoError(t, rows.Scan(&name, &typ))
		got = append(got, name+" "+typ)
	}
	require.NoError(t, rows.Err())
	return got
}

// TestTables_HotAccountAnnouncesEveryBalance: payments out of one account
// from several processes (engines, each with its own store) all complete;
// every balance the account's webhooks announce is a balance it really
// had (each one once: the deferred balance moves never announce a stale
// one), the journal balances in SQL, and a warm payment's write is one
// round trip.
func TestTables_HotAccountAnnouncesEveryBalance(t *testing.T) {
	dsn, schema := pgtest.DSN(t), pgtest.Schema(t)
	var mu sync.Mutex
	var announced []int64
	var stores []*pgstore.Store
	var engines []*payments.Engine
	var payer string
	for i := range 3 {
		s, err := pgstore.Open(ctx, dsn, &pgstore.Options{Schema: schema})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		eng, err := payments.New(payments.Config{Store: s, Sandbox: true, KYC: sandbox.KYC{}, Rail: sandbox.Rail{}, Rates: sandbox.Rates{},
			Notifier: payments.NotifierFunc(func(_ context.Context, ev payments.Event) error {
				if ev.Type != "INTERNAL_ACCOUNT.BALANCE_UPDATED" {
					return nil
				}
				var v struct {
					ID      string `json:"id"`
					Balance struct {
						Amount int64 `json:"amount"`
					} `json:"balance"`
				}
				if err := jsonUnmarshal(ev.Data, &v); err != nil {
					return err
				}
				if v.ID == payer {
					mu.Lock()
					announced = append(announced, v.Balance.Amount)
					mu.Unlock()
				}
				return nil
			})})
		require.NoError(t, err)
		t.Cleanup(func() { _ = eng.Close() })
		stores, engines = append(stores, s), append(engines, eng)
		if i == 0 {
			_, payer = account(t, eng, individual("Hana Hot", "USD"), "USD")
			_, err = eng.Sandbox.Fund(ctx, payer, 10_000)
			require.NoError(t, err)
		}
	}
	const callers, each = 4, 15
	var payees []string
	for i := range len(engines) * callers {
		_, p := account(t, engines[0], individual(fmt.Sprintf("Payee %d", i), "USD"), "USD")
		payees = append(payees, p)
	}
	var wg sync.WaitGroup
	for i, p := range payees {
		eng := engines[i%len(engines)]
		wg.Go(func() {
			for range each {
				if _, err := eng.Quotes.Create(ctx, transfer(payer, p, 1, true)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	payments := len(payees) * each
	final := int64(10_000 - payments)
	a, err := engines[0].Accounts.Internal(ctx, payer)
	require.NoError(t, err)
	require.Equal(t, final, a.Balance.Amount)
	for _, eng := range engines {
		_, err := eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
	}
	mu.Lock()
	seen := map[int64]int{}
	for _, b := range announced {
		seen[b]++
	}
	mu.Unlock()
	for b := final; b < 10_000; b++ {
		assert.Equal(t, 1, seen[b], "balance %d announced %d times", b, seen[b])
	}
	assert.Equal(t, 1, seen[10_000], "the funding")
	require.NoError(t, pgCheck(t, schema))

	// Warm, a payment costs a few round trips: its pricing reads checked
	// in one, its commit in one (and the hot balance's lock in one), with
	// the webhook worker's share.
	s := stores[0]
	_, err = engines[0].Quotes.Create(ctx, transfer(payer, payees[1], 1, true))
	require.NoError(t, err)
	before := s.Stats()
	const n = 20
	for range n {
		_, err = engines[0].Quotes.Create(ctx, transfer(payer, payees[1], 1, true))
		require.NoError(t, err)
	}
	after := s.Stats()
	perPayment := float64(after.RoundTrips-before.RoundTrips) / n
	t.Logf("round trips per payment: %.1f, statements %.1f", perPayment, float64(after.Statements-before.Statements)/n)
	// (The key-value store before ran some 20 statements per payment, most
	// of them a round trip of its own.)
	assert.LessOrEqual(t, perPayment, 7.0)
}

// pgCheck checks the journal of schema in SQL: every currency sums to zero
// and every balance is its postings' sum.
func pgCheck(t testing.TB, schema string) error {
	c := sqlConn(t, schema)
	var bad int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM (SELECT currency FROM ledger_entries GROUP BY currency HAVING sum(amount) <> 0) x`).Scan(&bad); err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("%d currencies do not sum to zero", bad)
	}
	err := c.QueryRow(ctx, `SELECT count(*) FROM ledger_balances b FULL JOIN
		(SELECT account, currency, sum(amount) AS s FROM ledger_entries GROUP BY account, currency) e USING (account, currency)
		WHERE coalesce(b.balance, 0) <> coalesce(e.s, 0)`).Scan(&bad)
	if err == nil && bad > 0 {
		err = fmt.Errorf("%d balances are not their postings' sum", bad)
	}
	return err
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
